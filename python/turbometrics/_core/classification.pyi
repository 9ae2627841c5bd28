"""Confusion tables and label sums (register_classification.cpp)."""

import numpy as np

def label_values(y: np.ndarray, n_threads: int) -> np.ndarray: ...
def confusion_table(
    y_true: np.ndarray, y_pred: np.ndarray, labels: np.ndarray, sample_weight: np.ndarray | None, n_threads: int
) -> np.ndarray: ...
def indicator_sums(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None, n_threads: int
) -> np.ndarray: ...
def agreement(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None, n_threads: int
) -> tuple[int | float, int | float]: ...
def confusion_in_order(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    labels: np.ndarray,
    sample_weight: np.ndarray,
    marginals: bool,
    n_threads: int,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]: ...
def indicator_in_order(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray, n_threads: int
) -> np.ndarray: ...
def agreement_pairwise(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray, n_threads: int
) -> tuple[float, float]: ...
