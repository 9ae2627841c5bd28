"""Classification metrics: scikit-learn 1.9.1's signatures and results.

Each metric is computed from one (weighted) confusion table built by a
single compiled pass over the labels (``_targets``/``_confusion``); the
table is K x K, so everything after that pass is negligible NumPy work.
This module holds accuracy, balanced accuracy, Cohen's kappa and the
Matthews correlation coefficient and re-exports the others:

* ``_confusion``: ``confusion_matrix``, ``multilabel_confusion_matrix``;
* ``_prf``: precision, recall, F-scores, ``jaccard_score``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import _core
from .._common.exceptions import UndefinedMetricWarning
from .._common.params import ARRAY_LIKE, validate_params
from .._common.sklearn_classes import scikit_learn_compatible
from .._common.threads import resolve_threads, threads_for
from .._common.validation import check_consistent_length, check_orderable, check_sample_weight
from ._confusion import (
    TargetCounts,
    confusion_input,
    confusion_matrix,
    confusion_table,
    labelled_table,
    multilabel_confusion_matrix,
)
from ._params import FLAG, KAPPA_WEIGHTS, LABELS, REPLACE_UNDEFINED, WEIGHTS
from ._prf import (
    f1_score,
    fbeta_score,
    jaccard_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from ._targets import (
    check_targets,
    confusion_counts,
    count_sums,
    exact_sum,
    integer_sums_fit,
    kernel_readable,
    kernel_weights,
    rounds_labels,
)

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "jaccard_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]


@validate_params({"y_true": LABELS, "y_pred": LABELS, "normalize": FLAG, "sample_weight": WEIGHTS})
def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None, n_threads: int | None = None
) -> float:
    """Accuracy (subset accuracy for multilabel input).

    Same as :func:`sklearn.metrics.accuracy_score`.

    Parameters
    ----------
    y_true, y_pred : array-like or label indicator array
    normalize : bool, default=True
        Return the fraction (True) or the (weighted) number of correct samples.
    sample_weight : array-like of shape (n_samples,), default=None
    n_threads : int, default=None
        Threads for the counting pass; the result is identical for every
        thread count.

    Returns
    -------
    float

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> tm.accuracy_score([0, 1, 2, 3], [0, 2, 1, 3], normalize=False)
    2.0
    """
    threads = resolve_threads(n_threads)
    quick = _integer_agreement(y_true, y_pred, sample_weight, normalize, threads)
    if quick is not None:
        return quick
    check_orderable(y_true, y_pred)
    targets = check_targets(y_true, y_pred, sample_weight, threads=threads)
    weight = targets.sample_weight
    if (
        targets.kind == "multilabel-indicator"
        or (weight is not None and weight.dtype.kind == "f")
        or rounds_labels(targets, np.result_type(targets.y_true.dtype, targets.y_pred.dtype))
    ):
        # NumPy's rounding (fractional weights are summed in NumPy's order, float32 ones in float32, integers
        # past 2**53 compared with floats as floats), or 2-D rows.
        if targets.kind == "multilabel-indicator":
            correct = ~np.any(targets.y_true != targets.y_pred, axis=1)
        else:
            correct = targets.y_true == targets.y_pred
        if normalize:
            return float(np.average(correct, weights=weight))
        if weight is not None:
            return float(np.dot(correct, weight))
        return float(np.sum(correct.astype(np.float64)))
    table = confusion_counts(targets, threads)
    if weight is not None and table.dtype.kind == "f":
        # Integer weights whose cell sums pass int64: the table's cells are rounded, so the correct samples'
        # weight and the total are summed exactly from the weights themselves.
        correct, total = exact_sum(weight[targets.y_true == targets.y_pred]), exact_sum(weight)
    else:
        correct = exact_sum(np.diagonal(table))
        total = exact_sum(table) if weight is not None else targets.y_true.shape[0]
    return accuracy_from_counts(correct, total, normalize, weight is not None)


def accuracy_from_counts(correct: Any, total: Any, normalize: bool, weighted: bool) -> float:
    """Accuracy from the (weighted) number of correct samples and the total."""
    if not normalize:
        return float(correct)
    if weighted and total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(correct / total)


def _integer_agreement(y_true: Any, y_pred: Any, sample_weight: Any, normalize: bool, threads: int) -> float | None:
    """Accuracy of two non-empty 1-D arrays of one integer (or bool) dtype in
    one pass, or None for any other input.

    For such input scikit-learn's target checks cannot fail (the type is
    binary or multiclass, no strings are mixed in) and accuracy needs no
    label set, so only the trace of the confusion table is computed."""
    if not (isinstance(y_true, np.ndarray) and isinstance(y_pred, np.ndarray)):
        return None
    if y_true.dtype != y_pred.dtype or not kernel_readable(y_true) or y_true.dtype.kind not in "biu":
        return None
    arrays = []
    for array in (y_true, y_pred):
        if array.ndim == 2 and array.shape[1] == 1:
            array = array.reshape(-1)
        if array.ndim != 1 or not array.flags.c_contiguous or array.shape[0] == 0:
            return None
        arrays.append(array.view(np.uint8) if array.dtype.kind == "b" else array)
    check_consistent_length(y_true, y_pred, sample_weight)
    weights = None
    if sample_weight is not None:
        weights = check_sample_weight(sample_weight, arrays[0].shape[0], force_float=False)
        if weights.dtype.kind == "f" and weights.dtype != np.float64:
            return None  # NumPy sums float32 weights in float32: the general path reproduces that
        if weights.dtype.kind in "iu" and not integer_sums_fit(weights):
            return None  # the general path sums such weights without wrapping
        weights = kernel_weights(weights)
    n = arrays[0].shape[0]
    if weights is not None and weights.dtype.kind == "f":
        # np.average's pairwise sums (np.dot, BLAS, for the unnormalised count)
        if not normalize:
            return float(np.dot(arrays[0] == arrays[1], weights))
        agree, total = _core.classification.agreement_pairwise(arrays[0], arrays[1], weights, threads_for(threads, n))
    else:
        agree, total = _core.classification.agreement(arrays[0], arrays[1], weights, threads_for(threads, n))
    return accuracy_from_counts(agree, total, normalize, weights is not None)


@validate_params({"y_true": [ARRAY_LIKE], "y_pred": [ARRAY_LIKE], "sample_weight": WEIGHTS, "adjusted": FLAG})
def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False, n_threads: int | None = None
) -> float:
    """Balanced accuracy: the mean of per-class recall.

    Same as :func:`sklearn.metrics.balanced_accuracy_score`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
    adjusted : bool, default=False
        Rescale so that chance scores 0 and perfect scores 1.
    n_threads : int, default=None

    Returns
    -------
    float

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    table = confusion_table(y_true, y_pred, None, sample_weight, resolve_threads(n_threads))
    return balanced_accuracy_from_table(table, adjusted)


def balanced_accuracy_from_table(table: np.ndarray, adjusted: bool) -> float:
    """Balanced accuracy of a confusion table."""
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.diagonal(table) / count_sums(table, axis=1)
    if np.any(np.isnan(per_class)):
        warnings.warn("y_pred contains classes not in y_true", stacklevel=3)
        per_class = per_class[~np.isnan(per_class)]
    score = np.mean(per_class)
    if adjusted:
        chance = 1 / per_class.shape[0]
        score -= chance
        score /= 1 - chance
    return float(score)


@validate_params(
    {
        "y1": [ARRAY_LIKE],
        "y2": [ARRAY_LIKE],
        "labels": WEIGHTS,
        "weights": KAPPA_WEIGHTS,
        "sample_weight": WEIGHTS,
        "replace_undefined_by": REPLACE_UNDEFINED,
    }
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
) -> float | Any:
    """Cohen's kappa: agreement between two annotators beyond chance.

    Same as :func:`sklearn.metrics.cohen_kappa_score`.

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
    labels : array-like, default=None
        Labels to index the confusion matrix (see :func:`confusion_matrix`).
    weights : {'linear', 'quadratic'}, default=None
        Disagreement weights; None counts every disagreement as 1.
    sample_weight : array-like of shape (n_samples,), default=None
    replace_undefined_by : float in [-1, 1] or np.nan, default=np.nan
        Returned (with an UndefinedMetricWarning) when kappa is undefined.
    n_threads : int, default=None

    Returns
    -------
    float

    Examples
    --------
    >>> import turbometrics as tm
    >>> round(tm.cohen_kappa_score(["cat", "ant", "cat", "cat"], ["ant", "ant", "cat", "cat"]), 6)
    0.5
    >>> round(tm.cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 1], weights="quadratic"), 6)
    0.636364
    """
    counts = confusion_input(y1, y2, sample_weight, resolve_threads(n_threads))
    return cohen_kappa_from_counts(counts, labels, weights, replace_undefined_by)


def cohen_kappa_from_counts(counts: Any, labels: Any, weights: str | None, replace_undefined_by: Any) -> float | Any:
    """Cohen's kappa from checked counts (a ``TargetCounts`` or a
    ``ConfusionState``)."""
    try:
        table = labelled_table(counts, labels)
    except ValueError as error:
        if "At least one label specified must be in y_true" in str(error):
            raise ValueError(
                "At least one label in `labels` must be present in `y1` (even though "
                "`cohen_kappa_score` is otherwise agnostic to the order of `y1` and `y2`)."
            ) from error
        raise
    k = table.shape[0]
    table = table.astype(np.float64, copy=False)
    sum0 = table.sum(axis=0)
    sum1 = table.sum(axis=1)
    total = np.sum(sum0)
    if total == 0:
        warnings.warn(
            "`y2` contains no labels that are present in both `y1` and `labels`.`cohen_kappa_score` is "
            "undefined and set to the value defined by the `replace_undefined_by` param, which is set to "
            f"{replace_undefined_by}.",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=3,
        )
        return replace_undefined_by
    expected = np.outer(sum0, sum1) / total
    if weights is None:
        disagreement = np.ones((k, k))
        np.fill_diagonal(disagreement, 0)
    else:
        grid = np.zeros((k, k)) + np.arange(k)
        disagreement = np.abs(grid - grid.T) if weights == "linear" else (grid - grid.T) ** 2
    observed = np.sum(disagreement * table)
    chance = np.sum(disagreement * expected)
    if chance == 0:
        warnings.warn(
            "`y1`, `y2` and `labels` have only one label in common. `cohen_kappa_score` is undefined and "
            "set to the value defined by the the `replace_undefined_by` param, which is set to "
            f"{replace_undefined_by}.",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=3,
        )
        return replace_undefined_by
    return float(1 - observed / chance)


@validate_params({"y_true": [ARRAY_LIKE], "y_pred": [ARRAY_LIKE], "sample_weight": WEIGHTS})
def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None, n_threads: int | None = None) -> float:
    """Matthews correlation coefficient (multiclass as in Gorodkin 2004).

    Same as :func:`sklearn.metrics.matthews_corrcoef`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
    n_threads : int, default=None

    Returns
    -------
    float
        0.0 when either marginal is constant.

    Examples
    --------
    >>> import turbometrics as tm
    >>> round(tm.matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1]), 6)
    -0.333333
    """
    threads = resolve_threads(n_threads)
    check_orderable(y_true, y_pred)
    counts = TargetCounts(check_targets(y_true, y_pred, sample_weight, threads=threads), threads)
    common = np.result_type(counts.targets.y_true.dtype, counts.targets.y_pred.dtype)  # of np.hstack
    return matthews_from_table(labelled_table(counts, None, common))


def matthews_from_table(table: np.ndarray) -> float:
    """The Matthews correlation coefficient of a confusion table."""
    t_sum = table.sum(axis=1, dtype=np.float64)
    p_sum = table.sum(axis=0, dtype=np.float64)
    n_correct = np.trace(table, dtype=np.float64)
    n_samples = p_sum.sum()
    cov_ytyp = n_correct * n_samples - np.dot(t_sum, p_sum)
    cov_ypyp = n_samples**2 - np.dot(p_sum, p_sum)
    cov_ytyt = n_samples**2 - np.dot(t_sum, t_sum)
    product = cov_ypyp * cov_ytyt
    if product == 0:
        return 0.0
    return float(cov_ytyp / np.sqrt(product))
