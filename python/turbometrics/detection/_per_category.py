"""Per-category results of an accumulated COCO evaluation: the summary
numbers by category, and each category's precision-recall and F1-vs-score
curves at pycocotools' recall thresholds."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._summary import summary_value


def results_per_category(evaluation: dict[str, Any], p: Any, categories: dict[Any, dict], as_frame: bool | None) -> Any:
    """AP (IoU .50:.95), AP50, AP75 and AR at the largest maxDets, for every
    category of the evaluation (-1 where the category has no ground truth).
    A pandas DataFrame indexed by category id when ``as_frame`` is true, or
    is None and pandas is installed; else a dict of dicts."""
    last = p.maxDets[-1]
    recall_name = f"AR{last}"
    rows: dict[Any, dict[str, Any]] = {}
    for k, category_id in enumerate(p.catIds if p.useCats else [-1]):

        def value(**query: Any) -> float:
            return float(summary_value(evaluation, p, category=k, **query)[0])  # noqa: B023 (called in this iteration)

        rows[category_id] = {
            "name": categories.get(category_id, {}).get("name"),
            "AP": value(ap=1, maxDets=last),
            "AP50": value(ap=1, iouThr=0.5, maxDets=last),
            "AP75": value(ap=1, iouThr=0.75, maxDets=last),
            recall_name: value(ap=0, maxDets=last),
        }
    if as_frame is None:
        try:
            import pandas  # noqa: F401
        except ImportError:
            as_frame = False
        else:
            as_frame = True
    if not as_frame:
        return rows
    import pandas as pd

    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "category_id"
    return frame


def evaluated_cell(
    evaluation: dict[str, Any], p: Any, category_id: Any, iou_threshold: float, area: str, max_detections: int | None
) -> tuple[int, int, int, int]:
    category_ids = list(p.catIds) if p.useCats else [-1]
    if category_id not in category_ids:
        raise ValueError(f"category {category_id!r} was not evaluated")
    t = np.flatnonzero(np.asarray(p.iouThrs) == iou_threshold)
    if len(t) == 0:
        raise ValueError(f"IoU threshold {iou_threshold} is not one of params.iouThrs")
    if area not in p.areaRngLbl:
        raise ValueError(f"area {area!r} is not one of params.areaRngLbl {p.areaRngLbl}")
    m = p.maxDets[-1] if max_detections is None else max_detections
    if m not in p.maxDets:
        raise ValueError(f"max_detections {m} is not one of params.maxDets {p.maxDets}")
    return int(t[0]), category_ids.index(category_id), p.areaRngLbl.index(area), list(p.maxDets).index(m)


def category_curve(
    evaluation: dict[str, Any], p: Any, category_id: Any, iou_threshold: float, area: str, max_detections: int | None
) -> dict[str, np.ndarray]:
    """The category's interpolated precision-recall curve at the recall
    thresholds it reaches: ``recall`` (the thresholds), ``precision`` (the
    right-to-left maximum, as in ``eval['precision']``), ``scores`` (the
    score where each recall is first reached) and ``f1``."""
    t, k, a, m = evaluated_cell(evaluation, p, category_id, iou_threshold, area, max_detections)
    reached = evaluation["recall"][t, k, a, m]
    if reached < 0:
        raise ValueError(f"category {category_id!r} has no ground truth in area {area!r}")
    recall = np.asarray(p.recThrs, dtype=np.float64)
    keep = recall <= reached
    precision = evaluation["precision"][t, keep, k, a, m]
    scores = evaluation["scores"][t, keep, k, a, m]
    recall = recall[keep]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    return {"recall": recall, "precision": precision, "scores": scores, "f1": f1}
