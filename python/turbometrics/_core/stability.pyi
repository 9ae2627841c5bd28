"""Prediction stability across models (register_stability.cpp)."""

import numpy as np

def ensemble_per_sample(P: np.ndarray, statistic: str, threshold: float, n_threads: int) -> tuple[np.ndarray, bool]: ...
def selected_sums(
    y_pred: np.ndarray, pos_label: np.ndarray, sample_weight: np.ndarray | None, n_threads: int
) -> tuple[np.ndarray, float]: ...
