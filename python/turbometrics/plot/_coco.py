"""COCO precision-recall curves from an accumulated evaluation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._axes import axes_or_new, finish


def _evaluation(source: Any) -> dict[str, Any]:
    """The ``eval`` dict of a COCOeval (turbometrics' or pycocotools'), or
    ``source`` itself when it is one."""
    evaluation = source.eval if hasattr(source, "eval") else source
    if not isinstance(evaluation, dict) or "precision" not in evaluation or "params" not in evaluation:
        raise ValueError("coco_precision_recall needs a COCOeval after accumulate(), or its eval dict")
    return evaluation


def _category_names(source: Any) -> dict[Any, str]:
    cats = getattr(getattr(source, "cocoGt", None), "cats", None) or {}
    return {k: str(v.get("name", k)) for k, v in cats.items()}


def coco_precision_recall(
    source: Any,
    *,
    iou_thresholds: Sequence[float] = (0.5, 0.75),
    category: Any | Sequence[Any] | None = None,
    area: str = "all",
    max_detections: int | None = None,
    ax: Any = None,
) -> Any:
    """COCO precision-recall curves, per IoU threshold and per category.

    Parameters
    ----------
    source : COCOeval or dict
        A ``turbometrics.coco.COCOeval`` (or pycocotools') after
        ``accumulate()``, or its ``eval`` dict.
    iou_thresholds : sequence of float, default=(0.5, 0.75)
        IoU thresholds to draw, each one of ``params.iouThrs``.
    category : category id, sequence of ids, or None, default=None
        None draws, per IoU threshold, the mean over the categories with
        ground truth of their interpolated precision at each of
        ``params.recThrs``: the curve whose mean is COCO's AP at that IoU
        (shown in the legend). Ids draw each category's own curve
        (``COCOeval.category_curve``), up to the recall it reaches.
    area : str, default="all"
        Area range label (``params.areaRngLbl``).
    max_detections : int, optional
        One of ``params.maxDets``; the largest by default.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        For an IoU threshold, category, area or max detections that was not
        evaluated, or a category without ground truth.
    """
    from ..detection import category_curve, evaluated_cell, summary_value

    evaluation = _evaluation(source)
    p = evaluation["params"]
    m = p.maxDets[-1] if max_detections is None else max_detections
    ax = axes_or_new(ax)
    names = _category_names(source)
    category_ids = list(p.catIds) if p.useCats else [-1]
    if category is None:
        recall = np.asarray(p.recThrs, dtype=np.float64)
        for iou in iou_thresholds:
            t, _, a, mi = evaluated_cell(evaluation, p, category_ids[0], iou, area, max_detections)
            cells = evaluation["precision"][t, :, :, a, mi]
            with_truth = cells[0] > -1
            ap, _ = summary_value(evaluation, p, ap=1, iouThr=iou, areaRng=area, maxDets=m)
            ax.plot(
                recall,
                cells[:, with_truth].mean(axis=1) if with_truth.any() else np.zeros_like(recall),
                linewidth=1.6,
                label=f"IoU = {iou:.2f}: AP = {ap:.3f}",
            )
        title = f"COCO precision-recall (mean of {int(with_truth.sum())} categories)"
    else:
        categories = list(category) if isinstance(category, (list, tuple)) else [category]
        for category_id in categories:
            for iou in iou_thresholds:
                curve = category_curve(evaluation, p, category_id, iou, area, max_detections)
                ap, _ = summary_value(
                    evaluation, p, ap=1, iouThr=iou, areaRng=area, maxDets=m, category=category_ids.index(category_id)
                )
                name = names.get(category_id, category_id)
                ax.plot(
                    curve["recall"], curve["precision"], linewidth=1.6, label=f"{name}, IoU = {iou:.2f}: AP = {ap:.3f}"
                )
        title = "COCO precision-recall per category"
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    return finish(ax, f"{title}\narea = {area}, maxDets = {m}", "recall", "interpolated precision", "upper right")
