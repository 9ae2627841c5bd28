"""Label scanning and finiteness checks (register_labels.cpp)."""

from typing import Optional, Tuple

import numpy as np

def scan(y: np.ndarray, limit: int, n_threads: int) -> Tuple[Optional[np.ndarray], bool]: ...
def finite_status(x: np.ndarray, n_threads: int) -> int: ...
