"""Exact sums of floats, shared by the areas (register_exact_sums.cpp)."""

import numpy as np

SCALE_BITS: int
LIMBS: int

def exact_sum(values: np.ndarray) -> tuple[float, int]: ...
