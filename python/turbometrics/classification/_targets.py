"""scikit-learn's ``_check_targets`` for the classification metrics, and the
label encoding behind every confusion table.

Label sets come from one compiled pass over numeric labels (a lookup table
for integers of small range, a sort of the distinct values otherwise)
instead of ``np.unique``; binary input needs no pass at all because
``type_of_target`` already found its classes. String and object labels fall
back to NumPy (``np.unique`` and ``np.searchsorted``).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np

from .. import _core
from .._common.threads import threads_for
from .._common.validation import (
    Target,
    check_consistent_length,
    check_sample_weight,
    column_or_1d,
    num_samples,
    type_of_target,
)

# Label dtypes the compiled kernels read in place.
_KERNEL_KINDS = {
    ("i", 8),
    ("i", 4),
    ("i", 2),
    ("i", 1),
    ("u", 8),
    ("u", 4),
    ("u", 2),
    ("u", 1),
    ("b", 1),
    ("f", 8),
    ("f", 4),
}
# Integers of smaller magnitude convert to float64 exactly.
_FLOAT_EXACT = 2**53
# Integer weights are summed exactly as high and low halves of this base.
_HALF = 1 << 32


def kernel_readable(array: np.ndarray) -> bool:
    """True when the compiled kernels read ``array``'s dtype directly."""
    return (array.dtype.kind, array.dtype.itemsize) in _KERNEL_KINDS and array.dtype.isnative


def _kernel_view(array: np.ndarray) -> np.ndarray:
    return array.view(np.uint8) if array.dtype.kind == "b" else array


def unique_values(array: np.ndarray, threads: int) -> np.ndarray:
    """Sorted distinct values of a 1-D label array (as ``np.unique``)."""
    if array.shape[0] and kernel_readable(array):
        values = _core.classification.label_values(_kernel_view(array), threads_for(threads, array.shape[0]))
        return values.view(np.bool_) if array.dtype.kind == "b" else values
    return np.unique(array)


class Targets:
    """Validated classification targets.

    Attributes
    ----------
    kind : {'binary', 'multiclass', 'multilabel-indicator'}
    labels : ndarray
        Sorted union of the labels of y_true and y_pred (column indices for
        multilabel input), exactly as scikit-learn's ``unique_labels``.
    y_true, y_pred : ndarray
        1-D label arrays, or 2-D indicator arrays for multilabel input.
    sample_weight : ndarray or None
    true_labels : ndarray or None
        Sorted distinct labels of y_true (1-D input only).
    """

    def __init__(
        self,
        kind: str,
        labels: np.ndarray,
        y_true: np.ndarray,
        y_pred: np.ndarray,
        sample_weight: np.ndarray | None,
        true_labels: np.ndarray | None,
    ) -> None:
        self.kind = kind
        self.labels = labels
        self.y_true = y_true
        self.y_pred = y_pred
        self.sample_weight = sample_weight
        self.true_labels = true_labels


def _is_string_labels(array: np.ndarray, uniques: np.ndarray) -> list:
    if array.dtype.kind == "U":
        return [True]
    if array.dtype.kind != "O":
        return [False]
    return list({isinstance(value, str) for value in uniques.tolist()})


def _label_union(
    y_true: np.ndarray, y_pred: np.ndarray, target_true: Target, target_pred: Target, threads: int
) -> tuple:
    uniques = []
    for array, target in ((y_true, target_true), (y_pred, target_pred)):
        classes = target.classes
        if classes is not None and classes.ndim == 1 and classes.dtype == array.dtype and array.dtype.kind != "O":
            uniques.append(classes)
        else:
            uniques.append(unique_values(array, threads))
    kinds = set(_is_string_labels(y_true, uniques[0]) + _is_string_labels(y_pred, uniques[1]))
    if len(kinds) > 1:
        shown = " and ".join(f"{np.unique(y)}" for y in (y_true, y_pred))
        raise ValueError(f"Mix of label input types (string and number); Got {shown}.")
    return sorted_union(*uniques), uniques[0]


def sorted_union(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Sorted distinct values of two sorted label arrays, as scikit-learn's
    ``unique_labels`` forms them."""
    if first.dtype == second.dtype and first.dtype.kind in "biufU":
        return np.union1d(first, second)
    return np.asarray(sorted(set(chain(first, second))))


def _densify(values: Any) -> tuple:
    """Sparse indicator matrices become dense arrays (documented: explicit
    zeros stored in a sparse input count as zeros here)."""
    if hasattr(values, "toarray") and hasattr(values, "format"):
        return np.asarray(values.toarray()), True
    return values, False


def check_targets(
    y_true: Any, y_pred: Any, sample_weight: Any = None, *, threads: int, force_float_weights: bool = False
) -> Targets:
    """scikit-learn's ``_check_targets``: the same checks in the same order,
    with the same messages."""
    check_consistent_length(y_true, y_pred, sample_weight)
    y_true, true_sparse = _densify(y_true)
    y_pred, pred_sparse = _densify(y_pred)
    target_true = type_of_target(y_true, input_name="y_true")
    target_pred = type_of_target(y_pred, input_name="y_pred")
    for array in (y_true, y_pred):
        if num_samples(array) < 1:
            raise ValueError(
                "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is required."
            )
    if sample_weight is not None:
        sample_weight = check_sample_weight(sample_weight, num_samples(y_true), force_float=force_float_weights)
    kinds = {target_true.kind, target_pred.kind}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {target_true.kind} and {target_pred.kind} targets"
        )
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} is not supported")
    if kind == "multilabel-indicator":
        true_array, pred_array = target_true.array, target_pred.array
        if true_array.shape[1] != pred_array.shape[1]:
            raise ValueError("Multi-label binary indicator input with different numbers of labels")
        return Targets(kind, np.arange(true_array.shape[1]), true_array, pred_array, sample_weight, None)
    if true_sparse or pred_sparse:
        raise TypeError("Sparse input is only supported when targets are of multilabel type")
    true_array = column_or_1d(target_true.array)
    pred_array = column_or_1d(target_pred.array)
    labels, true_labels = _label_union(true_array, pred_array, target_true, target_pred, threads)
    if kind == "binary" and labels.shape[0] > 2:
        kind = "multiclass"
    return Targets(kind, labels, true_array, pred_array, sample_weight, true_labels)


def confusion_counts(targets: Targets, threads: int) -> np.ndarray:
    """The K x K confusion table over ``targets.labels`` (1-D input), as
    scikit-learn's ``confusion_matrix`` counts it: a sample counts where both
    its labels equal a label exactly (by value, whatever the dtypes).

    int64 counts unweighted or with integer weights, float64 sums with float
    weights. Integer weights are summed exactly, never wrapped: a cell past
    the int64 range makes the whole table float64 (each cell the exact sum,
    rounded once)."""
    weights = targets.sample_weight
    if weights is not None and weights.dtype.kind in "iu" and not integer_sums_fit(weights):
        high, low = _split_weights(weights)
        exact = _table(targets, high, threads).astype(object) * _HALF + _table(targets, low, threads).astype(object)
        return exact_counts(exact)
    return _table(targets, kernel_weights(weights), threads)


def _table(targets: Targets, weights: np.ndarray | None, threads: int) -> np.ndarray:
    """The table of ``confusion_counts`` with kernel-ready ``weights``:
    float weights are summed per cell in input order, as scikit-learn's
    ``coo_array(...).toarray()`` sums them."""
    if weights is not None and weights.dtype.kind == "f":
        return in_order_sums(targets, weights, threads, marginals=False)[0]
    n = targets.y_true.shape[0]
    return _core.classification.confusion_table(*_kernel_arrays(targets), weights, threads_for(threads, n))


def _kernel_arrays(targets: Targets) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y_true, y_pred, labels) of one kernel-readable dtype: the labels
    themselves where they convert exactly, else their codes."""
    labels = targets.labels
    y_true, y_pred = targets.y_true, targets.y_pred
    if labels.dtype.kind in "biuf" and kernel_readable(labels) and not _needs_encoding(labels, y_true, y_pred):
        if y_true.dtype != labels.dtype:
            y_true = y_true.astype(labels.dtype)
        if y_pred.dtype != labels.dtype:
            y_pred = y_pred.astype(labels.dtype)
        if kernel_readable(y_true) and kernel_readable(y_pred):
            return _kernel_view(y_true), _kernel_view(y_pred), _kernel_view(labels)
    return encode(y_true, labels), encode(y_pred, labels), np.arange(labels.shape[0], dtype=np.int64)


def in_order_sums(targets: Targets, weights: np.ndarray, threads: int, marginals: bool) -> tuple:
    """(table, true_sums, pred_sums) over ``targets.labels`` with float64
    ``weights`` summed in input order: per confusion cell (scikit-learn's
    ``confusion_matrix``) and, with ``marginals``, per true and per
    predicted label (``np.bincount`` in ``multilabel_confusion_matrix``;
    None without). Bit-identical for every thread count."""
    return _core.classification.confusion_in_order(
        *_kernel_arrays(targets),
        np.ascontiguousarray(weights, dtype=np.float64),
        marginals,
        threads_for(threads, targets.y_true.shape[0]),
    )


def _needs_encoding(labels: np.ndarray, *arrays: np.ndarray) -> bool:
    """Whether float ``labels`` are past the kernels' int64 keys, or 64-bit
    integer labels may round when cast to them (as scikit-learn's label
    union promotes uint64 with signed or float labels): then labels are
    matched exactly by :func:`encode` instead."""
    if labels.dtype.kind != "f" or not labels.shape[0]:
        return False
    largest = max(abs(float(labels[0])), abs(float(labels[-1])))
    wide = any(array.dtype.kind in "iu" and array.dtype.itemsize == 8 for array in arrays)
    return largest >= 2.0**63 or (wide and largest >= _FLOAT_EXACT)


def rounds_labels(targets: Targets, common: np.dtype) -> bool:
    """Whether casting both label arrays to ``common`` may round a 64-bit
    integer label (past 2**53) to a float (judged from the extreme labels,
    which bound every value)."""
    y_true, y_pred, labels = targets.y_true, targets.y_pred, targets.labels
    if common.kind != "f" or labels.dtype.kind not in "biuf" or not labels.shape[0]:
        return False
    wide = any(array.dtype.kind in "iu" and array.dtype.itemsize == 8 for array in (y_true, y_pred))
    return wide and max(abs(int(labels[0])), abs(int(labels[-1]))) >= _FLOAT_EXACT


def promoted_counts(targets: Targets, threads: int, common: np.dtype) -> tuple:
    """(classes, table): the confusion table over the distinct values of
    both label arrays cast to ``common``, as scikit-learn's
    ``LabelEncoder`` paths count it (``multilabel_confusion_matrix`` casts to
    the dtype of the label union, ``matthews_corrcoef`` to that of
    ``np.hstack``). It differs from :func:`confusion_counts` only where the
    cast rounds 64-bit integer labels past 2**53 to floats: equal after
    rounding, they are one class."""
    promoted = promoted_targets(targets, common)
    return promoted.labels, confusion_counts(promoted, threads)


def promoted_targets(targets: Targets, common: np.dtype) -> Targets:
    """``targets`` with both label arrays cast to ``common`` where that
    rounds labels (see :func:`promoted_counts`), else ``targets``."""
    if not rounds_labels(targets, common):
        return targets
    y_true, y_pred = targets.y_true.astype(common), targets.y_pred.astype(common)
    classes = np.unique(np.concatenate([y_true, y_pred]))
    return Targets(targets.kind, classes, y_true, y_pred, targets.sample_weight, None)


def encode(values: np.ndarray, labels: np.ndarray, exact: bool = True) -> np.ndarray:
    """Index of each value among sorted ``labels`` (-1 when absent), by
    NumPy: the fallback for string and object labels and for labels that
    some values do not convert to exactly.

    A value matches a label of exactly its value (an integer past 2**53 does
    not match the float it rounds to; with ``exact=False`` it does, as NumPy
    compares them); where promotion left equal labels (two integers that
    round to one float), the last one is taken, as scikit-learn's
    label-to-index mapping does."""
    if not labels.shape[0]:
        return np.full(values.shape[0], -1, dtype=np.int64)
    index = np.searchsorted(labels, values, side="right") - 1
    index = np.maximum(index, 0)
    found = _equal(labels[index], values) if exact else labels[index] == values
    return np.where(found, index, -1).astype(np.int64)


def _equal(labels: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Elementwise exact equality (NumPy compares integers with floats after
    rounding the integers to float64)."""
    if labels.dtype.kind == "f" and values.dtype.kind in "iu" and values.dtype.itemsize == 8:
        return _equal_integers(values, labels)
    if values.dtype.kind == "f" and labels.dtype.kind in "iu" and labels.dtype.itemsize == 8:
        return _equal_integers(labels, values)
    return labels == values


def _equal_integers(integers: np.ndarray, floats: np.ndarray) -> np.ndarray:
    """Exact equality of 64-bit integers and integral floats."""
    info = np.iinfo(integers.dtype)
    inside = (floats >= float(info.min)) & (floats < float(int(info.max) + 1))
    converted = np.where(inside, floats, 0).astype(integers.dtype)
    return inside & (converted == integers)


def integer_sums_fit(weights: np.ndarray) -> bool:
    """Whether every sum of integer ``weights`` is sure to fit in int64."""
    n = weights.shape[0]
    if weights.dtype.kind == "b" or not n:
        return True
    info = np.iinfo(weights.dtype)
    if max(-int(info.min), int(info.max)) * n < 2**63:
        return True
    largest = max(-int(np.min(weights)), int(np.max(weights)))
    return largest * n < 2**63


def _split_weights(weights: np.ndarray) -> tuple:
    """Integer weights as int64 (high, low) halves, weight = high * 2**32 +
    low, whose sums over fewer than 2**31 samples fit in int64."""
    if weights.dtype == np.uint64:
        return (weights >> np.uint64(32)).astype(np.int64), (weights & np.uint64(_HALF - 1)).astype(np.int64)
    wide = weights.astype(np.int64)
    return wide >> 32, wide & (_HALF - 1)


def exact_counts(exact: np.ndarray) -> np.ndarray:
    """An object array of Python integers as int64 where every value fits,
    else as float64 (each value rounded once)."""
    if exact.size == 0 or (min(exact.flat) >= -(2**63) and max(exact.flat) < 2**63):
        return exact.astype(np.int64)
    return exact.astype(np.float64)


def exact_sum(values: np.ndarray) -> Any:
    """Sum of sample weights or counts: exact (a Python int) for integers
    (fewer than 2**31 of them), by NumPy for floats."""
    if values.dtype.kind not in "biu":
        return values.sum()
    flat = values.reshape(-1)
    if integer_sums_fit(flat):
        return int(flat.sum(dtype=np.int64))
    high, low = _split_weights(flat)
    return int(high.sum()) * _HALF + int(low.sum())


def count_sums(table: np.ndarray, axis: int) -> np.ndarray:
    """Row (axis=1) or column (axis=0) sums of a confusion table, never
    wrapped: integer counts are summed exactly (int64 where every sum fits,
    else float64), float sums by NumPy."""
    if (
        table.dtype.kind not in "biu"
        or not table.size
        or max(-int(table.min()), int(table.max())) * table.shape[axis] < 2**63
    ):
        return table.sum(axis=axis)
    return exact_counts(table.astype(object).sum(axis=axis))


def kernel_weights(sample_weight: np.ndarray | None) -> np.ndarray | None:
    """Weights as the kernels read them: int64 for integer/bool weights,
    float64 otherwise."""
    if sample_weight is None:
        return None
    if sample_weight.dtype.kind in "biu":
        return np.ascontiguousarray(sample_weight, dtype=np.int64)
    return np.ascontiguousarray(sample_weight, dtype=np.float64)
