"""Calibration metrics and proper scores (register_calibration.cpp)."""

import numpy as np

def bin_table(
    y_prob: np.ndarray,
    mode: str,
    y_true: np.ndarray | None,
    sample_weight: np.ndarray | None,
    edges: np.ndarray,
    uniform: bool,
    n_threads: int,
) -> tuple[np.ndarray, bool, bool]: ...
def exact_bin_table(
    y_prob: np.ndarray,
    mode: str,
    y_true: np.ndarray,
    sample_weight: np.ndarray | None,
    edges: np.ndarray,
    n_threads: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, bool]: ...
def probability_facts(
    y_prob: np.ndarray, check_rows: bool, rtol: float, atol: float, n_threads: int
) -> tuple[int, float, float, bool]: ...
def score_sums(
    y_prob: np.ndarray,
    labels: np.ndarray,
    classes: np.ndarray,
    sample_weight: np.ndarray | None,
    score: str,
    eps: float,
    n_threads: int,
) -> tuple[float, float, bool]: ...
def exact_score_sums(
    y_prob: np.ndarray,
    labels: np.ndarray,
    classes: np.ndarray,
    sample_weight: np.ndarray | None,
    score: str,
    eps: float,
    n_threads: int,
) -> tuple[np.ndarray, bool]: ...
def score_terms(
    y_prob: np.ndarray, labels: np.ndarray, classes: np.ndarray, score: str, eps: float, n_threads: int
) -> tuple[np.ndarray, bool]: ...
def smooth_deposit(
    y_prob: np.ndarray, mode: str, y_true: np.ndarray, sample_weight: np.ndarray | None, grid: int, n_threads: int
) -> tuple[np.ndarray, np.ndarray, float, bool, bool]: ...
def hellinger_rows(p: np.ndarray, q: np.ndarray, n_threads: int) -> np.ndarray: ...
