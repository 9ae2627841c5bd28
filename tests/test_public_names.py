"""Every public name importable before issue 13 moved the private modules into
area subpackages is still importable from the same module
(``tests/data/public_names.json``, written by
``tests/data/make_public_names.py`` before the move)."""

import importlib
import json
from pathlib import Path

import pytest

_NAMES = json.loads((Path(__file__).parent / "data" / "public_names.json").read_text())
_OPTIONAL = {"turbometrics.dask": "dask", "turbometrics.plot": "matplotlib"}


@pytest.mark.parametrize("module", sorted(_NAMES))
def test_public_names_still_importable(module):
    if module in _OPTIONAL:
        pytest.importorskip(_OPTIONAL[module])
    imported = importlib.import_module(module)
    missing = [name for name in _NAMES[module] if not hasattr(imported, name)]
    assert missing == []


def test_top_level_all_is_sorted_and_complete():
    import turbometrics

    assert turbometrics.__all__ == sorted(turbometrics.__all__)
    assert set(turbometrics.__all__) == set(_NAMES["turbometrics"])
