"""pytest plugin for the .ci scripts that run scikit-learn's own metric
tests against turbometrics (``.ci/sklearn_suite``, ``.ci/sklearn_direct``):
deselects the tests whose expectation turbometrics departs from on purpose,
each with its reason. Loaded with ``-p known_differences`` (``.ci`` on
``PYTHONPATH``); the deselected tests are named in the run's summary.
"""

from __future__ import annotations

from typing import Any

#: test name -> why turbometrics differs on purpose.
KNOWN_DIFFERENCES: dict[str, str] = {
    # scikit-learn's confusion_matrix sums integer weights in int64 and
    # asserts that three weights of 2**63 - 1 wrap to -2. turbometrics never
    # wraps (issue 17): a cell whose exact sum does not fit in int64 makes
    # the matrix float64, each cell the exact sum rounded once; where every
    # cell fits, dtype and values are scikit-learn's
    # (tests/classification/test_hostile_classification.py).
    "test_confusion_matrix_dtype": "integer weights are never wrapped",
}


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    deselected = [item for item in items if item.originalname in KNOWN_DIFFERENCES]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item.originalname not in KNOWN_DIFFERENCES]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for name, reason in KNOWN_DIFFERENCES.items():
        terminalreporter.write_line(f"known difference, deselected: {name} ({reason})")
