"""The shared prelude of every binary ranking function.

It turns ``(y_true, y_score, pos_label, sample_weight)`` into what the
compiled table builder reads: a 1-D score array of a supported dtype, a
one-byte positive mask and optional float64 weights, raising scikit-learn's
errors in scikit-learn's order (that of ``confusion_matrix_at_thresholds``).

The finiteness checks of float scores and of weights, and the check that
not every weight is zero, can be left to the table builder, which makes
them in its first pass over the input instead of three extra passes here
(``kernel_checks=True``); the caller then runs the kernel inside
:meth:`BinaryInput.raising_value_errors`, which raises scikit-learn's error
for what the kernel found, in scikit-learn's order (scores, then weights).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, cast

import numpy as np

from .. import _core
from .._common.threads import threads_for
from .._common.validation import (
    ALL_ZERO_WEIGHTS,
    Target,
    assert_all_finite,
    check_consistent_length,
    check_pos_label_consistency,
    check_sample_weight,
    column_or_1d,
    nonfinite_error,
    type_of_target,
)

# check_values bits of the table kernels.
_CHECK_SCORES = 1
_CHECK_WEIGHTS = 2

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
    check_values : int
        The value checks left to the kernel (its ``check_values`` argument).
    weight_dtype : numpy.dtype or None
        The dtype scikit-learn's weight checks report (before widening).
    """

    def __init__(
        self,
        scores: np.ndarray,
        is_positive: np.ndarray,
        weights: np.ndarray | None,
        score_dtype: np.dtype,
        check_values: int = 0,
        weight_dtype: np.dtype | None = None,
    ) -> None:
        self.scores = scores
        self.is_positive = is_positive
        self.weights = weights
        self.score_dtype = score_dtype
        self.check_values = check_values
        self.weight_dtype = weight_dtype

    def kernel_args(self, n_threads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int]:
        """Positional arguments of a table kernel, ending with the thread
        count (one thread for small inputs)."""
        return self.scores, self.is_positive, self.weights, threads_for(n_threads, self.scores.shape[0])

    @contextlib.contextmanager
    def raising_value_errors(self) -> Iterator[None]:
        """Turn the kernel's report of values left to it into scikit-learn's
        error (non-finite scores first, then non-finite weights, then
        all-zero weights)."""
        try:
            yield
        except _core.ranking.InvalidInputValues as error:
            score_status, weight_status, all_zero = error.args
            if score_status:
                raise nonfinite_error(self.score_dtype, "", score_status) from None
            if weight_status:
                raise nonfinite_error(cast(np.dtype, self.weight_dtype), "sample_weight", weight_status) from None
            if all_zero:
                raise ValueError(ALL_ZERO_WEIGHTS) from None
            raise

    def thresholds_in_caller_dtype(self, thresholds: np.ndarray) -> np.ndarray:
        """Cast kernel thresholds back to the caller's score dtype."""
        return scores_in_dtype(thresholds, self.score_dtype)


def scores_in_dtype(scores: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Kernel scores (from :func:`kernel_scores`) back in the caller's
    ``dtype``: the array itself, a bool view, or an exact cast."""
    if scores.dtype == dtype:
        return scores
    if dtype.kind == "b":
        return scores.view(np.bool_)
    return scores.astype(dtype)


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


def positive_mask(labels: np.ndarray, pos_label: Any, classes: np.ndarray | None = None) -> np.ndarray:
    """``labels == pos_label`` as one byte per sample, without a copy when
    the labels already are that mask: bool labels, or integer labels whose
    classes are within {0, 1} with pos_label 1, read through their low byte
    (a strided uint8 view of contiguous labels on little-endian machines)."""
    is_one = pos_label is not None and not isinstance(pos_label, str) and pos_label == 1
    if labels.dtype.kind == "b" and is_one:
        return labels
    zero_one = classes is not None and classes.dtype.kind in "iu" and bool(((classes == 0) | (classes == 1)).all())
    little_endian = labels.dtype.byteorder == "<" or (labels.dtype.byteorder == "=" and sys.byteorder == "little")
    if is_one and zero_one and labels.ndim == 1 and labels.flags.c_contiguous and little_endian:
        return labels.view(np.uint8)[:: labels.dtype.itemsize]
    return np.asarray(labels == pos_label, dtype=bool)


def prepare_binary(
    target: Target,
    y_score: Any,
    pos_label: Any,
    sample_weight: Any,
    scores_checked: bool = False,
    kernel_checks: bool = False,
) -> BinaryInput:
    """Validate binary input as scikit-learn's confusion_matrix_at_thresholds.

    ``target`` is ``type_of_target(y_true, input_name="y_true")``;
    ``scores_checked`` skips the finiteness pass for scores the caller has
    already validated. With ``kernel_checks`` the checks of values that the
    table kernel can make (float scores finite; weights finite and not all
    zero) are left to it: pass ``check_values`` to the kernel and call it
    inside :meth:`BinaryInput.raising_value_errors`.
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
    # Numeric scores only: the checks of other scores may raise after the
    # weights' checks, which must then come first.
    kernel_checks = kernel_checks and scores.dtype.kind in "biuf"
    check_values = 0
    if not scores_checked:
        if kernel_checks and scores.dtype.kind == "f" and scores.dtype.itemsize <= 8:
            # Read in place or widened exactly, so the kernel sees the same non-finite values.
            check_values |= _CHECK_SCORES
        else:
            assert_all_finite(scores)
    weights = weight_dtype = None
    if sample_weight is not None:
        weights = check_sample_weight(column_or_1d(sample_weight), is_positive.shape[0], check_values=not kernel_checks)
        weight_dtype = weights.dtype
        if kernel_checks:
            check_values |= _CHECK_WEIGHTS
        if weights.dtype != np.float64:
            weights = weights.astype(np.float64)
    if scores.dtype.kind in "OUSV":
        _sort_like_scikit_learn(scores)
    if scores.shape[0] == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    return BinaryInput(kernel_scores(scores), is_positive, weights, scores.dtype, check_values, weight_dtype)


def _sort_like_scikit_learn(scores: np.ndarray) -> None:
    """Non-numeric scores: run scikit-learn's stable descending argsort and
    the difference of the sorted scores, so that values that cannot be
    ordered or subtracted (None, strings) raise scikit-learn's own errors."""
    order = np.flip(np.argsort(np.flip(scores), kind="stable"))
    np.diff(scores[order])


def binary_input(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any, kernel_checks: bool = False
) -> BinaryInput:
    """Validate raw binary input (type_of_target first, as scikit-learn)."""
    return prepare_binary(
        type_of_target(y_true, input_name="y_true"), y_score, pos_label, sample_weight, kernel_checks=kernel_checks
    )
