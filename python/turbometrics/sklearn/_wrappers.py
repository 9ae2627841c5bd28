"""The patch's wrappers, importable by name.

``turbometrics.sklearn._wrappers.roc_auc_score`` is the wrapper that
:func:`turbometrics.sklearn.patch` puts in place of scikit-learn's
``roc_auc_score`` (created on first access; the access imports
scikit-learn). Each wrapper's ``__module__`` and ``__qualname__`` name this
address, so pickling one (a scorer sent to joblib workers by
``cross_val_score(..., n_jobs=2)``) stores it, and the worker process gets
the wrapper again: its calls run turbometrics too.
"""

from __future__ import annotations

from typing import Any

from ._names import PATCHED_NAMES


def __getattr__(name: str) -> Any:
    if name not in PATCHED_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import sklearn.metrics

    from ._patch import original_of, wrapper_for

    return wrapper_for(name, original_of(getattr(sklearn.metrics, name)))
