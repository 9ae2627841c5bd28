#!/usr/bin/env python3
"""Benchmark the segmentation metrics (IoU, Dice) against torchmetrics and
MONAI, side by side in one process.

For a batch of label maps (default 8 random maps of 512 x 512, uint8) and
each class count (default 19 and 150: Cityscapes' and ADE20K's), it times
the median of ``--repeats`` calls of:

* ``turbometrics.segmentation.iou`` and ``dice`` with ``aggregate="image"``
  (per-image scores, averaged: the references' convention), from the label
  maps;
* torchmetrics' functional ``mean_iou`` and ``dice_score`` on the same maps
  as index tensors (``input_format="index"``), and turbometrics' drop-ins
  for them;
* MONAI's ``compute_iou`` and ``compute_dice`` on contiguous float32
  one-hot (B, K, H, W) tensors built once beforehand (not timed), and turbometrics'
  drop-ins on the same tensors.

It checks that the values agree to float32 rounding and prints a Markdown
table of milliseconds per call (all 8 maps) and nanoseconds per pixel.

Usage: ``python benchmarks/bench_segmentation_metrics.py [--images 8]
[--size 512] [--classes 19 150] [--repeats 5] [--only monai]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

import numpy as np

from turbometrics import segmentation


def median_seconds(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=8)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--classes", type=int, nargs="+", default=[19, 150])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=["torchmetrics", "monai"], help="time one reference's calls only")
    args = parser.parse_args()
    import torch
    from monai import metrics as monai_metrics
    from torchmetrics.functional import segmentation as tm_functional

    from turbometrics.segmentation import monai as our_monai, torchmetrics as our_torchmetrics

    warnings.simplefilter("ignore")
    print(f"load average {os.getloadavg()[0]:.2f}; torch threads {torch.get_num_threads()}")
    print("| classes | call | turbometrics (ms) | reference (ms) | turbometrics ns/px | reference ns/px | speedup |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    pixels = args.images * args.size * args.size
    for k in args.classes:
        rng = np.random.default_rng(0)
        shape = (args.images, args.size, args.size)
        y_true, y_pred = (rng.integers(0, k, shape).astype(np.uint8) for _ in range(2))
        target, preds = torch.from_numpy(y_true).long(), torch.from_numpy(y_pred).long()
        one_hot_true = torch.nn.functional.one_hot(target, k).movedim(-1, 1).float().contiguous()
        one_hot_pred = torch.nn.functional.one_hot(preds, k).movedim(-1, 1).float().contiguous()
        index = dict(num_classes=k, input_format="index")
        cases = [
            (
                "iou(aggregate='image') vs torchmetrics mean_iou",
                lambda: segmentation.iou(y_true, y_pred, num_classes=k, aggregate="image"),
                lambda: tm_functional.mean_iou(preds, target, **index),
            ),
            (
                "torchmetrics.mean_iou drop-in vs torchmetrics",
                lambda: our_torchmetrics.mean_iou(preds, target, **index),
                lambda: tm_functional.mean_iou(preds, target, **index),
            ),
            (
                "torchmetrics.dice_score drop-in vs torchmetrics",
                lambda: our_torchmetrics.dice_score(preds, target, **index),
                lambda: tm_functional.dice_score(preds, target, **index),
            ),
            (
                "monai.compute_iou drop-in (one-hot) vs MONAI",
                lambda: our_monai.compute_iou(one_hot_pred, one_hot_true),
                lambda: monai_metrics.compute_iou(one_hot_pred, one_hot_true),
            ),
            (
                "monai.compute_dice drop-in (one-hot) vs MONAI",
                lambda: our_monai.compute_dice(one_hot_pred, one_hot_true),
                lambda: monai_metrics.compute_dice(one_hot_pred, one_hot_true),
            ),
        ]
        if args.only:
            cases = [case for case in cases if ("MONAI" if args.only == "monai" else "torchmetrics") in case[0]]
        reference_times: dict[object, float] = {}
        for name, ours, reference in cases:
            ours_value, reference_value = ours(), reference()
            if hasattr(reference_value, "double"):
                got = torch.as_tensor(np.asarray(ours_value, dtype=np.float64)).double()
                expected = reference_value.double()
                if got.shape != expected.shape:  # the native function averages over images
                    expected = expected.nanmean().reshape(got.shape)
                torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6, equal_nan=True)
            ours_s = median_seconds(ours, args.repeats)
            key = reference.__code__.co_code, reference.__code__.co_names
            if key not in reference_times:  # the same reference call is timed once
                reference_times[key] = median_seconds(reference, args.repeats)
            reference_s = reference_times[key]
            print(
                f"| {k} | {name} | {ours_s * 1e3:.1f} | {reference_s * 1e3:.1f} | {ours_s / pixels * 1e9:.2f} |"
                f" {reference_s / pixels * 1e9:.1f} | {reference_s / ours_s:.0f}x |",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
