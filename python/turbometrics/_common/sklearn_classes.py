"""scikit-learn's warning and error classes for turbometrics' warnings and
errors, resolved when one is issued.

turbometrics defines its own ``UndefinedMetricWarning`` and
``InvalidParameterError`` (``import turbometrics`` does not import
scikit-learn). Code written for scikit-learn filters, catches and expects
scikit-learn's classes (``pytest.warns(sklearn.exceptions.
UndefinedMetricWarning)``, ``except InvalidParameterError``), so when
scikit-learn is installed turbometrics warns and raises with a class derived
from both scikit-learn's class and its own: clauses naming either class
match. Without scikit-learn it uses its own class.

The derived classes live (by name, created on first access) in this module,
so that warnings and errors carrying them pickle: to dask and joblib
workers and back.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
from typing import Any, TypeVar, cast

from . import exceptions

# turbometrics' class name -> the scikit-learn module defining the class of that name.
_SCIKIT_LEARN_MODULES = {
    "UndefinedMetricWarning": "sklearn.exceptions",
    "InvalidParameterError": "sklearn.utils._param_validation",
}

Class = TypeVar("Class", bound=type)


def _scikit_learn_class(name: str) -> type | None:
    """scikit-learn's class ``name`` (importing its module), or None when
    scikit-learn is not installed or does not import."""
    if "sklearn" not in sys.modules and importlib.util.find_spec("sklearn") is None:
        return None
    try:
        found = getattr(importlib.import_module(_SCIKIT_LEARN_MODULES[name]), name)
    except Exception:  # noqa: BLE001 - a broken scikit-learn must not break turbometrics' warnings
        return None
    return found if isinstance(found, type) else None


@functools.cache
def scikit_learn_compatible(ours: Class) -> Class:
    """The class to warn or raise with instead of turbometrics' ``ours``:
    derived from scikit-learn's class of the same name and from ``ours``
    when scikit-learn is installed, else ``ours`` itself (looked up once)."""
    theirs = _scikit_learn_class(ours.__name__)
    if theirs is None:
        return ours
    derived = type(ours.__name__, (theirs, ours), {"__module__": __name__, "__doc__": ours.__doc__})
    return cast(Class, derived)


def __getattr__(name: str) -> Any:
    """The derived class ``name`` (the address its instances pickle by)."""
    if name not in _SCIKIT_LEARN_MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return scikit_learn_compatible(getattr(exceptions, name))
