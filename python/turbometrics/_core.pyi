"""Type stubs for the compiled kernels (private API)."""

from typing import Any, Dict, Optional, Sequence, Tuple, Union
from typing import List

import numpy as np

def openmp_enabled() -> bool: ...
def cpu_dispatch() -> Dict[str, Any]: ...
def scan_labels(y: np.ndarray, limit: int, n_threads: int) -> Tuple[Optional[np.ndarray], bool]: ...
def finite_status(x: np.ndarray, n_threads: int) -> int: ...
class InvalidInputValues(ValueError):
    """args: (score status, weight status, all weights zero); a status is
    0 (finite), 1 (some NaN) or 2 (some infinity, no NaN)."""

# check_values (ranking table kernels): bit 1 checks the scores for NaN and
# infinity, bit 2 the weights (and that not all are zero); a failed check
# raises InvalidInputValues.
def _set_table_strategy(name: str) -> str: ...
def roc_auc(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    max_fpr: Optional[float],
    n_threads: int,
    check_values: int = 0,
) -> Tuple[float, Union[int, float], Union[int, float]]: ...
def average_precision(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    n_threads: int,
    check_values: int = 0,
) -> Tuple[float, Union[int, float], Union[int, float]]: ...
def roc_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    drop_intermediate: bool,
    n_threads: int,
    check_values: int = 0,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Union[int, float], Union[int, float]]: ...
def precision_recall_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    drop_intermediate: bool,
    n_threads: int,
    check_values: int = 0,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Union[int, float], Union[int, float]]: ...
def det_curve(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    drop_intermediate: bool,
    n_threads: int,
    check_values: int = 0,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def score_table(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    n_threads: int,
    check_values: int = 0,
    per_row: bool = False,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def label_values(y: np.ndarray, n_threads: int) -> np.ndarray: ...
def confusion_table(
    y_true: np.ndarray, y_pred: np.ndarray, labels: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> np.ndarray: ...
def indicator_sums(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> np.ndarray: ...
def agreement(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> Tuple[Union[int, float], Union[int, float]]: ...
def calibration_bin_table(
    y_prob: np.ndarray,
    mode: str,
    y_true: Optional[np.ndarray],
    sample_weight: Optional[np.ndarray],
    edges: np.ndarray,
    uniform: bool,
    n_threads: int,
) -> Tuple[np.ndarray, bool, bool]: ...

EXACT_SUM_SCALE_BITS: int
EXACT_SUM_LIMBS: int

def calibration_exact_bin_table(
    y_prob: np.ndarray,
    mode: str,
    y_true: np.ndarray,
    sample_weight: Optional[np.ndarray],
    edges: np.ndarray,
    n_threads: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, bool, bool]: ...
def probability_facts(
    y_prob: np.ndarray, check_rows: bool, rtol: float, atol: float, n_threads: int
) -> Tuple[int, float, float, bool]: ...
def score_sums(
    y_prob: np.ndarray,
    labels: np.ndarray,
    classes: np.ndarray,
    sample_weight: Optional[np.ndarray],
    score: str,
    eps: float,
    n_threads: int,
) -> Tuple[float, float, bool]: ...
def smooth_deposit(
    y_prob: np.ndarray, mode: str, y_true: np.ndarray, sample_weight: Optional[np.ndarray], grid: int, n_threads: int
) -> Tuple[np.ndarray, np.ndarray, float, bool, bool]: ...
def hellinger_rows(p: np.ndarray, q: np.ndarray, n_threads: int) -> np.ndarray: ...
def ensemble_per_sample(
    P: np.ndarray, statistic: str, threshold: float, n_threads: int
) -> Tuple[np.ndarray, bool]: ...
def selected_sums(
    y_pred: np.ndarray, pos_label: np.ndarray, sample_weight: Optional[np.ndarray], n_threads: int
) -> Tuple[np.ndarray, float]: ...
def kde_log_sums(
    data: np.ndarray,
    weights: Optional[np.ndarray],
    points: np.ndarray,
    kernel: str,
    bandwidth: float,
    n_threads: int,
) -> np.ndarray: ...
def kde_linear_bin(
    data: np.ndarray, weights: Optional[np.ndarray], low: Sequence[float], delta: float, size: Sequence[int]
) -> np.ndarray: ...
def kde_grid_interpolate(
    values_on_grid: np.ndarray, low: Sequence[float], delta: float, points: np.ndarray, n_threads: int
) -> np.ndarray: ...
def best_threshold(
    y_score: np.ndarray,
    is_positive: np.ndarray,
    sample_weight: Optional[np.ndarray],
    metric: str,
    beta: float,
    n_threads: int,
) -> Dict[str, float]: ...
def metrics_at_thresholds(
    y_score: np.ndarray, is_positive: np.ndarray, sample_weight: Optional[np.ndarray], beta: float, n_threads: int
) -> Dict[str, np.ndarray]: ...
def roc_auc_delong(
    y_score: np.ndarray, is_positive: np.ndarray, n_threads: int
) -> Tuple[float, float, int, int]: ...
def delong_components(
    y_score: np.ndarray, is_positive: np.ndarray, n_threads: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, int, int]: ...
def table_metric(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, metric: str, beta: float, cutoff: float
) -> float: ...
def bootstrap_table_metric(
    scores: np.ndarray,
    positive: np.ndarray,
    negative: np.ndarray,
    metric: str,
    beta: float,
    cutoff: float,
    replicates: int,
    seed: int,
    n_threads: int,
) -> np.ndarray: ...
def read_coco_results(data: Union[bytes, bytearray, memoryview, np.ndarray]) -> Dict[str, Any]: ...
def group_by_key(keys: np.ndarray, n_keys: int) -> Tuple[np.ndarray, np.ndarray]: ...

class CocoMatchTable:
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
    def arrays(self) -> Dict[str, Any]: ...
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

class CocoEvaluation:
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
    def match(self, n_threads: int, progress: Optional[Any] = None) -> None: ...
    @property
    def table(self) -> CocoMatchTable: ...
    def block(self, block: int) -> Dict[str, Any]: ...
    def block_present(self, block: int) -> bool: ...
    @property
    def n_blocks(self) -> int: ...
    @property
    def matched(self) -> bool: ...

# COCO masks (turbometrics.coco.mask)
class RleBatch:
    def __len__(self) -> int: ...
    def pixels(self) -> float: ...

def mask_parse(objects: Any) -> RleBatch: ...
def mask_encode(masks: np.ndarray, n_threads: int) -> List[Dict[str, Any]]: ...
def mask_decode(rles: RleBatch, n_threads: int) -> np.ndarray: ...
def mask_area(objects: Any) -> np.ndarray: ...
def mask_to_bbox(objects: Any) -> np.ndarray: ...
def mask_merge(objects: Any, intersect: Any) -> Dict[str, Any]: ...
def mask_rle_iou(dt: RleBatch, gt: RleBatch, iscrowd: np.ndarray, n_threads: int) -> np.ndarray: ...
def mask_box_iou(dt: np.ndarray, gt: np.ndarray, iscrowd: np.ndarray, n_threads: int) -> np.ndarray: ...
def mask_from_bbox(boxes: np.ndarray, h: int, w: int) -> List[Dict[str, Any]]: ...
def mask_from_polygons(polygons: Any, h: Any, w: Any) -> List[Dict[str, Any]]: ...
def mask_from_counts(counts: np.ndarray, h: int, w: int) -> Dict[str, Any]: ...

# Ranking states (register_states.cpp): tables given by arrays (scores
# descending; per-row int64 counts or float64 weights).
EXACT_SUM_SCALE_BITS: int
def state_roc_auc(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, max_fpr: Optional[float], n_threads: int
) -> Tuple[float, Any, Any]: ...
def state_average_precision(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, n_threads: int
) -> Tuple[float, Any, Any]: ...
def state_roc_curve(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, drop_intermediate: bool, n_threads: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Any, Any]: ...
def state_precision_recall_curve(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, drop_intermediate: bool, n_threads: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Any, Any]: ...
def state_best_threshold(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, metric: str, beta: float, n_threads: int
) -> Dict[str, float]: ...
def state_roc_auc_delong(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, n_threads: int
) -> Tuple[float, float, int, int]: ...
def state_roc_auc_part(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, above_positive: Any, above_negative: Any,
    n_threads: int,
) -> Any: ...
def state_average_precision_part(
    scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, above_positive: Any, above_negative: Any,
    total_positive: float, n_threads: int,
) -> int: ...
def merge_state_tables(
    scores_a: np.ndarray, positive_a: np.ndarray, negative_a: np.ndarray,
    scores_b: np.ndarray, positive_b: np.ndarray, negative_b: np.ndarray, n_threads: int,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def exact_sum(values: np.ndarray) -> Tuple[float, int]: ...
