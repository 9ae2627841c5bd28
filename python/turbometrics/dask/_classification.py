"""Classification metrics over dask collections: one ConfusionState per
block, tree-merged; the metric is the merged state's method (which is the
in-memory function's own code on the merged counts)."""

from __future__ import annotations

from functools import partial
from typing import Any

import dask
import numpy as np

from ._graph import block_states, check_split_every, tree_reduce
from ._results import Warned, finish, recorded


def _block_state(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None, *, n_threads: int | None
) -> Any:
    from ..states import ConfusionState

    return ConfusionState.from_arrays(y_true, y_pred, sample_weight=sample_weight, n_threads=n_threads)


def evaluate(state: Any, method: str, kwargs: dict[str, Any]) -> Warned:
    """The merged state's ``method`` with its warnings."""
    return recorded(getattr(state, method), **kwargs)


def _metric(
    method: str,
    y_true: Any,
    y_pred: Any,
    sample_weight: Any,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    **kwargs: Any,
) -> Any:
    every = check_split_every(split_every)
    blocks = block_states(
        partial(_block_state, n_threads=n_threads), y_true=y_true, y_pred=y_pred, sample_weight=sample_weight
    )
    merged = tree_reduce(blocks, every)
    return finish(dask.delayed(evaluate, pure=True)(merged, method, kwargs), compute)


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: str | None = None,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.confusion_matrix`."""
    return _metric(
        "confusion_matrix",
        y_true,
        y_pred,
        sample_weight,
        n_threads,
        compute,
        split_every,
        labels=labels,
        normalize=normalize,
    )


def accuracy_score(
    y_true: Any,
    y_pred: Any,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.accuracy_score`."""
    return _metric("accuracy", y_true, y_pred, sample_weight, n_threads, compute, split_every, normalize=normalize)


def balanced_accuracy_score(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    adjusted: bool = False,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.balanced_accuracy_score`."""
    return _metric(
        "balanced_accuracy", y_true, y_pred, sample_weight, n_threads, compute, split_every, adjusted=adjusted
    )


def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: Any = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.precision_recall_fscore_support`."""
    return _metric(
        "precision_recall_fscore_support",
        y_true,
        y_pred,
        sample_weight,
        n_threads,
        compute,
        split_every,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=warn_for,
        zero_division=zero_division,
    )


def _set_wise(method: str, doc: str) -> Any:
    def metric(
        y_true: Any,
        y_pred: Any,
        *,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        sample_weight: Any = None,
        zero_division: Any = "warn",
        n_threads: int | None = None,
        compute: bool = True,
        split_every: int | None = None,
    ) -> Any:
        return _metric(
            method,
            y_true,
            y_pred,
            sample_weight,
            n_threads,
            compute,
            split_every,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )

    metric.__doc__ = f"As :func:`turbometrics.{doc}`."
    metric.__name__ = metric.__qualname__ = doc
    return metric


precision_score = _set_wise("precision", "precision_score")
recall_score = _set_wise("recall", "recall_score")
f1_score = _set_wise("f1", "f1_score")
jaccard_score = _set_wise("jaccard", "jaccard_score")


def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.fbeta_score`."""
    return _metric(
        "fbeta",
        y_true,
        y_pred,
        sample_weight,
        n_threads,
        compute,
        split_every,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )


def cohen_kappa_score(
    y1: Any,
    y2: Any,
    *,
    labels: Any = None,
    weights: str | None = None,
    sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.cohen_kappa_score`."""
    return _metric(
        "cohen_kappa",
        y1,
        y2,
        sample_weight,
        n_threads,
        compute,
        split_every,
        labels=labels,
        weights=weights,
        replace_undefined_by=replace_undefined_by,
    )


def matthews_corrcoef(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """As :func:`turbometrics.matthews_corrcoef`."""
    return _metric("matthews_corrcoef", y_true, y_pred, sample_weight, n_threads, compute, split_every)
