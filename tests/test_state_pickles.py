"""States pickled by turbometrics 0.1.0 still load and give the same numbers
(the pickles and their values were written by tests/data/make_state_pickles.py
with 0.1.0)."""

import json
import pickle
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "data"))
from make_state_pickles import HERE, _binned, _calibration, _confusion, _ranking  # noqa: E402

_METRICS = {"ranking": _ranking, "binned": _binned, "confusion": _confusion, "calibration": _calibration}
_EXPECTED = json.loads((HERE / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(_EXPECTED))
def test_pickle_of_0_1_0_loads_with_the_same_numbers(name):
    state = pickle.loads((HERE / f"{name}.pkl").read_bytes())
    values = _METRICS[name.split("_")[0]](state)
    assert json.loads(json.dumps(values)) == _EXPECTED[name]
