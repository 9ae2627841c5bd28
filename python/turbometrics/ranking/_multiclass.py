"""Multiclass ranking metrics as sweeps over per-class score tables.

One-vs-rest scores each class column against a boolean indicator of that
class (the same per-label averaging as multilabel input). One-vs-one (Hand
and Till, 2001) scores every pair of classes present in ``y_true`` on the
samples of those two classes only, in both directions. Both reuse the binary
kernels; nothing here sweeps a table itself.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

from .._common.validation import Target, check_consistent_length, column_or_1d
from ._averaging import average_over_labels

# Largest integer label range decoded with a lookup table instead of a sort.
_LOOKUP_RANGE = 1 << 20


def classes_and_codes(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct labels and each label's index into them.

    Integer labels spanning a small range are decoded through a lookup
    table in linear time; other labels fall back to ``np.unique``.
    """
    if labels.dtype.kind in "biu" and labels.size:
        values = labels.astype(np.int64, copy=False)
        low, high = int(values.min()), int(values.max())
        if high - low < _LOOKUP_RANGE:
            present = np.bincount(values - low, minlength=high - low + 1) > 0
            lookup = np.cumsum(present) - 1
            classes = (np.flatnonzero(present) + low).astype(labels.dtype)
            return classes, lookup[values - low]
    classes, codes = np.unique(labels, return_inverse=True)
    return classes, codes.reshape(-1)


def encode(labels: np.ndarray, classes: np.ndarray, message: str) -> np.ndarray:
    """Index of each label in the sorted ``classes``; ValueError(message)
    if some label is not among them."""
    positions = np.searchsorted(classes, labels)
    clipped = np.minimum(positions, max(classes.shape[0] - 1, 0))
    if classes.shape[0] == 0 or not np.array_equal(classes[clipped], labels):
        raise ValueError(message)
    return positions


def check_labels_parameter(labels: Any, n_columns: int, column_message: str, suffix: str = "") -> np.ndarray:
    """scikit-learn's checks of a ``labels`` argument: unique, sorted, one
    per score column. ``suffix`` is "." where scikit-learn ends with one."""
    labels = column_or_1d(labels)
    classes = np.unique(labels)
    if classes.shape[0] != labels.shape[0]:
        raise ValueError(f"Parameter 'labels' must be unique{suffix}")
    if not np.array_equal(classes, labels):
        raise ValueError(f"Parameter 'labels' must be ordered{suffix}")
    if classes.shape[0] != n_columns:
        raise ValueError(column_message.format(classes.shape[0], n_columns))
    return classes


def one_hot(codes: np.ndarray, n_classes: int) -> np.ndarray:
    """Boolean indicator matrix (label_binarize) of dense codes, stored
    column-major so that each class column is contiguous."""
    return (codes[None, :] == np.arange(n_classes)[:, None]).T


def column_major(scores: np.ndarray) -> np.ndarray:
    """The same matrix with contiguous columns (one transposing copy unless
    it already has them), so per-class kernels read each column once."""
    return scores if scores.flags.f_contiguous else np.asfortranarray(scores)


BinaryScore = Callable[[Target, np.ndarray, np.ndarray | None], float]
ColumnScore = Callable[[np.ndarray, np.ndarray, np.ndarray | None], float]


def one_vs_rest(
    column_score: ColumnScore,
    codes: np.ndarray,
    n_classes: int,
    y_score: np.ndarray,
    average: str | None,
    sample_weight: np.ndarray | None,
) -> float | np.ndarray:
    """Average ``column_score(indicator_column, score_column, weights)`` of
    each class against the rest, as for a label indicator."""
    if average != "micro":
        y_score = column_major(y_score)
    indicator = one_hot(codes, n_classes)
    if average == "weighted" and sample_weight is not None:
        # label_binarize's C order, so that the class weights (column sums
        # of indicator * weight) are added in scikit-learn's order.
        indicator = np.ascontiguousarray(indicator)
    return average_over_labels(column_score, indicator, y_score, average, sample_weight)


def one_vs_one(binary_score: BinaryScore, codes: np.ndarray, y_score: np.ndarray, average: str | None) -> float:
    """Hand and Till's pairwise average: for each pair of classes present,
    the mean of the two directed scores on the samples of those classes,
    averaged uniformly ('macro') or by the pair's prevalence ('weighted')."""
    check_consistent_length(codes, y_score)
    counts = np.bincount(codes)
    small_codes = codes.astype(np.uint16) if counts.shape[0] <= 1 << 16 else codes  # radix-sortable
    order = np.argsort(small_codes, kind="stable")
    starts = np.concatenate(([0], np.cumsum(counts)))
    # by_class[c][k] holds column k's scores of the samples of class c, contiguous.
    by_class = {c: np.ascontiguousarray(y_score[order[starts[c] : starts[c + 1]]].T) for c in np.flatnonzero(counts)}
    pairs = list(combinations(np.flatnonzero(counts), 2))
    pair_scores = np.empty(len(pairs))
    prevalence = np.empty(len(pairs))
    both = np.array([False, True])
    for index, (a, b) in enumerate(pairs):
        is_a = np.zeros(counts[a] + counts[b], dtype=bool)
        is_a[: counts[a]] = True
        score_a = binary_score(Target("binary", is_a, both), np.concatenate((by_class[a][a], by_class[b][a])), None)
        score_b = binary_score(Target("binary", ~is_a, both), np.concatenate((by_class[a][b], by_class[b][b])), None)
        pair_scores[index] = (score_a + score_b) / 2
        prevalence[index] = is_a.shape[0] / codes.shape[0]
    return np.average(pair_scores, weights=prevalence if average == "weighted" else None)
