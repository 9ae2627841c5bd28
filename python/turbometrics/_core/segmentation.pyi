"""The confusion counts of label maps (register_segmentation.cpp)."""

import numpy as np

def confusion_counts(
    y_true: np.ndarray, y_pred: np.ndarray, num_classes: int, ignore_index: int | None, per_image: bool, n_threads: int
) -> tuple[bool, np.ndarray]: ...
