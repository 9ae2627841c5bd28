"""The patch's wrappers: made here (one per scikit-learn function, cached),
and importable by name.

``turbometrics.sklearn._wrappers.roc_auc_score`` is the wrapper that
:func:`turbometrics.sklearn.patch` puts in place of scikit-learn's
``roc_auc_score`` (created on first access; the access imports
scikit-learn). Each wrapper's ``__module__`` and ``__qualname__`` name this
address, so pickling one (a scorer sent to joblib workers by
``cross_val_score(..., n_jobs=2)``) stores it, and the worker process gets
the wrapper again: its calls run turbometrics too.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import turbometrics

from ._fallback import turbometrics_handles
from ._names import PATCHED_NAMES, SCORING_CHECK

# How many calls of the wrappers went to turbometrics and to scikit-learn.
calls: dict[str, int] = {"turbometrics": 0, "scikit-learn": 0}
# id(wrapper) -> (wrapper, original), and the reverse, for every wrapper made.
_wrapper_originals: dict[int, tuple[Callable[..., Any], Callable[..., Any]]] = {}
_original_wrappers: dict[int, tuple[Callable[..., Any], Callable[..., Any]]] = {}


def _make_wrapper(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    if name == SCORING_CHECK:
        return _make_scoring_check(original)
    signature = inspect.signature(original)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            handled = turbometrics_handles(signature.bind(*args, **kwargs).arguments.values())
        except TypeError:
            handled = False
        if not handled:
            calls["scikit-learn"] += 1
            return original(*args, **kwargs)
        calls["turbometrics"] += 1
        return getattr(turbometrics, name)(*args, **kwargs)

    return _addressed(wrapper, name, signature)


def _make_scoring_check(original: Callable[..., Any]) -> Callable[..., Any]:
    """``check_scoring`` seeing scikit-learn's function behind a wrapper:
    scikit-learn refuses a metric function passed as a scorer by its
    ``__module__`` (``sklearn.metrics.*``), which the wrappers do not have."""
    signature = inspect.signature(original)

    @functools.wraps(original)
    def check_scoring(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return original(*args, **kwargs)
        if "scoring" in bound.arguments:
            bound.arguments["scoring"] = original_of(bound.arguments["scoring"])
        return original(*bound.args, **bound.kwargs)

    return _addressed(check_scoring, SCORING_CHECK, signature)


def _addressed(wrapper: Callable[..., Any], name: str, signature: inspect.Signature) -> Callable[..., Any]:
    """``wrapper`` with the original's signature, pickling by its address
    in :mod:`turbometrics.sklearn._wrappers`."""
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.__module__ = __name__
    wrapper.__qualname__ = name
    return wrapper


def wrapper_for(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """The (one, cached) wrapper of scikit-learn's function ``original``."""
    known = _original_wrappers.get(id(original))
    if known is not None and known[1] is original:
        return known[0]
    wrapper = _make_wrapper(name, original)
    _original_wrappers[id(original)] = (wrapper, original)
    _wrapper_originals[id(wrapper)] = (wrapper, original)
    return wrapper


def original_of(function: Any) -> Any:
    """scikit-learn's function behind a patch wrapper (else ``function``)."""
    known = _wrapper_originals.get(id(function))
    return known[1] if known is not None and known[0] is function else function


def __getattr__(name: str) -> Any:
    if name not in PATCHED_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import sklearn.metrics

    return wrapper_for(name, original_of(getattr(sklearn.metrics, name)))
