#!/usr/bin/env python3
"""torchmetrics' MeanAveragePrecision(backend="pycocotools") with and without
``turbometrics.coco.patch_pycocotools()``, in one process on the same data.

The data is ``turbometrics.coco.synthetic.make_coco_set`` (by default 500
images, 80 categories, about 7 ground truths and 100 box detections per
image) as per-image torch tensors. Each repeat builds a metric, runs
``update`` with every image and ``compute``; the two variants alternate.
Every value of the two result dictionaries must be equal (``torch.equal``;
exit code 1 otherwise).

torchmetrics' bbox path calls one torchvision function, ``box_convert``. When
torchvision cannot be imported (no CPU wheel matching the installed torch),
:func:`mean_average_precision_class` installs a stand-in for it (the
xyxy/xywh/cxcywh conversion written here, in torch) and says so.

Usage: ``python benchmarks/bench_torchmetrics.py [--images 500]
[--repeats 3] [--class-metrics]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import timed_pair


def _box_convert(boxes: Any, in_fmt: str, out_fmt: str) -> Any:
    """Boxes between 'xyxy', 'xywh' and 'cxcywh' (torch tensors of shape (n, 4))."""
    import torch

    if in_fmt == out_fmt:
        return boxes.clone()
    a, b, c, d = boxes.unbind(-1)
    if in_fmt == "xywh":
        x1, y1, x2, y2 = a, b, a + c, b + d
    elif in_fmt == "cxcywh":
        x1, y1, x2, y2 = a - c / 2, b - d / 2, a + c / 2, b + d / 2
    else:
        x1, y1, x2, y2 = a, b, c, d
    if out_fmt == "xywh":
        return torch.stack([x1, y1, x2 - x1, y2 - y1], dim=-1)
    if out_fmt == "cxcywh":
        return torch.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], dim=-1)
    return torch.stack([x1, y1, x2, y2], dim=-1)


def mean_average_precision_class() -> tuple[type, bool]:
    """torchmetrics' MeanAveragePrecision and whether torchvision's
    ``box_convert`` had to be replaced by the stand-in."""
    try:
        import torchvision.ops  # noqa: F401

        stand_in = False
    except Exception:
        ops = types.ModuleType("torchvision.ops")
        ops.box_convert = _box_convert  # type: ignore[attr-defined]
        package = types.ModuleType("torchvision")
        package.ops = ops  # type: ignore[attr-defined]
        sys.modules.setdefault("torchvision", package)
        sys.modules.setdefault("torchvision.ops", ops)
        stand_in = True
    import torchmetrics.detection.mean_ap as mean_ap

    if stand_in:
        mean_ap._TORCHVISION_AVAILABLE = True
    return mean_ap.MeanAveragePrecision, stand_in


def detection_tensors(n_images: int, seed: int = 0, **kwargs: Any) -> tuple[list[dict], list[dict]]:
    """Synthetic per-image predictions and targets as torch tensors."""
    import torch

    from turbometrics.coco.synthetic import make_coco_set, to_detection_batches

    predictions, targets = to_detection_batches(*make_coco_set(n_images=n_images, seed=seed, **kwargs))

    def tensors(item: dict) -> dict:
        return {key: torch.from_numpy(value) for key, value in item.items()}

    return [tensors(p) for p in predictions], [tensors(t) for t in targets]


def evaluate(metric_class: type, predictions: list[dict], targets: list[dict], **options: Any) -> dict:
    """update() with every image, then compute()."""
    metric = metric_class(backend="pycocotools", **options)
    metric.update(predictions, targets)
    return metric.compute()


def results_equal(first: dict, second: dict) -> bool:
    import torch

    return first.keys() == second.keys() and all(torch.equal(first[key], second[key]) for key in first)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--class-metrics", action="store_true")
    args = parser.parse_args()

    import contextlib
    import io

    import torch
    import torchmetrics

    import turbometrics.coco as tc

    metric_class, stand_in = mean_average_precision_class()
    predictions, targets = detection_tensors(args.images)
    options = {"class_metrics": args.class_metrics}

    def reference() -> dict:
        with contextlib.redirect_stdout(io.StringIO()):
            return evaluate(metric_class, predictions, targets, **options)

    def patched() -> dict:
        with tc.patch_pycocotools(), contextlib.redirect_stdout(io.StringIO()):
            return evaluate(metric_class, predictions, targets, **options)

    plain, fast = timed_pair(reference, patched, args.repeats)
    agree = results_equal(plain["result"], fast["result"])
    n_detections = sum(len(p["scores"]) for p in predictions)
    print(
        f"torch {torch.__version__}, torchmetrics {torchmetrics.__version__}, "
        f"torchvision {'stand-in box_convert' if stand_in else 'installed'}; {args.images} images, "
        f"{n_detections} detections, class_metrics={args.class_metrics}, repeats={args.repeats}, "
        f"load average (1 min) {os.getloadavg()[0]:.2f}, cpus {os.cpu_count()}"
    )
    print()
    print("| MeanAveragePrecision(backend='pycocotools') update + compute | wall s | CPU s |")
    print("|---|---:|---:|")
    print(f"| pycocotools 2.0.11 | {plain['wall']:.3f} | {plain['cpu']:.3f} |")
    print(f"| with turbometrics.coco.patch_pycocotools() | {fast['wall']:.3f} | {fast['cpu']:.3f} |")
    print(f"| speedup | {plain['wall'] / fast['wall']:.1f}x | {plain['cpu'] / fast['cpu']:.1f}x |")
    print()
    print(f"map = {float(fast['result']['map']):.6f}; results identical: {agree}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
