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
from typing import Any, Optional

import numpy as np

from . import _core
from ._threads import threads_for
from ._validation import (
    Target,
    check_consistent_length,
    check_sample_weight,
    column_or_1d,
    num_samples,
    type_of_target,
)

# Label dtypes the compiled kernels read in place.
_KERNEL_KINDS = {("i", 8), ("i", 4), ("i", 2), ("i", 1), ("u", 8), ("u", 4), ("u", 2), ("u", 1), ("b", 1),
                 ("f", 8), ("f", 4)}


def kernel_readable(array: np.ndarray) -> bool:
    """True when the compiled kernels read ``array``'s dtype directly."""
    return (array.dtype.kind, array.dtype.itemsize) in _KERNEL_KINDS and array.dtype.isnative


def _kernel_view(array: np.ndarray) -> np.ndarray:
    return array.view(np.uint8) if array.dtype.kind == "b" else array


def unique_values(array: np.ndarray, threads: int) -> np.ndarray:
    """Sorted distinct values of a 1-D label array (as ``np.unique``)."""
    if array.shape[0] and kernel_readable(array):
        values = _core.label_values(_kernel_view(array), threads_for(threads, array.shape[0]))
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

    def __init__(self, kind: str, labels: np.ndarray, y_true: np.ndarray, y_pred: np.ndarray,
                 sample_weight: Optional[np.ndarray], true_labels: Optional[np.ndarray]) -> None:
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


def _label_union(y_true: np.ndarray, y_pred: np.ndarray, target_true: Target, target_pred: Target,
                 threads: int) -> tuple:
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


def check_targets(y_true: Any, y_pred: Any, sample_weight: Any = None, *, threads: int,
                  force_float_weights: bool = False) -> Targets:
    """scikit-learn's ``_check_targets``: the same checks in the same order,
    with the same messages."""
    check_consistent_length(y_true, y_pred, sample_weight)
    y_true, true_sparse = _densify(y_true)
    y_pred, pred_sparse = _densify(y_pred)
    target_true = type_of_target(y_true, input_name="y_true")
    target_pred = type_of_target(y_pred, input_name="y_pred")
    for array in (y_true, y_pred):
        if num_samples(array) < 1:
            raise ValueError("Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is "
                             "required.")
    if sample_weight is not None:
        sample_weight = check_sample_weight(sample_weight, num_samples(y_true), force_float=force_float_weights)
    kinds = {target_true.kind, target_pred.kind}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {target_true.kind} and {target_pred.kind} targets")
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


def confusion_counts(targets: Targets, weights: Optional[np.ndarray], threads: int) -> np.ndarray:
    """The K x K confusion table over ``targets.labels`` (1-D input), from one
    compiled pass: int64 counts unweighted or with int64 weights, float64
    sums with float64 weights."""
    labels = targets.labels
    y_true, y_pred = targets.y_true, targets.y_pred
    n = y_true.shape[0]
    if labels.dtype.kind in "biuf" and kernel_readable(labels):
        if y_true.dtype != labels.dtype:
            y_true = y_true.astype(labels.dtype)
        if y_pred.dtype != labels.dtype:
            y_pred = y_pred.astype(labels.dtype)
        if kernel_readable(y_true) and kernel_readable(y_pred):
            return _core.confusion_table(_kernel_view(y_true), _kernel_view(y_pred), _kernel_view(labels), weights,
                                         threads_for(threads, n))
    codes_true = encode(y_true, labels)
    codes_pred = encode(y_pred, labels)
    codes = np.arange(labels.shape[0], dtype=np.int64)
    return _core.confusion_table(codes_true, codes_pred, codes, weights, threads_for(threads, n))


def encode(values: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Index of each value among sorted ``labels`` (-1 when absent), by
    NumPy: the fallback for string and object labels."""
    index = np.searchsorted(labels, values)
    index = np.minimum(index, labels.shape[0] - 1)
    found = labels[index] == values
    return np.where(found, index, -1).astype(np.int64)


def kernel_weights(sample_weight: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """Weights as the kernels read them: int64 for integer/bool weights,
    float64 otherwise."""
    if sample_weight is None:
        return None
    if sample_weight.dtype.kind in "biu":
        return np.ascontiguousarray(sample_weight, dtype=np.int64)
    return np.ascontiguousarray(sample_weight, dtype=np.float64)
