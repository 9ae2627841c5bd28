"""Type stubs for the compiled kernels (private API)."""

from typing import Optional, Tuple, Union

import numpy as np

def openmp_enabled() -> bool: ...
def openmp_default_threads() -> int: ...
def scan_labels(y: np.ndarray, limit: int, n_threads: int) -> Tuple[Optional[np.ndarray], bool]: ...
def finite_status(x: np.ndarray, n_threads: int) -> int: ...
def roc_auc(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    max_fpr: Optional[float],
    n_threads: int,
) -> Tuple[float, Union[int, float], Union[int, float]]: ...
def average_precision(
    y_score: np.ndarray, is_positive: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> Tuple[float, Union[int, float], Union[int, float]]: ...
def roc_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    drop_intermediate: bool,
    n_threads: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Union[int, float], Union[int, float]]: ...
def precision_recall_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    drop_intermediate: bool,
    n_threads: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Union[int, float], Union[int, float]]: ...
def det_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    drop_intermediate: bool,
    n_threads: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def score_table(
    y_score: np.ndarray, is_positive: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
