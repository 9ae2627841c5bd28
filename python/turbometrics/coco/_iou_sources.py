"""Giving the evaluation kernel its IoU source: boxes, masks (RLE runs) or
keypoint similarities (OKS)."""

from __future__ import annotations

from typing import Any

from ..detection import Blocks, Columns, keypoint_similarities
from ._masks import attach_masks


def attach_iou_source(
    evaluation: Any, gts: Columns, dts: Columns, blocks: Blocks, p: Any, coco_gt: Any, coco_dt: Any, n_threads: int
) -> None:
    """Set the IoU source of ``evaluation`` for ``p.iouType``."""
    if p.iouType == "bbox":
        evaluation.use_boxes(dts.boxes, gts.boxes)
    elif p.iouType == "keypoints":
        values, offsets = keypoint_similarities(gts, dts, blocks, p)
        evaluation.use_precomputed(values, offsets)
    else:
        attach_masks(evaluation, gts, dts, coco_gt, coco_dt, n_threads)
