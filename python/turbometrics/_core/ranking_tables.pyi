"""The mergeable ranking states' tables (register_ranking_tables.cpp), given by arrays
(scores descending; per-row int64 counts or float64 weights)."""

from typing import Any

import numpy as np

def roc_auc(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, max_fpr: float | None, n_threads: int
) -> tuple[float, Any, Any]: ...
def average_precision(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, n_threads: int
) -> tuple[float, Any, Any]: ...
def roc_curve(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, drop_intermediate: bool, n_threads: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any, Any]: ...
def precision_recall_curve(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, drop_intermediate: bool, n_threads: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any, Any]: ...
def best_threshold(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, metric: str, beta: float, n_threads: int
) -> dict[str, float]: ...
def roc_auc_delong(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, n_threads: int
) -> tuple[float, float, int, int]: ...
def roc_auc_part(
    scores: np.ndarray,
    positive: np.ndarray,
    negative: np.ndarray,
    above_positive: Any,
    above_negative: Any,
    n_threads: int,
) -> Any: ...
def average_precision_part(
    scores: np.ndarray,
    positive: np.ndarray,
    negative: np.ndarray,
    above_positive: Any,
    above_negative: Any,
    total_positive: float,
    n_threads: int,
) -> int: ...
def merge_tables(
    scores_a: np.ndarray,
    positive_a: np.ndarray,
    negative_a: np.ndarray,
    scores_b: np.ndarray,
    positive_b: np.ndarray,
    negative_b: np.ndarray,
    n_threads: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
