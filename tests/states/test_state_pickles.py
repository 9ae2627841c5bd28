"""States pickled by turbometrics 0.1.0 still load and give the same numbers
(the pickles and their values were written by tests/data/make_state_pickles.py
with 0.1.0).

One change of numbers is by design: since issue 15 a whole RankingState's
``roc_auc`` and ``average_precision`` are scikit-learn's floats (NumPy's
pairwise summation of its terms, see "Exactness" in docs/guide/exactness.md), where 0.1.0
returned the correctly rounded exact sums; those two may differ from 0.1.0's
value by at most 2 ulps and must equal today's value for the same data.

States and other public objects pickled just before issue 13 moved the
private modules into area subpackages (``state_pickles_pre_restructure/``:
their pickles name the modules of that time, e.g.
``turbometrics.states.ranking`` or ``turbometrics._gaussian_kde``) load and
give exactly the numbers they gave then.
"""

import json
import math
import pickle
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "data"))
from make_state_pickles import (
    HERE,
    PRE_RESTRUCTURE,
    _binned,
    _calibration,
    _confusion,
    _detection,
    _fields,
    _kde,
    _ranking,
    states,
)

_METRICS = {"ranking": _ranking, "binned": _binned, "confusion": _confusion, "calibration": _calibration}
_EXPECTED = json.loads((HERE / "expected.json").read_text())
_PRE_RESTRUCTURE = json.loads((PRE_RESTRUCTURE / "expected.json").read_text())
_MORE = {
    "detection": _detection,
    "gaussian": _kde,
    "confidence": _fields,
    "delong": _fields,
    "best": _fields,
    "reliability": _fields,
}
_SUMMATION_ORDER_CHANGED = {("ranking", "roc_auc"), ("ranking", "average_precision")}


@pytest.fixture(scope="module")
def built_today():
    return states()


@pytest.mark.parametrize("name", sorted(_EXPECTED))
def test_pickle_of_0_1_0_loads_with_the_same_numbers(name, built_today):
    kind = name.split("_")[0]
    state = pickle.loads((HERE / f"{name}.pkl").read_bytes())
    values = json.loads(json.dumps(_METRICS[kind](state)))
    fresh, metrics = built_today[name]
    assert values == json.loads(json.dumps(metrics(fresh)))  # today's numbers for the same data
    expected = dict(_EXPECTED[name])
    for key in [key for key in values if (kind, key) in _SUMMATION_ORDER_CHANGED]:
        old, new = expected.pop(key), values.pop(key)
        assert abs(new - old) <= 2 * math.ulp(old), (key, old, new)
    assert values == expected  # everything else: 0.1.0's numbers


@pytest.mark.parametrize("name", sorted(_PRE_RESTRUCTURE))
def test_pickle_from_before_the_restructure_loads_with_the_same_numbers(name):
    kind = name.split("_")[0]
    restored = pickle.loads((PRE_RESTRUCTURE / f"{name}.pkl").read_bytes())
    metrics = _fields if name == "binned_value" else {**_METRICS, **_MORE}[kind]
    assert json.loads(json.dumps(metrics(restored))) == _PRE_RESTRUCTURE[name]
