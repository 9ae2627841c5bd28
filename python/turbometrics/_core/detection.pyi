"""Detection evaluation: matching, the per-detection match table and its
accumulation (register_detection.cpp)."""

from typing import Any

import numpy as np

def group_by_key(keys: np.ndarray, n_keys: int) -> tuple[np.ndarray, np.ndarray]: ...

class MatchTable:
    def __init__(
        self,
        n_thresholds: int,
        row_offsets: np.ndarray,
        present: np.ndarray,
        score: np.ndarray,
        true_positive: np.ndarray,
        false_positive: np.ndarray,
        regular_gts: np.ndarray,
    ) -> None: ...
    def arrays(self) -> dict[str, Any]: ...
    def accumulate(
        self,
        k_rows: np.ndarray,
        a_rows: np.ndarray,
        i_rows: np.ndarray,
        evaluated_areas: int,
        evaluated_images: int,
        max_detections: np.ndarray,
        recall_thresholds: np.ndarray,
        precision: np.ndarray,
        recall: np.ndarray,
        scores: np.ndarray,
        n_threads: int,
    ) -> None: ...

class Evaluation:
    def __init__(
        self,
        gt_id: np.ndarray,
        gt_area: np.ndarray,
        gt_ignore: np.ndarray,
        gt_crowd: np.ndarray,
        dt_id: np.ndarray,
        dt_area: np.ndarray,
        dt_score: np.ndarray,
        gt_offsets: np.ndarray,
        gt_members: np.ndarray,
        dt_offsets: np.ndarray,
        dt_members: np.ndarray,
        iou_thresholds: np.ndarray,
        area_ranges: np.ndarray,
        max_detections: int,
    ) -> None: ...
    def use_boxes(self, dt_boxes: np.ndarray, gt_boxes: np.ndarray) -> None: ...
    def use_precomputed(self, values: np.ndarray, offsets: np.ndarray) -> None: ...
    def use_masks(
        self,
        dt_text: bytes,
        dt_offsets: np.ndarray,
        dt_sizes: np.ndarray,
        gt_text: bytes,
        gt_offsets: np.ndarray,
        gt_sizes: np.ndarray,
        n_threads: int,
    ) -> None: ...
    def match(self, n_threads: int, progress: Any | None = None) -> None: ...
    @property
    def table(self) -> MatchTable: ...
    def block(self, block: int) -> dict[str, Any]: ...
    def block_present(self, block: int) -> bool: ...
    @property
    def n_blocks(self) -> int: ...
    @property
    def matched(self) -> bool: ...
