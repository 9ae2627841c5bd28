"""The shared prelude of every binary ranking function.

It turns ``(y_true, y_score, pos_label, sample_weight)`` into what the
compiled table builder reads: a 1-D score array of a supported dtype, a
one-byte positive mask and optional float64 weights, raising scikit-learn's
errors in scikit-learn's order (that of ``confusion_matrix_at_thresholds``).
"""

from __future__ import annotations

import sys
from typing import Any, Optional

import numpy as np

from ._threads import threads_for
from ._validation import (
    Target,
    assert_all_finite,
    check_consistent_length,
    check_pos_label_consistency,
    check_sample_weight,
    column_or_1d,
    type_of_target,
)

# Score dtypes the kernels read natively; the rest are widened losslessly.
_NATIVE_SCORES = {("f", 8), ("f", 4), ("i", 8), ("i", 4), ("u", 8), ("u", 4), ("u", 1), ("b", 1)}
_WIDENED_SCORES = {("f", 2): np.float32, ("i", 2): np.int32, ("i", 1): np.int32, ("u", 2): np.uint32}


class BinaryInput:
    """Kernel-ready binary ranking input.

    Attributes
    ----------
    scores : ndarray
        1-D scores in a dtype the kernels read (bool is viewed as uint8).
    is_positive : ndarray of bool or uint8
        1-D mask of the positive class, one byte per sample (possibly a
        strided view of 0/1 integer labels).
    weights : ndarray of float64 or None
    score_dtype : numpy.dtype
        The caller's score dtype, which thresholds are returned in.
    """

    def __init__(self, scores: np.ndarray, is_positive: np.ndarray, weights: Optional[np.ndarray],
                 score_dtype: np.dtype) -> None:
        self.scores = scores
        self.is_positive = is_positive
        self.weights = weights
        self.score_dtype = score_dtype

    def kernel_args(self, n_threads: int) -> tuple:
        """Positional arguments of a table kernel, ending with the thread
        count (one thread for small inputs)."""
        return self.scores, self.is_positive, self.weights, threads_for(n_threads, self.scores.shape[0])

    def thresholds_in_caller_dtype(self, thresholds: np.ndarray) -> np.ndarray:
        """Cast kernel thresholds back to the caller's score dtype."""
        if thresholds.dtype == self.score_dtype:
            return thresholds
        if self.score_dtype.kind == "b":
            return thresholds.view(np.bool_)
        return thresholds.astype(self.score_dtype)


def kernel_scores(y_score: np.ndarray) -> np.ndarray:
    """A view (or, for narrow or foreign dtypes, a lossless copy) of the
    scores in a dtype the kernels read. float32 stays float32."""
    dtype = y_score.dtype
    key = (dtype.kind, dtype.itemsize)
    if not dtype.isnative:
        y_score = y_score.astype(dtype.newbyteorder("="))
    if key in _NATIVE_SCORES:
        scores = y_score
    elif key in _WIDENED_SCORES:
        scores = y_score.astype(_WIDENED_SCORES[key])
    else:
        scores = y_score.astype(np.float64)
    if scores.dtype.kind == "b":
        scores = scores.view(np.uint8)
    if not scores.flags.aligned:
        scores = scores.copy()
    return scores


def positive_mask(labels: np.ndarray, pos_label: Any, classes: Optional[np.ndarray] = None) -> np.ndarray:
    """``labels == pos_label`` as one byte per sample, without a copy when
    the labels already are that mask: bool labels, or integer labels whose
    classes are within {0, 1} with pos_label 1, read through their low byte
    (a strided uint8 view of contiguous labels on little-endian machines)."""
    is_one = pos_label is not None and not isinstance(pos_label, str) and pos_label == 1
    if labels.dtype.kind == "b" and is_one:
        return labels
    zero_one = classes is not None and classes.dtype.kind in "iu" and np.isin(classes, (0, 1)).all()
    little_endian = labels.dtype.byteorder == "<" or (labels.dtype.byteorder == "=" and sys.byteorder == "little")
    if is_one and zero_one and labels.ndim == 1 and labels.flags.c_contiguous and little_endian:
        return labels.view(np.uint8)[:: labels.dtype.itemsize]
    return np.asarray(labels == pos_label, dtype=bool)


def prepare_binary(target: Target, y_score: Any, pos_label: Any, sample_weight: Any,
                   scores_checked: bool = False) -> BinaryInput:
    """Validate binary input as scikit-learn's confusion_matrix_at_thresholds.

    ``target`` is ``type_of_target(y_true, input_name="y_true")``;
    ``scores_checked`` skips the finiteness pass for scores the caller has
    already validated.
    """
    if not (target.kind == "binary" or (target.kind == "multiclass" and pos_label is not None)):
        raise ValueError(f"{target.kind} format is not supported")
    if pos_label is None:
        classes = target.classes if target.classes is not None else np.unique(target.array)
        pos_label = check_pos_label_consistency(None, classes)
    is_positive = positive_mask(target.array, pos_label, target.classes)
    check_consistent_length(is_positive, y_score, sample_weight)
    is_positive = column_or_1d(is_positive)
    scores = column_or_1d(y_score)
    if not scores_checked:
        assert_all_finite(scores)
    weights = None
    if sample_weight is not None:
        weights = check_sample_weight(column_or_1d(sample_weight), is_positive.shape[0])
        if weights.dtype != np.float64:
            weights = weights.astype(np.float64)
    if scores.dtype.kind in "OUSV":
        _sort_like_scikit_learn(scores)
    if scores.shape[0] == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    return BinaryInput(kernel_scores(scores), is_positive, weights, scores.dtype)


def _sort_like_scikit_learn(scores: np.ndarray) -> None:
    """Non-numeric scores: run scikit-learn's stable descending argsort and
    the difference of the sorted scores, so that values that cannot be
    ordered or subtracted (None, strings) raise scikit-learn's own errors."""
    order = np.flip(np.argsort(np.flip(scores), kind="stable"))
    np.diff(scores[order])


def binary_input(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any) -> BinaryInput:
    """Validate raw binary input (type_of_target first, as scikit-learn)."""
    return prepare_binary(type_of_target(y_true, input_name="y_true"), y_score, pos_label, sample_weight)
