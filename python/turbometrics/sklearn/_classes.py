"""scikit-learn's warning and error classes for turbometrics' code while
the patch is active.

turbometrics defines its own ``UndefinedMetricWarning`` and
``InvalidParameterError`` (it does not import scikit-learn). Code written
for scikit-learn catches or filters scikit-learn's classes, so while
patched, turbometrics' modules raise and warn with a class derived from
both: scikit-learn's filters, ``pytest.warns`` and ``except`` clauses match
it, and so do those naming turbometrics' class.
"""

from __future__ import annotations

import sys
from typing import Dict, Iterator, Tuple

import turbometrics

_bridges: Dict[type, type] = {}


def _bridge_pairs() -> Dict[type, type]:
    """turbometrics' class -> the class derived from it and scikit-learn's."""
    if not _bridges:
        from sklearn.exceptions import UndefinedMetricWarning
        from sklearn.utils._param_validation import InvalidParameterError

        for ours, theirs in ((turbometrics.UndefinedMetricWarning, UndefinedMetricWarning),
                             (turbometrics.InvalidParameterError, InvalidParameterError)):
            _bridges[ours] = type(ours.__name__, (theirs, ours), {"__module__": theirs.__module__,
                                                                 "__doc__": ours.__doc__})
    return _bridges


def _turbometrics_namespaces() -> Iterator[dict]:
    """The globals of turbometrics' submodules (not of the package itself,
    whose public classes keep their identity)."""
    for name, module in list(sys.modules.items()):
        if module is not None and name.startswith("turbometrics."):
            yield vars(module)


def _rebind(pairs: Iterator[Tuple[type, type]]) -> None:
    replacements = dict(pairs)
    for namespace in _turbometrics_namespaces():
        for attribute, value in list(namespace.items()):
            if isinstance(value, type) and value in replacements:
                namespace[attribute] = replacements[value]


def use_scikit_learn_classes() -> None:
    """Make turbometrics' modules raise and warn with the derived classes."""
    _rebind(iter(_bridge_pairs().items()))


def use_turbometrics_classes() -> None:
    """Undo :func:`use_scikit_learn_classes`."""
    _rebind((bridge, ours) for ours, bridge in _bridges.items())
