"""Prediction stability across models (register_stability.cpp)."""

from typing import Optional, Tuple

import numpy as np

def ensemble_per_sample(
    P: np.ndarray, statistic: str, threshold: float, n_threads: int
) -> Tuple[np.ndarray, bool]: ...
def selected_sums(
    y_pred: np.ndarray, pos_label: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> Tuple[np.ndarray, float]: ...
