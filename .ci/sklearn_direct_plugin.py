"""pytest plugin for ``.ci/sklearn_direct``: scikit-learn's own metric tests
calling turbometrics' functions directly, without
:func:`turbometrics.sklearn.patch`.

Before collection, each public function of ``sklearn.metrics`` that
turbometrics implements is replaced by turbometrics' function of that name
(``turbometrics.f1_score``, with its ``n_threads`` parameter and no fallback
to scikit-learn), so that the test modules' ``from sklearn.metrics import
f1_score`` import it; names the test modules imported otherwise are
replaced after collection. scikit-learn's internal callers and scorers keep
scikit-learn's functions: the tests exercise what a user calling
``turbometrics.<name>`` gets, warnings and errors included.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

_originals: dict[str, Callable[..., Any]] = {}


def _replace_in_test_modules() -> None:
    import turbometrics

    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("sklearn.metrics.tests.") and module is not None:
            for name, original in _originals.items():
                if vars(module).get(name) is original:
                    setattr(module, name, getattr(turbometrics, name))


def pytest_configure(config: Any) -> None:
    import sklearn.metrics

    import turbometrics
    from turbometrics.sklearn import METRIC_NAMES

    for name in METRIC_NAMES:
        _originals[name] = getattr(sklearn.metrics, name)
        setattr(sklearn.metrics, name, getattr(turbometrics, name))


def pytest_collection_finish(session: Any) -> None:
    _replace_in_test_modules()


def pytest_unconfigure(config: Any) -> None:
    import sklearn.metrics

    for name, original in _originals.items():
        setattr(sklearn.metrics, name, original)


def pytest_report_header(config: Any) -> str:
    return "sklearn_direct: sklearn.metrics functions replaced by turbometrics' functions (no patch)"
