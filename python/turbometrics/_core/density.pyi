"""Kernel density estimation (register_density.cpp)."""

from collections.abc import Sequence

import numpy as np

def log_sums(
    data: np.ndarray,
    weights: np.ndarray | None,
    points: np.ndarray,
    kernel: str,
    bandwidth: float,
    n_threads: int,
) -> np.ndarray: ...
def linear_bin(
    data: np.ndarray, weights: np.ndarray | None, low: Sequence[float], delta: float, size: Sequence[int]
) -> np.ndarray: ...
def grid_interpolate(
    values_on_grid: np.ndarray, low: Sequence[float], delta: float, points: np.ndarray, n_threads: int
) -> np.ndarray: ...
