"""Ranking metrics of scores against binary targets (register_ranking.cpp)."""

import numpy as np

class InvalidInputValues(ValueError):
    """args: (score status, weight status, all weights zero); a status is
    0 (finite), 1 (some NaN) or 2 (some infinity, no NaN)."""

# check_values (ranking table kernels): bit 1 checks the scores for NaN and
# infinity, bit 2 the weights (and that not all are zero); a failed check
# raises InvalidInputValues.
def _set_table_strategy(name: str) -> str: ...
def roc_auc(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    max_fpr: float | None,
    n_threads: int,
    check_values: int = 0,
) -> tuple[float, int | float, int | float]: ...
def average_precision(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    n_threads: int,
    check_values: int = 0,
) -> tuple[float, int | float, int | float]: ...
def roc_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    drop_intermediate: bool,
    n_threads: int,
    check_values: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int | float, int | float]: ...
def precision_recall_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    drop_intermediate: bool,
    n_threads: int,
    check_values: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int | float, int | float]: ...
def det_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    drop_intermediate: bool,
    n_threads: int,
    check_values: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def score_table(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    n_threads: int,
    check_values: int = 0,
    per_row: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def best_threshold(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: np.ndarray | None,
    metric: str,
    beta: float,
    n_threads: int,
) -> dict[str, float]: ...
def metrics_at_thresholds(
    y_score: np.ndarray, is_positive: np.ndarray, sample_weight: np.ndarray | None, beta: float, n_threads: int
) -> dict[str, np.ndarray]: ...
def roc_auc_delong(y_score: np.ndarray, is_positive: np.ndarray, n_threads: int) -> tuple[float, float, int, int]: ...
def delong_components(
    y_score: np.ndarray, is_positive: np.ndarray, n_threads: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]: ...
def table_metric(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, metric: str, beta: float, cutoff: float
) -> float: ...
def bootstrap_table_metric(
    scores: np.ndarray,
    positive: np.ndarray,
    negative: np.ndarray,
    metric: str,
    beta: float,
    cutoff: float,
    replicates: int,
    seed: int,
    n_threads: int,
) -> np.ndarray: ...
