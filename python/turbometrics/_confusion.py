"""Confusion matrices: ``confusion_matrix`` and ``multilabel_confusion_matrix``.

Both are built from one compiled pass over the labels (see ``_targets``);
the per-label one-vs-rest counts that precision, recall, F-scores and the
Jaccard index need come from the same table, so no metric reads the data a
second time.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import numpy as np

from . import _core
from ._metric_params import LABELS
from ._params import ARRAY_LIKE, BOOLEAN, NONE, bind_like_scikit_learn, str_options, validate
from ._targets import Targets, check_targets, confusion_counts, kernel_readable, kernel_weights
from ._threads import resolve_threads, threads_for
from ._validation import as_array, check_consistent_length, check_dimensions, num_samples


class _Ones:
    """Stands for scikit-learn's all-ones weights in a length check."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


@bind_like_scikit_learn
def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
                     normalize: Optional[str] = None, n_threads: Optional[int] = None) -> np.ndarray:
    """Confusion matrix of a classification.

    Same as :func:`sklearn.metrics.confusion_matrix`: ``C[i, j]`` is the
    (weighted) number of samples of true class ``i`` predicted as ``j``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (integers, floats, bools or strings).
    labels : array-like of shape (n_classes,), default=None
        Labels indexing the matrix (a subset or reordering); None uses the
        sorted labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
    normalize : {'true', 'pred', 'all'}, default=None
        Normalise over rows, columns or the whole matrix.
    n_threads : int, default=None
        Threads for the counting pass; None uses
        :func:`turbometrics.get_num_threads`. The result is identical for
        every thread count.

    Returns
    -------
    C : ndarray of shape (n_classes, n_classes)
        int64 when unweighted or with integer weights, float64 otherwise or
        when normalised.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    array([[2, 0, 0],
           [0, 0, 1],
           [1, 0, 2]])
    >>> tm.confusion_matrix(["cat", "ant", "cat"], ["ant", "ant", "cat"], labels=["ant", "cat"], normalize="true")
    array([[1. , 0. ],
           [0.5, 0.5]])
    """
    validate("confusion_matrix", {"y_true": y_true, "y_pred": y_pred, "labels": labels,
                                  "sample_weight": sample_weight, "normalize": normalize},
             {"y_true": [ARRAY_LIKE], "y_pred": [ARRAY_LIKE], "labels": [ARRAY_LIKE, NONE],
              "sample_weight": [ARRAY_LIKE, NONE], "normalize": [str_options({"true", "pred", "all"}), NONE]})
    threads = resolve_threads(n_threads)
    table = confusion_table(y_true, y_pred, labels, sample_weight, threads)
    return _normalized(table, normalize)


def confusion_table(y_true: Any, y_pred: Any, labels: Any, sample_weight: Any, threads: int) -> np.ndarray:
    """The body of ``confusion_matrix`` without normalisation (shared with
    the metrics built on it), with scikit-learn's checks and warning."""
    for values in (y_true, y_pred):
        check_dimensions(as_array(values))
    if sample_weight is None:
        # scikit-learn weighs by ones, which take part in the length check
        check_consistent_length(y_true, y_pred, _Ones(num_samples(as_array(y_true))))
    elif np.ndim(sample_weight) and len(sample_weight) == 0:
        sample_weight = None
    targets = check_targets(y_true, y_pred, sample_weight, threads=threads)
    if targets.kind not in ("binary", "multiclass"):
        raise ValueError(f"{targets.kind} is not supported")
    weights = kernel_weights(targets.sample_weight)
    table = confusion_counts(targets, weights, threads)
    if labels is not None:
        labels = np.asarray(labels)
        if labels.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if len(np.intersect1d(targets.true_labels, labels)) == 0:
            raise ValueError("At least one label specified must be in y_true")
        table = _select_labels(table, targets.labels, labels)
    if table.shape == (1, 1):
        warnings.warn("A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the "
                      "correct shape, use the 'labels' parameter to pass all known labels.", UserWarning,
                      stacklevel=3)
    return table


def _select_labels(table: np.ndarray, present: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Rows and columns of ``table`` (over ``present``) in the order of
    ``labels``; absent labels give zero rows. A repeated label keeps only its
    last position, as scikit-learn's label-to-index mapping does."""
    position = {}
    for index, label in enumerate(labels.tolist()):
        position[label] = index
    source, target = [], []
    for index, label in enumerate(present.tolist()):
        if label in position:
            source.append(index)
            target.append(position[label])
    out = np.zeros((labels.shape[0], labels.shape[0]), dtype=table.dtype)
    if source:
        out[np.ix_(target, target)] = table[np.ix_(source, source)]
    return out


def _normalized(table: np.ndarray, normalize: Optional[str]) -> np.ndarray:
    if normalize is None:
        return table
    with np.errstate(all="ignore"):
        if normalize == "true":
            table = table / table.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            table = table / table.sum(axis=0, keepdims=True)
        else:
            table = table / table.sum()
        return np.nan_to_num(table)


@bind_like_scikit_learn
def multilabel_confusion_matrix(y_true: Any, y_pred: Any, *, sample_weight: Any = None, labels: Any = None,
                                samplewise: bool = False, n_threads: Optional[int] = None) -> np.ndarray:
    """One-vs-rest 2 x 2 confusion matrix per label (or per sample).

    Same as :func:`sklearn.metrics.multilabel_confusion_matrix`: entry
    ``[k]`` is ``[[tn, fp], [fn, tp]]`` for label ``k``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Labels, or multilabel indicator arrays.
    sample_weight : array-like of shape (n_samples,), default=None
    labels : array-like, default=None
        Labels (column indices for indicator input) to report, in order.
    samplewise : bool, default=False
        Per-sample matrices (multilabel input only).
    n_threads : int, default=None
        Threads for the counting pass.

    Returns
    -------
    ndarray of shape (n_outputs, 2, 2)

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.multilabel_confusion_matrix(["cat", "ant", "cat", "bird"], ["ant", "ant", "cat", "cat"],
    ...                                labels=["ant", "bird", "cat"])
    array([[[2, 1],
            [0, 1]],
    <BLANKLINE>
           [[3, 0],
            [1, 0]],
    <BLANKLINE>
           [[1, 1],
            [1, 1]]])
    """
    validate("multilabel_confusion_matrix", {"y_true": y_true, "y_pred": y_pred, "sample_weight": sample_weight,
                                             "labels": labels, "samplewise": samplewise},
             {"y_true": LABELS, "y_pred": LABELS, "sample_weight": [ARRAY_LIKE, NONE],
              "labels": [ARRAY_LIKE, NONE], "samplewise": [BOOLEAN]})
    threads = resolve_threads(n_threads)
    targets = check_targets(y_true, y_pred, sample_weight, threads=threads)
    tp, fp, fn, tn = one_vs_rest(targets, labels, bool(samplewise), threads)
    return np.stack([tn, fp, fn, tp]).T.reshape(-1, 2, 2)


def one_vs_rest(targets: Targets, labels: Any, samplewise: bool, threads: int
                ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-label (or per-sample) tp, fp, fn, tn with scikit-learn's dtypes."""
    present = targets.labels
    weight = targets.sample_weight
    if labels is None:
        chosen = present
        n_labels = None
    else:
        given = np.asarray(labels)
        n_labels = given.shape[0]
        chosen = np.concatenate([given, np.setdiff1d(present, given, assume_unique=True)], axis=-1)
    if targets.y_true.ndim == 1:
        if samplewise:
            raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
        return _one_vs_rest_1d(targets, chosen[:n_labels] if n_labels is not None else present, threads)
    if chosen.shape != present.shape or np.any(chosen != present):
        if np.max(chosen) > np.max(present):
            raise ValueError("All labels must be in [0, n labels) for multilabel targets. "
                             "Got %d > %d" % (np.max(chosen), np.max(present)))
        if np.min(chosen) < 0:
            raise ValueError("All labels must be in [0, n labels) for multilabel targets. Got %d < 0"
                             % np.min(chosen))
    columns = chosen[:n_labels] if n_labels is not None else None
    if samplewise:
        return _samplewise(targets, columns)
    true_sum, pred_sum, tp = _indicator_sums(targets, threads)
    if columns is not None:
        true_sum, pred_sum, tp = true_sum[columns], pred_sum[columns], tp[columns]
    fp = pred_sum - tp
    fn = true_sum - tp
    total = np.sum(weight) if weight is not None else targets.y_true.shape[0]
    return tp, fp, fn, total - tp - fp - fn


def _one_vs_rest_1d(targets: Targets, wanted: np.ndarray, threads: int
                    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    weight = targets.sample_weight
    table = confusion_counts(targets, kernel_weights(weight), threads)
    tp = np.diagonal(table).copy()
    true_sum = table.sum(axis=1)
    pred_sum = table.sum(axis=0)
    if weight is not None:
        tp, true_sum, pred_sum = (values.astype(np.float64) for values in (tp, true_sum, pred_sum))
    elif not tp.any():
        tp = np.zeros(tp.shape[0])  # scikit-learn's float zeros when nothing is right
    present = targets.labels
    if wanted is not present:
        index = np.minimum(np.searchsorted(present, wanted), present.shape[0] - 1)
        found = present[index] == wanted
        tp = np.where(found, tp[index], 0).astype(tp.dtype)
        true_sum = np.where(found, true_sum[index], 0).astype(true_sum.dtype)
        pred_sum = np.where(found, pred_sum[index], 0).astype(pred_sum.dtype)
    fp = pred_sum - tp
    fn = true_sum - tp
    total = np.sum(weight) if weight is not None else targets.y_true.shape[0]
    return tp, fp, fn, total - tp - fp - fn


def _indicator_sums(targets: Targets, threads: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-column (weighted) counts of nonzero y_true, y_pred and both."""
    y_true, y_pred = targets.y_true, targets.y_pred
    weight = targets.sample_weight
    if y_true.dtype != y_pred.dtype:
        common = np.result_type(y_true.dtype, y_pred.dtype)
        y_true, y_pred = y_true.astype(common), y_pred.astype(common)
    if kernel_readable(y_true):
        weights = None if weight is None else np.ascontiguousarray(weight, dtype=np.float64)
        view = (lambda a: a.view(np.uint8)) if y_true.dtype.kind == "b" else (lambda a: a)
        sums = _core.indicator_sums(view(y_true), view(y_pred), weights, threads_for(threads, y_true.size))
        return sums[0], sums[1], sums[2]
    true_nz, pred_nz = y_true != 0, y_pred != 0
    if weight is None:
        return true_nz.sum(axis=0), pred_nz.sum(axis=0), (true_nz & pred_nz).sum(axis=0)
    w = np.asarray(weight, dtype=np.float64)
    return w @ true_nz, w @ pred_nz, w @ (true_nz & pred_nz)


def _samplewise(targets: Targets, columns: Optional[np.ndarray]
                ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    y_true, y_pred = targets.y_true, targets.y_pred
    if columns is not None:
        y_true, y_pred = y_true[:, columns], y_pred[:, columns]
    true_nz, pred_nz = y_true != 0, y_pred != 0
    tp = np.count_nonzero(true_nz & pred_nz, axis=1).astype(np.intp)
    pred_sum = np.count_nonzero(pred_nz, axis=1).astype(np.intp)
    true_sum = np.count_nonzero(true_nz, axis=1).astype(np.intp)
    weight = targets.sample_weight
    if weight is not None:
        tp, pred_sum, true_sum = tp * weight, pred_sum * weight, true_sum * weight
    fp = pred_sum - tp
    fn = true_sum - tp
    width = y_true.shape[1]
    total = weight * width if weight is not None else width
    return tp, fp, fn, total - tp - fp - fn
