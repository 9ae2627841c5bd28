"""Shared prelude of the calibration functions.

Turns ``(y_true, y_prob, mode, pos_label, sample_weight)`` into what the
compiled bin-table kernel reads, and the bin edges into the exact arrays the
definitions name (``np.linspace`` or ``np.quantile`` edges).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .._common.validation import (
    as_array,
    assert_all_finite,
    check_consistent_length,
    check_dimensions,
    check_min_samples,
    check_pos_label_consistency,
    check_sample_weight,
    column_or_1d,
    type_of_target,
)
from ..ranking import positive_mask

MODES = {"auto", "binary", "top_label", "classwise"}


class CalibrationInput:
    """Kernel-ready calibration input.

    Attributes
    ----------
    prob : ndarray of float64 or float32, 1-D (binary) or 2-D
    mode : {"binary", "top_label", "classwise"}
    labels : ndarray or None
        bool mask of the positive class (binary) or int64 class indices;
        None where only the confidences are read.
    weights : ndarray of float64 or None
    """

    def __init__(
        self,
        prob: np.ndarray,
        mode: str,
        labels: np.ndarray | None,
        weights: np.ndarray | None,
        unchecked_labels: np.ndarray | None = None,
    ) -> None:
        self.prob = prob
        self.mode = mode
        self.labels = labels
        self.weights = weights
        # Class indices whose range [0, K) the bin-table kernel checks as it
        # reads them (None when already checked).
        self.unchecked_labels = unchecked_labels

    def raise_for_labels(self) -> None:
        """Raise the error for class indices outside [0, K) (the kernel
        flagged them)."""
        _check_class_range(cast(np.ndarray, self.unchecked_labels), self.prob.shape[1])  # callers check for None

    @property
    def n_samples(self) -> int:
        return int(self.prob.shape[0])

    def confidences(self) -> np.ndarray:
        """The values that are binned: p (binary), the row maximum
        (top_label) or every column (classwise, shape (N, K))."""
        if self.mode == "top_label":
            return self.prob.max(axis=1)
        return self.prob


def float_probabilities(values: Any, name: str = "y_prob") -> np.ndarray:
    """A float64/float32 array read in place when possible (float32 stays
    float32; other dtypes are converted to float64, one copy)."""
    array = as_array(values)
    if array.dtype.kind in "USVO" and array.dtype.kind != "O":
        raise ValueError(f"{name} must hold numbers, got dtype {array.dtype}")
    check_dimensions(array)
    if array.dtype not in (np.float64, np.float32) or not array.dtype.isnative:
        array = array.astype(np.float64)
    if not array.flags.aligned:
        array = array.copy()
    check_min_samples(array)
    return array


def raise_for_invalid_probabilities(prob: np.ndarray, name: str = "y_prob") -> None:
    """Describe why ``prob`` is not all probabilities (NaN, infinity, a value
    outside [0, 1]) and raise ValueError. Kernels only flag invalid input
    while they read it; this slower description runs on that error path
    (and for the NumPy-based smooth calibration error)."""
    if np.isnan(prob).any():
        raise ValueError(f"Input {name} contains NaN.")
    if np.isinf(prob).any():
        raise ValueError(f"Input {name} contains infinity or a value too large for {prob.dtype!r}.")
    high, low = prob.max(), prob.min()
    if high > 1:
        raise ValueError(f"{name} contains values greater than 1: {high}")
    if low < 0:
        raise ValueError(f"{name} contains values less than 0: {low}")


def _binary_mask(y_true: Any, pos_label: Any) -> np.ndarray:
    target = type_of_target(y_true, input_name="y_true")
    if not (target.kind == "binary" or (target.kind == "multiclass" and pos_label is not None)):
        raise ValueError(
            f"A 1-D y_prob is the probability of the positive class, so y_true must be binary; got {target.kind} "
            "(pass pos_label to score one class of multiclass labels)."
        )
    if pos_label is None:
        classes = target.classes if target.classes is not None else np.unique(target.array)
        pos_label = check_pos_label_consistency(None, classes)
    return column_or_1d(positive_mask(target.array, pos_label, target.classes))


def _check_class_range(labels: np.ndarray, n_classes: int) -> None:
    if labels.size and (labels.min() < 0 or labels.max() >= n_classes):
        raise ValueError(
            f"y_true holds class indices outside [0, {n_classes - 1}], the columns of y_prob "
            f"(got values in [{labels.min()}, {labels.max()}])."
        )


def _class_indices(y_true: Any, n_classes: int, check_range: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """int64 class indices, and the labels they came from. Without
    ``check_range`` native int64 labels are returned unchecked (the kernel
    that reads them checks their range)."""
    labels = column_or_1d(y_true)
    if labels.dtype.kind == "b":
        labels = labels.astype(np.int64)
    if labels.dtype.kind not in "iuf":
        raise ValueError("With a 2-D y_prob, y_true must hold integer class indices 0 .. n_classes - 1.")
    assert_all_finite(labels, input_name="y_true")
    if labels.dtype.kind == "f" and labels.size and np.any(labels != np.floor(labels)):
        raise ValueError("With a 2-D y_prob, y_true must hold integer class indices 0 .. n_classes - 1.")
    if labels.dtype == np.int64 and labels.dtype.isnative and not check_range:
        return labels, labels
    _check_class_range(labels, n_classes)
    return labels.astype(np.int64, copy=False), labels


def calibration_input(
    y_true: Any, y_prob: Any, mode: str, pos_label: Any, sample_weight: Any, kernel_checks_labels: bool = False
) -> CalibrationInput:
    """Validate calibration input. A 1-D ``y_prob`` with mode "top_label" or
    "classwise" is expanded to the (N, 2) array ``[1 - p, p]`` (the one case
    that copies the probabilities). With ``kernel_checks_labels``, int64
    class indices are left for the bin-table kernel to range-check as it
    reads them (``raise_for_labels`` then describes the error)."""
    check_consistent_length(y_true, y_prob, sample_weight)
    prob = float_probabilities(y_prob)
    if prob.ndim == 2 and prob.shape[1] == 1:
        prob = prob.reshape(-1)
    if mode == "auto":
        mode = "binary" if prob.ndim == 1 else "top_label"
    if mode == "binary" and prob.ndim != 1:
        raise ValueError(
            f"mode='binary' needs a 1-D y_prob (probability of the positive class), got shape {prob.shape}."
        )
    unchecked = None
    if prob.ndim == 1 and mode != "binary":
        labels = _binary_mask(y_true, pos_label).astype(np.int64)
        prob = np.stack([1 - prob, prob], axis=1)
    elif prob.ndim == 1:
        labels = _binary_mask(y_true, pos_label)
    else:
        labels, source = _class_indices(y_true, prob.shape[1], check_range=not kernel_checks_labels)
        unchecked = source if kernel_checks_labels else None
    weights = None
    if sample_weight is not None:
        try:
            weights = check_sample_weight(column_or_1d(sample_weight), prob.shape[0])
            if weights.dtype != np.float64:
                weights = weights.astype(np.float64)
            if np.any(weights < 0):
                raise ValueError("sample_weight must be non-negative for calibration metrics.")
        except (ValueError, TypeError):
            if unchecked is not None:  # the class indices' error came first
                _check_class_range(unchecked, prob.shape[1])
            raise
    return CalibrationInput(prob, mode, labels, weights, unchecked)


def bin_edges(data: CalibrationInput, n_bins: int, strategy: str) -> tuple[np.ndarray, bool]:
    """Edges of the bins and whether they are the uniform ones.

    Uniform: exactly ``np.linspace(0, 1, n_bins + 1)``. Quantile:
    ``np.quantile(conf, np.linspace(0, 1, n_bins + 1))`` with the first edge
    set to 0 and the last to 1 (per column in classwise mode, shape
    (K, n_bins + 1)).
    """
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1), True
    quantiles = np.linspace(0.0, 1.0, n_bins + 1)
    conf = data.confidences()
    if data.mode == "classwise":
        edges = np.quantile(conf, quantiles, axis=0).T.astype(np.float64)
        edges[:, 0] = 0.0
        edges[:, -1] = 1.0
    else:
        edges = np.quantile(conf, quantiles).astype(np.float64)
        edges[0] = 0.0
        edges[-1] = 1.0
    return np.ascontiguousarray(edges), False
