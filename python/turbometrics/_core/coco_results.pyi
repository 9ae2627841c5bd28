"""COCO detection results JSON read into columns (register_coco_results.cpp)."""

from typing import Any

import numpy as np

def read_results(data: bytes | bytearray | memoryview | np.ndarray) -> dict[str, Any]: ...
