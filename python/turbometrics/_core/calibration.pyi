"""Calibration metrics and proper scores (register_calibration.cpp)."""

from typing import Optional, Tuple

import numpy as np

EXACT_SUM_LIMBS: int

def bin_table(
    y_prob: np.ndarray,
    mode: str,
    y_true: Optional[np.ndarray],
    sample_weight: Optional[np.ndarray],
    edges: np.ndarray,
    uniform: bool,
    n_threads: int,
) -> Tuple[np.ndarray, bool, bool]: ...
def exact_bin_table(
    y_prob: np.ndarray,
    mode: str,
    y_true: np.ndarray,
    sample_weight: Optional[np.ndarray],
    edges: np.ndarray,
    n_threads: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, bool, bool]: ...
def probability_facts(
    y_prob: np.ndarray, check_rows: bool, rtol: float, atol: float, n_threads: int
) -> Tuple[int, float, float, bool]: ...
def score_sums(
    y_prob: np.ndarray,
    labels: np.ndarray,
    classes: np.ndarray,
    sample_weight: Optional[np.ndarray],
    score: str,
    eps: float,
    n_threads: int,
) -> Tuple[float, float, bool]: ...
def smooth_deposit(
    y_prob: np.ndarray, mode: str, y_true: np.ndarray, sample_weight: Optional[np.ndarray], grid: int, n_threads: int
) -> Tuple[np.ndarray, np.ndarray, float, bool, bool]: ...
def hellinger_rows(p: np.ndarray, q: np.ndarray, n_threads: int) -> np.ndarray: ...
