"""Confusion matrices: ``confusion_matrix`` and ``multilabel_confusion_matrix``.

Both are built from one compiled pass over the labels (see ``_targets``);
the per-label one-vs-rest counts that precision, recall, F-scores and the
Jaccard index need come from the same table, so no metric reads the data a
second time.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _core
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, str_options, validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import as_array, check_consistent_length, check_dimensions, check_orderable, num_samples
from ._params import LABELS
from ._targets import (
    Targets,
    check_targets,
    confusion_counts,
    count_sums,
    exact_sum,
    in_order_sums,
    kernel_readable,
    promoted_counts,
    promoted_targets,
)


class _Ones:
    """Stands for scikit-learn's all-ones weights in a length check."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_pred": [ARRAY_LIKE],
        "labels": [ARRAY_LIKE, NONE],
        "sample_weight": [ARRAY_LIKE, NONE],
        "normalize": [str_options({"true", "pred", "all"}), NONE],
    }
)
def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: str | None = None,
    n_threads: int | None = None,
) -> np.ndarray:
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
    threads = resolve_threads(n_threads)
    table = confusion_table(y_true, y_pred, labels, sample_weight, threads)
    return normalized(table, normalize)


def confusion_table(y_true: Any, y_pred: Any, labels: Any, sample_weight: Any, threads: int) -> np.ndarray:
    """The body of ``confusion_matrix`` without normalisation (shared with
    the metrics built on it), with scikit-learn's checks and warning."""
    return labelled_table(confusion_input(y_true, y_pred, sample_weight, threads), labels)


def confusion_input(y_true: Any, y_pred: Any, sample_weight: Any, threads: int) -> TargetCounts:
    """scikit-learn's checks of ``confusion_matrix``'s arrays, in its order."""
    for values in (y_true, y_pred):
        check_dimensions(as_array(values))
    if sample_weight is None:
        # scikit-learn weighs by ones, which take part in the length check
        check_consistent_length(y_true, y_pred, _Ones(num_samples(as_array(y_true))))
    elif np.ndim(sample_weight) and len(sample_weight) == 0:
        sample_weight = None
    return TargetCounts(check_targets(y_true, y_pred, sample_weight, threads=threads), threads)


def labelled_table(counts: Any, labels: Any, common: np.dtype | None = None) -> np.ndarray:
    """The confusion table of ``counts`` (a :class:`TargetCounts` or a
    ``ConfusionState``) over ``labels`` (None: the present labels), with
    scikit-learn's label checks and single-label warning. ``common``: the
    table of ``counts.promoted_table(common)`` instead (``labels`` None)."""
    if counts.kind not in ("binary", "multiclass"):
        raise ValueError(f"{counts.kind} is not supported")
    table = counts.promoted_table(common)[1] if common is not None else counts.table()
    if labels is not None:
        labels = np.asarray(labels)
        if labels.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if len(np.intersect1d(counts.true_labels, labels)) == 0:
            raise ValueError("At least one label specified must be in y_true")
        table = _select_labels(table, counts.labels, labels)
    if table.shape == (1, 1):
        warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the "
            "correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning,
            stacklevel=4,
        )
    return table


class TargetCounts:
    """The counts the classification metrics read, computed on demand from
    checked in-memory targets. ``ConfusionState`` offers the same attributes
    and methods from its accumulated counts, so every metric has one
    implementation over either.

    Attributes
    ----------
    kind : {'binary', 'multiclass', 'multilabel-indicator'}
    labels : ndarray
        Sorted present labels (column indices for multilabel input).
    true_labels : ndarray or None
        Sorted labels present in y_true (1-D input).
    weighted : bool
        Whether sample weights were given.
    n_samples : int
    total : int or float
        The number of samples, or the sum of the weights.
    """

    def __init__(self, targets: Targets, threads: int) -> None:
        self.targets = targets
        self.threads = threads
        self.kind = targets.kind
        self.labels = targets.labels
        self.true_labels = targets.true_labels
        self.n_samples = int(targets.y_true.shape[0])
        self._table: np.ndarray | None = None
        self._promoted: dict = {}

    @property
    def weighted(self) -> bool:
        return self.targets.sample_weight is not None

    @property
    def total(self) -> Any:
        weight = self.targets.sample_weight
        return exact_sum(weight) if weight is not None else self.n_samples

    def table(self) -> np.ndarray:
        """The K x K confusion table over ``labels`` (1-D input)."""
        if self._table is None:
            self._table = confusion_counts(self.targets, self.threads)
        return self._table

    def promoted_table(self, common: np.dtype | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(classes, table) of :func:`turbometrics.classification._targets.promoted_counts`
        (1-D input) for labels cast to ``common`` (None: the dtype of the
        label union, as the one-vs-rest counts read them)."""
        common = self.labels.dtype if common is None else common
        if common not in self._promoted:
            self._promoted[common] = promoted_counts(self.targets, self.threads, common)
        return self._promoted[common]

    def label_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(classes, tp, true_sum, pred_sum) per class of
        :meth:`promoted_table` (1-D input). Fractional weights are summed
        per label in input order, as scikit-learn's ``np.bincount`` sums
        them (not as row and column sums of the table)."""
        weight = self.targets.sample_weight
        if weight is None or weight.dtype.kind != "f":
            return table_label_sums(*self.promoted_table())
        promoted = promoted_targets(self.targets, self.labels.dtype)
        table, true_sum, pred_sum = in_order_sums(promoted, weight, self.threads, marginals=True)
        return promoted.labels, np.diagonal(table).copy(), true_sum, pred_sum

    def indicator_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per column (weighted) counts of true, predicted and both
        (multilabel input)."""
        return _indicator_sums(self.targets, self.threads)

    def sample_groups(self, columns: np.ndarray | None) -> SampleGroups:
        """The samples grouped by their (true positives, predicted, true)
        counts over ``columns`` (multilabel input)."""
        y_true, y_pred = self.targets.y_true, self.targets.y_pred
        if columns is not None:
            y_true, y_pred = y_true[:, columns], y_pred[:, columns]
        return sample_groups(y_true, y_pred, self.targets.sample_weight)

    def samplewise(self, columns: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per-sample tp, fp, fn, tn (multilabel input)."""
        return _samplewise(self.targets, columns)


class SampleGroups:
    """Multilabel samples grouped by the triple (true positives, predicted
    labels, true labels): every per-sample precision, recall, F-score and
    Jaccard index depends on that triple only, so 'samples' averages are
    weighted sums over the groups. A sample of weight zero counts as the
    triple (0, 0, 0), as scikit-learn's weighted per-sample counts are 0.

    Attributes
    ----------
    keys : ndarray of int64
        Sorted distinct ``(tp * (width + 1) + predicted) * (width + 1) +
        true``.
    width : int
        Number of label columns.
    count : ndarray of int64
        Samples per group.
    weight : ndarray of float64 or None
        Sum of the sample weights per group (None when unweighted).
    """

    def __init__(self, keys: np.ndarray, width: int, count: np.ndarray, weight: np.ndarray | None) -> None:
        self.keys = keys
        self.width = width
        self.count = count
        self.weight = weight

    def triples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(tp, predicted, true) per group, int64."""
        base = self.width + 1
        return self.keys // (base * base), (self.keys // base) % base, self.keys % base

    def merge(self, other: SampleGroups) -> SampleGroups:
        """The groups of both sets of samples (same width)."""
        keys, inverse = np.unique(np.concatenate([self.keys, other.keys]), return_inverse=True)
        count = np.zeros(keys.shape[0], dtype=np.int64)
        np.add.at(count, inverse, np.concatenate([self.count, other.count]))
        weight = None
        if self.weight is not None or other.weight is not None:
            weight = np.zeros(keys.shape[0])
            np.add.at(weight, inverse, np.concatenate([_group_weight(self), _group_weight(other)]))
        return SampleGroups(keys, self.width, count, weight)


def _group_weight(groups: SampleGroups) -> np.ndarray:
    return groups.weight if groups.weight is not None else groups.count.astype(np.float64)


def sample_groups(y_true: np.ndarray, y_pred: np.ndarray, weight: np.ndarray | None) -> SampleGroups:
    """Group the rows of two indicator arrays by their triple (see
    :class:`SampleGroups`)."""
    true_nz, pred_nz = y_true != 0, y_pred != 0
    width = int(y_true.shape[1])
    base = width + 1
    keys = (
        np.count_nonzero(true_nz & pred_nz, axis=1).astype(np.int64) * base + np.count_nonzero(pred_nz, axis=1)
    ) * base + np.count_nonzero(true_nz, axis=1)
    if weight is not None:
        keys = np.where(np.asarray(weight) == 0, 0, keys)
    if base**3 <= max(4 * keys.shape[0], 1 << 16):
        count = np.bincount(keys, minlength=base**3)
        distinct = np.flatnonzero(count)
        count = count[distinct].astype(np.int64)
        inverse = None
    else:
        distinct, inverse, count = np.unique(keys, return_inverse=True, return_counts=True)
        count = count.astype(np.int64)
    group_weight = None
    if weight is not None:
        w = np.asarray(weight, dtype=np.float64)
        if inverse is None:
            group_weight = np.bincount(keys, weights=w, minlength=base**3)[distinct]
        else:
            group_weight = np.bincount(inverse.reshape(-1), weights=w, minlength=distinct.shape[0])
    return SampleGroups(distinct.astype(np.int64), width, count, group_weight)


def _select_labels(table: np.ndarray, present: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Rows and columns of ``table`` (over ``present``) in the order of
    ``labels``; absent labels give zero rows. A repeated label keeps only its
    last position, as scikit-learn's label-to-index mapping does."""
    position = {label: index for index, label in enumerate(labels.tolist())}
    source, target = [], []
    for index, label in enumerate(present.tolist()):
        if label in position:
            source.append(index)
            target.append(position[label])
    out = np.zeros((labels.shape[0], labels.shape[0]), dtype=table.dtype)
    if source:
        out[np.ix_(target, target)] = table[np.ix_(source, source)]
    return out


def normalized(table: np.ndarray, normalize: str | None) -> np.ndarray:
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


@validate_params(
    {
        "y_true": LABELS,
        "y_pred": LABELS,
        "sample_weight": [ARRAY_LIKE, NONE],
        "labels": [ARRAY_LIKE, NONE],
        "samplewise": [BOOLEAN],
    }
)
def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
    n_threads: int | None = None,
) -> np.ndarray:
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
    threads = resolve_threads(n_threads)
    check_orderable(y_true, y_pred)
    counts = TargetCounts(check_targets(y_true, y_pred, sample_weight, threads=threads), threads)
    matrices = stacked_one_vs_rest(counts, labels, bool(samplewise))
    if counts.kind == "multilabel-indicator" and not samplewise:
        return _with_sparse_bincount_dtype(matrices, counts, chosen_columns(counts, labels))
    return matrices


def _with_sparse_bincount_dtype(matrices: np.ndarray, counts: TargetCounts, columns: np.ndarray | None) -> np.ndarray:
    """scikit-learn's dtype for weighted per-label matrices of indicator
    input. It counts over CSR matrices with ``np.bincount``, which returns
    float64 with weights but int64 (ignoring the weights) when a matrix has
    no nonzero entry; tn is ``np.sum(sample_weight)`` minus the others. So
    when no selected entry of y_true or y_pred is nonzero, integer and bool
    weights give int64 (unsigned ones float64, as uint64 - int64 does)."""
    weight = counts.targets.sample_weight
    if weight is None or weight.dtype.kind == "f":
        return matrices
    y_true, y_pred = counts.targets.y_true, counts.targets.y_pred
    if columns is not None:
        y_true, y_pred = y_true[:, columns], y_pred[:, columns]
    if np.any(y_true) or np.any(y_pred):
        return matrices
    total = np.sum(weight)
    dtype = np.result_type(total.dtype, np.int64)
    exact = np.zeros(matrices.shape, dtype=dtype)
    exact[:, 0, 0] = total
    return exact


def stacked_one_vs_rest(counts: Any, labels: Any, samplewise: bool) -> np.ndarray:
    """``one_vs_rest`` as the (n_outputs, 2, 2) array ``[[tn, fp], [fn, tp]]``."""
    tp, fp, fn, tn = one_vs_rest(counts, labels, samplewise)
    return np.stack([tn, fp, fn, tp]).T.reshape(-1, 2, 2)


def _chosen_labels(present: np.ndarray, labels: Any) -> tuple[np.ndarray, int | None]:
    """scikit-learn's label order: ``labels`` then the other present ones,
    and how many were given (None when ``labels`` is None)."""
    if labels is None:
        return present, None
    given = np.asarray(labels)
    return np.concatenate([given, np.setdiff1d(present, given, assume_unique=True)], axis=-1), given.shape[0]


def chosen_columns(counts: Any, labels: Any) -> np.ndarray | None:
    """The indicator columns ``labels`` selects (None: all), checked as
    scikit-learn checks them (multilabel input)."""
    present = counts.labels
    chosen, n_labels = _chosen_labels(present, labels)
    if chosen.shape != present.shape or np.any(chosen != present):
        if np.max(chosen) > np.max(present):
            raise ValueError(
                "All labels must be in [0, n labels) for multilabel targets. "
                "Got %d > %d" % (np.max(chosen), np.max(present))
            )
        if np.min(chosen) < 0:
            raise ValueError("All labels must be in [0, n labels) for multilabel targets. Got %d < 0" % np.min(chosen))
    return chosen[:n_labels] if n_labels is not None else None


def one_vs_rest(counts: Any, labels: Any, samplewise: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-label (or per-sample) tp, fp, fn, tn with scikit-learn's dtypes,
    from ``counts`` (a :class:`TargetCounts` or a ``ConfusionState``)."""
    if counts.kind != "multilabel-indicator":
        chosen, n_labels = _chosen_labels(counts.labels, labels)
        if samplewise:
            raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
        return _one_vs_rest_1d(counts, chosen[:n_labels] if n_labels is not None else counts.labels)
    columns = chosen_columns(counts, labels)
    if samplewise:
        return counts.samplewise(columns)
    true_sum, pred_sum, tp = counts.indicator_sums()
    if columns is not None:
        true_sum, pred_sum, tp = true_sum[columns], pred_sum[columns], tp[columns]
    fp = pred_sum - tp
    fn = true_sum - tp
    return tp, fp, fn, counts.total - tp - fp - fn


def _one_vs_rest_1d(counts: Any, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    present, tp, true_sum, pred_sum = counts.label_sums()
    if wanted is not present and wanted.dtype.kind in "US" and present.dtype.kind not in "USO":
        present, tp, true_sum, pred_sum = _as_strings(present, wanted.dtype, tp, true_sum, pred_sum)
    if counts.weighted:
        tp, true_sum, pred_sum = (values.astype(np.float64) for values in (tp, true_sum, pred_sum))
    elif not tp.any():
        tp = np.zeros(tp.shape[0])  # scikit-learn's float zeros when nothing is right
    if wanted is not present:
        index = np.minimum(np.searchsorted(present, wanted), present.shape[0] - 1)
        found = present[index] == wanted
        tp = np.where(found, tp[index], 0).astype(tp.dtype)
        true_sum = np.where(found, true_sum[index], 0).astype(true_sum.dtype)
        pred_sum = np.where(found, pred_sum[index], 0).astype(pred_sum.dtype)
    fp = pred_sum - tp
    fn = true_sum - tp
    return tp, fp, fn, counts.total - tp - fp - fn


def _as_strings(present: np.ndarray, dtype: np.dtype, *sums: np.ndarray) -> tuple[np.ndarray, ...]:
    """Numeric or bool ``present`` labels as strings of ``dtype``, sorted,
    with their per-label ``sums`` in the same order. String ``labels`` with
    other labels make scikit-learn's label union a string array, and its
    ``LabelEncoder`` casts ``y_true`` and ``y_pred`` to it: label 0 is then
    the string '0' (0.0 is '0.0', True is 'True')."""
    names = present.astype(dtype)
    order = np.argsort(names, kind="stable")
    return (names[order], *(values[order] for values in sums))


def table_label_sums(present: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(present, tp, true_sum, pred_sum): the diagonal, row and column sums
    of a confusion table."""
    return present, np.diagonal(table).copy(), count_sums(table, axis=1), count_sums(table, axis=0)


def _indicator_sums(targets: Targets, threads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-column (weighted) counts of nonzero y_true, y_pred and both."""
    y_true, y_pred = targets.y_true, targets.y_pred
    weight = targets.sample_weight
    if y_true.dtype != y_pred.dtype:
        common = np.result_type(y_true.dtype, y_pred.dtype)
        y_true, y_pred = y_true.astype(common), y_pred.astype(common)
    if kernel_readable(y_true):
        weights = None if weight is None else np.ascontiguousarray(weight, dtype=np.float64)
        view = (lambda a: a.view(np.uint8)) if y_true.dtype.kind == "b" else (lambda a: a)
        # fractional weights in row order, as scikit-learn's np.bincount over its CSR indices adds them
        kernel: Callable[..., Any] = (
            _core.classification.indicator_in_order
            if weight is not None and weight.dtype.kind == "f"
            else _core.classification.indicator_sums
        )
        sums = kernel(view(y_true), view(y_pred), weights, threads_for(threads, y_true.size))
        return sums[0], sums[1], sums[2]
    true_nz, pred_nz = y_true != 0, y_pred != 0
    if weight is None:
        return true_nz.sum(axis=0), pred_nz.sum(axis=0), (true_nz & pred_nz).sum(axis=0)
    w = np.asarray(weight, dtype=np.float64)
    return w @ true_nz, w @ pred_nz, w @ (true_nz & pred_nz)


def _samplewise(targets: Targets, columns: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    y_true, y_pred = targets.y_true, targets.y_pred
    if columns is not None:
        y_true, y_pred = y_true[:, columns], y_pred[:, columns]
    true_nz, pred_nz = y_true != 0, y_pred != 0
    weight = targets.sample_weight
    # scikit-learn counts with np.diff of the CSR index pointers: intp when
    # unweighted, the index dtype (int32 below 2**31 entries) times the weights
    index = np.intp if weight is None or max(y_true.size, *y_true.shape) > np.iinfo(np.int32).max else np.int32
    tp = np.count_nonzero(true_nz & pred_nz, axis=1).astype(index)
    pred_sum = np.count_nonzero(pred_nz, axis=1).astype(index)
    true_sum = np.count_nonzero(true_nz, axis=1).astype(index)
    if weight is not None:
        tp, pred_sum, true_sum = tp * weight, pred_sum * weight, true_sum * weight
    fp = pred_sum - tp
    fn = true_sum - tp
    width = y_true.shape[1]
    total = weight * width if weight is not None else width
    return tp, fp, fn, total - tp - fp - fn
