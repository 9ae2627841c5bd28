"""The confusion counts and surface distances of label maps (register_segmentation.cpp)."""

import numpy as np

def confusion_counts(
    y_true: np.ndarray, y_pred: np.ndarray, num_classes: int, ignore_index: int | None, per_image: bool, n_threads: int
) -> tuple[bool, np.ndarray]: ...
def surface_distances(
    y_pred: np.ndarray,
    y_true: np.ndarray,
    dims: int,
    spacing: list[float],
    connectivity: int,
    num_classes: int,
    classes: list[int],
    n_threads: int,
) -> list[tuple[int, int, np.ndarray, np.ndarray]]: ...
