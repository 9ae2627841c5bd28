"""Swapping turbometrics' metrics into scikit-learn: ``patch()`` and
``unpatch()``.

``patch()`` replaces each scikit-learn metric that turbometrics implements
by a wrapper with the original's name, docstring and signature, everywhere
scikit-learn code finds it:

- the attributes of ``sklearn.metrics``;
- every global of an imported scikit-learn module that is the original
  function (``sklearn.metrics._ranking``, ``_classification``, ``_scorer``,
  the ``_plot`` displays, the ensembles' out-of-bag scores...), and in other imported
  modules every global of the function's own name (modules that ran
  ``from sklearn.metrics import roc_auc_score``; ``original =
  roc_auc_score`` is left alone);
- the score function of the predefined scorers (``get_scorer("roc_auc")``,
  ``cross_val_score(..., scoring="f1")``);
- ``check_scoring``, the same way, by a wrapper that passes scikit-learn's
  function behind a wrapper to the original, so that a metric function
  passed as a scorer is still refused with scikit-learn's ValueError.

On scikit-learn versions before 1.9.1, a function the installed version
lacks or declares with other parameters is left alone (:func:`skipped`).

The wrapper calls turbometrics when it handles the arguments (see
:mod:`turbometrics.sklearn._fallback`) and the original function otherwise.
``unpatch()`` puts every original back, including in modules imported while
the patch was active. Scorers made with ``make_scorer`` while patched keep
the wrapper (which still gives scikit-learn's results). Wrappers pickle by
their address in :mod:`turbometrics.sklearn._wrappers`, so scorers sent to
joblib workers run turbometrics there too.
"""

from __future__ import annotations

import inspect
import math
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .._common.patched import Patched
from ._functions import FUNCTIONS
from ._names import PATCHED_NAMES, SCORING_CHECK
from ._wrappers import original_of, wrapper_for

# (scorer, original score function) for each predefined scorer patched.
_replaced_scorers: list[tuple[Any, Callable[..., Any]]] = []
# name -> why the last patch() left the installed scikit-learn's function alone.
_skipped: dict[str, str] = {}


def _same_parameters(a: inspect.Signature, b: inspect.Signature) -> bool:
    """Same parameter names, kinds and defaults (NaN defaults equal)."""

    def key(signature: inspect.Signature) -> list[tuple[str, Any, Any]]:
        return [
            (p.name, p.kind, "nan" if isinstance(p.default, float) and math.isnan(p.default) else p.default)
            for p in signature.parameters.values()
        ]

    return key(a) == key(b)


def _skip_reason(name: str, original: Any) -> str | None:
    """Why the installed scikit-learn's ``name`` is not patched, or None."""
    if original is None:
        return "not in this scikit-learn version"
    if name != SCORING_CHECK and not _same_parameters(inspect.signature(original), inspect.signature(FUNCTIONS[name])):
        return "its signature differs from scikit-learn 1.9.1's"
    return None


def _current_originals() -> dict[int, tuple[str, Callable[..., Any]]]:
    """id -> (name, function) of the installed scikit-learn's functions to
    patch; :data:`_skipped` gets the others, with the reason."""
    import sklearn.metrics

    originals = {}
    _skipped.clear()
    for name in PATCHED_NAMES:
        original = original_of(getattr(sklearn.metrics, name, None))
        reason = _skip_reason(name, original)
        if reason is not None:
            _skipped[name] = reason
            continue
        originals[id(original)] = (name, original)
    return originals


def _patchable_globals() -> Iterator[tuple[dict[str, Any], str, Any]]:
    """(module globals, name, value) for every global of an imported
    scikit-learn module, and for the globals named as a patched function in
    other modules (turbometrics' excepted)."""
    for module_name, module in list(sys.modules.items()):
        package = module_name.partition(".")[0]
        namespace = getattr(module, "__dict__", None)
        if package == "turbometrics" or not isinstance(namespace, dict):
            continue
        names = list(namespace) if package == "sklearn" else [name for name in PATCHED_NAMES if name in namespace]
        for name in names:
            yield namespace, name, namespace.get(name)


class _SklearnPatched(Patched):
    """:class:`Patched` whose repr says what is patched now."""

    def __repr__(self) -> str:
        names = patched()
        if not names:
            return "<turbometrics.sklearn.patch(): undone (scikit-learn's own functions)>"
        left = f", {len(_skipped)} left as scikit-learn's (see skipped())" if _skipped else ""
        return (
            f"<turbometrics.sklearn.patch(): {len(names)} scikit-learn functions run turbometrics' kernels{left}; "
            "unpatch() or leaving a with block undoes it>"
        )


def patch() -> Patched:
    """Make scikit-learn's metrics run turbometrics' kernels.

    Idempotent. Returns an object that also serves as a context manager:
    ``with turbometrics.sklearn.patch(): ...`` unpatches on leaving.
    Supports scikit-learn 1.6 to 1.9: a function that the installed version
    lacks (``confusion_matrix_at_thresholds`` before 1.8), or whose
    signature differs from scikit-learn 1.9.1's, is left alone;
    :func:`skipped` says which and why, :func:`patched` lists the others.

    Raises
    ------
    ImportError
        If scikit-learn is not installed.
    """
    import sklearn.metrics._scorer as scorer_module

    originals = _current_originals()
    for namespace, attribute, value in _patchable_globals():
        entry = originals.get(id(value))
        if entry is not None and entry[1] is value:
            namespace[attribute] = wrapper_for(*entry)
    for scorer in scorer_module._SCORERS.values():
        score_func = getattr(scorer, "_score_func", None)
        entry = originals.get(id(score_func))
        if entry is not None and entry[1] is score_func:
            _replaced_scorers.append((scorer, score_func))
            scorer._score_func = wrapper_for(*entry)
    return _SklearnPatched(unpatch)


def unpatch() -> None:
    """Put back every scikit-learn function that :func:`patch` replaced
    (also where modules imported while patched hold a wrapper). Idempotent."""
    for namespace, attribute, value in _patchable_globals():
        original = original_of(value)
        if original is not value:
            namespace[attribute] = original
    while _replaced_scorers:
        scorer, original = _replaced_scorers.pop()
        scorer._score_func = original


def is_patched() -> bool:
    """Whether ``sklearn.metrics`` currently holds turbometrics' wrappers."""
    return bool(patched())


def patched() -> tuple[str, ...]:
    """The names in ``sklearn.metrics`` that currently hold turbometrics'
    wrappers (in :data:`METRIC_NAMES` order, then ``check_scoring``)."""
    module = sys.modules.get("sklearn.metrics")
    if module is None:
        return ()
    return tuple(
        name for name in PATCHED_NAMES if original_of(getattr(module, name, None)) is not getattr(module, name, None)
    )


def skipped() -> dict[str, str]:
    """name -> reason, for the functions the last :func:`patch` left as
    scikit-learn's (empty on scikit-learn 1.9.1)."""
    return dict(_skipped)
