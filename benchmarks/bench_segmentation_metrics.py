#!/usr/bin/env python3
"""Benchmark the segmentation metrics (IoU, Dice) against torchmetrics and
MONAI, side by side in one process.

For a batch of label maps (default 8 random maps of 512 x 512, uint8, for
each class count of ``--classes``, default 19 and 150: Cityscapes' and
ADE20K's; or ``--dataset cityscapes|ade20k|ct``, the issue's presets of
segmentation_maps.py, blob-shaped) it times the median of ``--repeats``
calls (``--reference-repeats`` for the references) of:

* ``turbometrics.segmentation.iou`` with ``aggregate="image"`` (per-image
  scores, averaged: the references' convention), from the label maps;
* torchmetrics' functional ``mean_iou`` and ``dice_score`` on the same maps
  as index tensors (``input_format="index"``), and turbometrics' drop-ins
  for them;
* MONAI's ``compute_iou`` and ``compute_dice`` on contiguous float32
  one-hot (B, K, ...) tensors built once beforehand (not timed), and
  turbometrics' drop-ins on the same tensors.

It checks that the values agree to float32 rounding and prints a Markdown
table of milliseconds per call (the whole batch) and nanoseconds per pixel.
With ``--peak``, each call's peak resident memory above the memory before
it (the inputs, one-hot tensors included, are built before) is measured in
a fresh child process (peak_memory.py). ``--only turbometrics`` times
turbometrics' native call alone (no torch tensors are built: the whole CT
volume, whose one-hot tensors would take 9 GB each).

Usage: ``python benchmarks/bench_segmentation_metrics.py [--dataset NAME]
[--images 8] [--size 512] [--classes 19 150] [--repeats 5]
[--reference-repeats N] [--slices N] [--only monai|torchmetrics|turbometrics]
[--peak] [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from peak_memory import peak_mb_in_child
from segmentation_maps import DATASETS, dataset_maps, preset, random_maps
from timing import timed
from turbometrics import segmentation

NATIVE = "iou(aggregate='image') vs torchmetrics mean_iou"


def label_maps(spec: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, int]:
    """The label maps of ``spec`` (the command line's choices) and K."""
    if spec["dataset"]:
        dataset = preset(spec["dataset"], quick=spec["quick"], slices=spec["slices"])
        return *dataset_maps(dataset), dataset.classes
    k = spec["classes"]
    return *random_maps((spec["images"], spec["size"], spec["size"]), k, "uint8"), k


def cases(**spec: Any) -> list[tuple[str, Callable[[], Any], str | None, Callable[[], Any] | None]]:
    """(name, turbometrics call, reference name, reference call) on the maps
    of ``spec``; the torch tensors are built here, only where needed."""
    y_true, y_pred, k = label_maps(spec)
    native = (NATIVE, lambda: segmentation.iou(y_true, y_pred, num_classes=k, aggregate="image"))
    if spec["only"] == "turbometrics":
        return [(*native, None, None)]
    import torch
    from monai import metrics as monai_metrics
    from torchmetrics.functional import segmentation as tm_functional

    from turbometrics.segmentation import monai as our_monai, torchmetrics as our_torchmetrics

    warnings.simplefilter("ignore")
    target, preds = torch.from_numpy(y_true).long(), torch.from_numpy(y_pred).long()
    index = dict(num_classes=k, input_format="index")
    out = []
    if spec["only"] != "monai":
        out += [
            (*native, "torchmetrics mean_iou", lambda: tm_functional.mean_iou(preds, target, **index)),
            (
                "torchmetrics.mean_iou drop-in vs torchmetrics",
                lambda: our_torchmetrics.mean_iou(preds, target, **index),
                "torchmetrics mean_iou",
                lambda: tm_functional.mean_iou(preds, target, **index),
            ),
            (
                "torchmetrics.dice_score drop-in vs torchmetrics",
                lambda: our_torchmetrics.dice_score(preds, target, **index),
                "torchmetrics dice_score",
                lambda: tm_functional.dice_score(preds, target, **index),
            ),
        ]
    if spec["only"] != "torchmetrics":
        one_hot_true = torch.nn.functional.one_hot(target, k).movedim(-1, 1).float().contiguous()
        one_hot_pred = torch.nn.functional.one_hot(preds, k).movedim(-1, 1).float().contiguous()
        out += [
            (
                "monai.compute_iou drop-in (one-hot) vs MONAI",
                lambda: our_monai.compute_iou(one_hot_pred, one_hot_true),
                "MONAI compute_iou",
                lambda: monai_metrics.compute_iou(one_hot_pred, one_hot_true),
            ),
            (
                "monai.compute_dice drop-in (one-hot) vs MONAI",
                lambda: our_monai.compute_dice(one_hot_pred, one_hot_true),
                "MONAI compute_dice",
                lambda: monai_metrics.compute_dice(one_hot_pred, one_hot_true),
            ),
        ]
    return out


def calls(**spec: Any) -> dict[str, Callable[[], Any]]:
    """Every call of :func:`cases` by name (the peak-memory children's factory)."""
    out = {}
    for name, ours, reference_name, reference in cases(**spec):
        out["turbometrics " + name] = ours
        if reference_name is not None:
            out[reference_name] = reference
    return out


def check(ours_value: Any, reference_value: Any) -> None:
    import torch

    got = torch.as_tensor(np.asarray(ours_value, dtype=np.float64)).double()
    expected = reference_value.double()
    if got.shape != expected.shape:  # the native function averages over images
        expected = expected.nanmean().reshape(got.shape)
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6, equal_nan=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", choices=sorted(DATASETS), help="an issue preset (overrides the sizes)")
    parser.add_argument("--images", type=int, default=8)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--classes", type=int, nargs="+", default=[19, 150])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--reference-repeats", type=int, help="repeats of the references' calls (default --repeats)")
    parser.add_argument("--slices", type=int, help="with --dataset: the central N slices of each map's first axis")
    parser.add_argument("--only", choices=["torchmetrics", "monai", "turbometrics"], help="time one library's calls")
    parser.add_argument("--peak", action="store_true", help="also measure each call's peak memory (child processes)")
    parser.add_argument("--quick", action="store_true", help="small maps (a preset's sides / 8), 1 repeat")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    reference_repeats = 1 if args.quick else (args.reference_repeats or args.repeats)
    images, size = (2, 64) if args.quick else (args.images, args.size)
    print(f"load average {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    peak_header = " turbometrics peak MB | reference peak MB |" if args.peak else ""
    print(
        "| maps | call | turbometrics (ms) | reference (ms) | turbometrics ns/px | reference ns/px | speedup |"
        + peak_header
    )
    print("|---|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if args.peak else ""))
    for k in [0] if args.dataset else args.classes:
        spec = {
            "dataset": args.dataset,
            "quick": args.quick,
            "slices": args.slices,
            "images": images,
            "size": size,
            "classes": k,
            "only": args.only,
        }
        if args.dataset:
            maps_name = preset(args.dataset, quick=args.quick, slices=args.slices).describe()
        else:
            maps_name = f"{images} random maps of {size} x {size}, {k} classes"
        run = cases(**spec)
        pixels = label_maps(spec)[0].size
        reference_times: dict[str, float] = {}
        for name, ours, reference_name, reference in run:
            ours_value = ours()
            if reference_name is not None:
                check(ours_value, reference())
            ours_s, _ = timed(ours, repeats)
            reference_s = float("nan")
            if reference_name is not None:
                if reference_name not in reference_times:  # the same reference call is timed once
                    reference_times[reference_name] = timed(reference, reference_repeats)[0]
                reference_s = reference_times[reference_name]
            peaks = ""
            if args.peak:
                ours_mb = peak_mb_in_child("bench_segmentation_metrics", "calls", spec, "turbometrics " + name)
                reference_mb = (
                    peak_mb_in_child("bench_segmentation_metrics", "calls", spec, reference_name)
                    if reference_name is not None
                    else float("nan")
                )
                peaks = f" {ours_mb:.1f} | {reference_mb:.1f} |"
            print(
                f"| {maps_name} | {name} | {ours_s * 1e3:.1f} | {reference_s * 1e3:.1f} | "
                f"{ours_s / pixels * 1e9:.2f} | {reference_s / pixels * 1e9:.1f} | {reference_s / ours_s:.0f}x |"
                + peaks,
                flush=True,
            )
        del run
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
