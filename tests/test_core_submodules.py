"""The compiled module's layout: one submodule of turbometrics._core per
area, each importable by name (stubtest and mypy import them so), the
compiled module not shadowed by its stub package, and the module's exception
reachable and raised."""

from __future__ import annotations

import importlib
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from turbometrics import _core

AREAS = [
    "calibration",
    "classification",
    "coco_masks",
    "coco_results",
    "density",
    "detection",
    "exact_sums",
    "labels",
    "ranking",
    "ranking_tables",
    "segmentation",
    "stability",
    "threads",
]
STUBS = pathlib.Path(__file__).resolve().parents[1] / "python" / "turbometrics" / "_core"


def test_compiled_module_is_not_shadowed_by_its_stub_package():
    assert pathlib.Path(_core.__file__).name.startswith("_core.")
    assert not hasattr(_core, "__path__")


def test_one_submodule_per_area_and_one_stub_each():
    runtime = sorted(name for name, value in vars(_core).items() if isinstance(value, type(_core)))
    assert runtime == AREAS
    assert sorted(path.stem for path in STUBS.glob("*.pyi") if path.stem != "__init__") == AREAS


@pytest.mark.parametrize("area", AREAS)
def test_submodule_importable_by_name(area):
    name = f"turbometrics._core.{area}"
    assert importlib.import_module(name) is getattr(_core, area)
    assert getattr(_core, area).__name__ == name
    # a fresh interpreter: the import statement itself loads the parent and finds the submodule
    subprocess.run([sys.executable, "-c", f"import {name}; {name}.__name__"], check=True)


def test_invalid_input_values_is_reachable_and_raised():
    error = _core.ranking.InvalidInputValues
    assert issubclass(error, ValueError)
    assert error.__module__ == "turbometrics._core.ranking"
    scores = np.array([0.5, np.nan, 0.1])
    is_positive = np.array([True, False, True])
    with pytest.raises(error) as raised:
        _core.ranking.roc_auc(scores, is_positive, None, None, 1, check_values=1)
    assert raised.value.args == (1, 0, False)
