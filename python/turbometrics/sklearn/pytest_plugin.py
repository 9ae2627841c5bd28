"""pytest plugin running a test session with :func:`turbometrics.sklearn.patch`
active: ``python -m pytest -p turbometrics.sklearn.pytest_plugin ...``.

The patch is applied when pytest configures itself, before any test module
is imported, so that modules importing scikit-learn's metrics get the
wrappers; it is removed when pytest finishes. The terminal summary reports
how many calls of the patched functions turbometrics computed and how many
went to scikit-learn's own function (the fallback).
"""

from __future__ import annotations

from typing import Any

from ._patch import patch, unpatch
from ._wrappers import calls


def pytest_configure(config: Any) -> None:
    patch()


def pytest_unconfigure(config: Any) -> None:
    unpatch()


def pytest_report_header(config: Any) -> str:
    return "turbometrics.sklearn: scikit-learn's metrics patched with turbometrics"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    terminalreporter.write_line(
        f"turbometrics.sklearn: {calls['turbometrics']} calls computed by turbometrics, "
        f"{calls['scikit-learn']} by scikit-learn (fallback)"
    )
