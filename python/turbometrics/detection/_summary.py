"""``COCOeval.summarize``: the 12 box/mask or 10 keypoint summary numbers,
printed in pycocotools' format."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._log import say

_LINE = " {:<18} {} @[ IoU={:<9} | area={:>6s} | maxDets={:>3d} ] = {:0.3f}"


def summary_value(
    evaluation: dict[str, Any],
    p: Any,
    ap: int = 1,
    iouThr: float | None = None,
    areaRng: str = "all",
    maxDets: int = 100,
    category: int | None = None,
) -> tuple[float, str]:
    """The mean of the valid (> -1) precision (``ap=1``) or recall cells at
    the given IoU threshold (all when None), area label and max detections
    (and category index, all when None), -1 when there is none; and its
    summary line."""
    areas = [i for i, label in enumerate(p.areaRngLbl) if label == areaRng]
    max_dets = [i for i, m in enumerate(p.maxDets) if m == maxDets]
    cells = evaluation["precision"] if ap == 1 else evaluation["recall"]
    if iouThr is not None:
        cells = cells[np.where(iouThr == p.iouThrs)[0]]
    if category is not None:
        cells = cells[:, :, [category]] if ap == 1 else cells[:, [category]]
    cells = cells[:, :, :, areas, max_dets] if ap == 1 else cells[:, :, areas, max_dets]
    valid = cells[cells > -1]
    mean = -1 if len(valid) == 0 else np.mean(valid)
    iou_text = f"{p.iouThrs[0]:0.2f}:{p.iouThrs[-1]:0.2f}" if iouThr is None else f"{iouThr:0.2f}"
    title = "Average Precision" if ap == 1 else "Average Recall"
    kind = "(AP)" if ap == 1 else "(AR)"
    return mean, _LINE.format(title, kind, iou_text, areaRng, maxDets, mean)


def _detection_queries(p: Any) -> list[dict[str, Any]]:
    last = p.maxDets[2]
    return [
        dict(ap=1),
        dict(ap=1, iouThr=0.5, maxDets=last),
        dict(ap=1, iouThr=0.75, maxDets=last),
        dict(ap=1, areaRng="small", maxDets=last),
        dict(ap=1, areaRng="medium", maxDets=last),
        dict(ap=1, areaRng="large", maxDets=last),
        dict(ap=0, maxDets=p.maxDets[0]),
        dict(ap=0, maxDets=p.maxDets[1]),
        dict(ap=0, maxDets=last),
        dict(ap=0, areaRng="small", maxDets=last),
        dict(ap=0, areaRng="medium", maxDets=last),
        dict(ap=0, areaRng="large", maxDets=last),
    ]


def _keypoint_queries(p: Any) -> list[dict[str, Any]]:
    queries: list[dict[str, Any]] = []
    for ap in (1, 0):
        queries += [
            dict(ap=ap, maxDets=20),
            dict(ap=ap, maxDets=20, iouThr=0.5),
            dict(ap=ap, maxDets=20, iouThr=0.75),
            dict(ap=ap, maxDets=20, areaRng="medium"),
            dict(ap=ap, maxDets=20, areaRng="large"),
        ]
    return queries


def summary_lines(evaluation: dict[str, Any], p: Any) -> tuple[np.ndarray, list[str]]:
    """``stats`` and the summary lines pycocotools prints."""
    queries = _keypoint_queries(p) if p.iouType == "keypoints" else _detection_queries(p)
    stats = np.zeros((len(queries),))
    lines = []
    for n, query in enumerate(queries):
        stats[n], line = summary_value(evaluation, p, **query)
        lines.append(line)
    return stats, lines


def summarize(evaluation: dict[str, Any], p: Any) -> np.ndarray:
    """Print the summary lines and return them as ``stats``."""
    stats, lines = summary_lines(evaluation, p)
    for line in lines:
        say(line)
    return stats
