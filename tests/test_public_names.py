"""Every public name importable before issue 13 moved the private modules into
area subpackages is still importable from the same module
(``tests/data/public_names.json``, written by
``tests/data/make_public_names.py`` before the move)."""

import importlib
import json
from pathlib import Path

import pytest

_NAMES = json.loads((Path(__file__).parent / "data" / "public_names.json").read_text())
_OPTIONAL = {"turbometrics.dask": "dask", "turbometrics.plot": "matplotlib", "turbometrics.torch": "torch"}


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


# The area subpackages whose ``__all__`` lists public functions and classes
# that the top level re-exports.
_AREAS = ("calibration", "classification", "coco", "density", "evaluator", "io", "ranking", "stability", "states")


def test_one_object_per_public_name():
    """``turbometrics.X is turbometrics.<area>.X``: the top level re-exports
    the areas' objects and wraps none of them (array inputs are adapted by
    the validating decorator itself), and every top-level function or class
    lives in an area, apart from the thread settings and the warning and
    error classes (package-level)."""
    import inspect

    import turbometrics

    areas = {area: importlib.import_module(f"turbometrics.{area}") for area in _AREAS}
    homeless = []
    for name in turbometrics.__all__:
        value = getattr(turbometrics, name)
        if inspect.ismodule(value):
            continue
        homes = [area for area, module in areas.items() if name in getattr(module, "__all__", ())]
        if not homes:
            homeless.append(name)
        for area in homes:
            assert getattr(areas[area], name) is value, f"turbometrics.{name} is not turbometrics.{area}.{name}"
    assert homeless == ["InvalidParameterError", "UndefinedMetricWarning", "get_num_threads", "set_num_threads"]


def test_every_metric_function_is_registered():
    """The registry (``turbometrics._registry.FUNCTIONS``) holds every public
    function of the metric areas, as the object the area exports, and the
    top level's ``__all__`` is derived from it: a metric function added to an
    area without its registry entry fails here."""
    import inspect

    import turbometrics
    from turbometrics._registry import FUNCTIONS, top_level_names

    registered = {(metric.area, metric.name): metric for metric in FUNCTIONS}
    assert len(registered) == len(FUNCTIONS)
    top_level = [metric.name for metric in FUNCTIONS if metric.top_level]
    assert len(set(top_level)) == len(top_level)
    for metric in FUNCTIONS:
        assert getattr(importlib.import_module(f"turbometrics.{metric.area}"), metric.name) is metric.function
        assert (getattr(turbometrics, metric.name, None) is metric.function) == metric.top_level
    for area in ("calibration", "classification", "density", "ranking", "segmentation", "stability"):
        module = importlib.import_module(f"turbometrics.{area}")
        functions = [name for name in module.__all__ if inspect.isfunction(getattr(module, name))]
        assert [name for name in functions if (area, name) not in registered] == [], area
    assert turbometrics.__all__ == top_level_names()
