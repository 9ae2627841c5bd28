"""Averaging a binary metric over the columns of multilabel input.

Reproduces scikit-learn's ``_average_binary_score``: 'micro' pools every
cell, 'macro' is the plain mean over labels, 'weighted' weights labels by
their (weighted) support, 'samples' scores each row, and None returns the
per-label array.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._common.validation import as_array, check_consistent_length, check_min_samples

BinaryMetric = Callable[[np.ndarray, np.ndarray, np.ndarray | None], float]


def _as_2d(values: Any) -> np.ndarray:
    array = as_array(values)
    if array.ndim != 2:
        raise ValueError(
            f"Expected 2D array, got {'scalar' if array.ndim == 0 else '1D'} array instead:\narray={array}.\n"
            "Reshape your data either using array.reshape(-1, 1) if your data has a single feature or "
            "array.reshape(1, -1) if it contains a single sample."
        )
    check_min_samples(array)
    return array


def average_over_labels(
    metric: BinaryMetric, y_true: Any, y_score: Any, average: str | None, sample_weight: np.ndarray | None
) -> float | np.ndarray:
    """Average ``metric(y_true_c, y_score_c, weights)`` over multilabel columns."""
    check_consistent_length(y_true, y_score, sample_weight)
    y_true = _as_2d(y_true)
    y_score = _as_2d(y_score)
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
    score_weight = sample_weight
    average_weight = None
    axis = 1
    if average == "micro":
        if score_weight is not None:
            score_weight = np.repeat(score_weight, y_true.shape[1])
        y_true = y_true.reshape(-1)[:, None]
        y_score = y_score.reshape(-1)[:, None]
    elif average == "weighted":
        if score_weight is not None:
            average_weight = np.sum(np.multiply(y_true.astype(score_weight.dtype), score_weight.reshape(-1, 1)), axis=0)
        else:
            average_weight = np.sum(y_true, axis=0)
        if np.isclose(np.sum(average_weight), 0):
            return 0
    elif average == "samples":
        average_weight = score_weight
        score_weight = None
        axis = 0
    n_labels = y_score.shape[axis]
    scores = np.zeros((n_labels,))
    for label in range(n_labels):
        true_column = y_true[:, label] if axis == 1 else y_true[label, :]
        score_column = y_score[:, label] if axis == 1 else y_score[label, :]
        scores[label] = metric(true_column, score_column, score_weight)
    if average is None:
        return scores
    if average_weight is not None:
        scores[average_weight == 0] = 0
    return float(np.average(scores, weights=average_weight))
