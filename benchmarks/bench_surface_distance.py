#!/usr/bin/env python3
"""Benchmark the surface distances of turbometrics.segmentation against MONAI,
medpy and DeepMind surface-distance, in one process, on the same label maps.

A pair of 2-D label maps (default 512 x 512, 19 classes, as one Cityscapes
class set), with ``--volume N`` of N x N x N volumes: the reference is
Voronoi regions of 60 seeds, the prediction the same regions with every
seed moved a few pixels (boundaries that differ, as a model's do). Or, with
``--dataset cityscapes|ade20k|ct``, one map of the issue's presets
(segmentation_maps.py: 1024 x 2048 with 19 classes, 512 x 512 with 150, a
300 x 512 x 512 CT volume of 13 organs and background); ``--slices N``
keeps the central N slices of the first axis (the references on a cropped
volume). ``--metric`` picks what is timed (median of ``--repeats`` calls,
at most 3 for the references):

* ``hd95`` (default): turbometrics ``hausdorff_distance(..., num_classes=K,
  percentile=95, method="monai")`` at 1 thread and at every core; MONAI
  ``compute_hausdorff_distance(percentile=95, include_background=True)`` on
  the one-hot (1, K, ...) float tensors (the one-hot encoding is not timed);
  medpy ``hd95`` and turbometrics' drop-in ``turbometrics.segmentation.medpy.hd95``
  once per class present in both maps (the binary masks built inside the
  loop, as a user's loop would); turbometrics ``method="surfel"`` against
  DeepMind surface-distance 0.1's ``compute_surface_distances`` and
  ``compute_robust_hausdorff(..., 95)`` once per class;
* ``assd``: ``average_surface_distance`` against MONAI
  ``compute_average_surface_distance(symmetric=True)``, medpy ``assd`` (and
  the drop-in) and the mean of DeepMind's ``compute_average_surface_distance``;
* ``nsd``: ``surface_dice(tolerance=--tolerance)`` against MONAI
  ``compute_surface_dice`` and DeepMind's ``compute_surface_dice_at_tolerance``
  (medpy has none).

It checks that the values agree (1e-12 with medpy, bit for bit with
DeepMind's HD95, float32 rounding with MONAI) and, with ``--peak``,
measures each first call's peak resident memory above the resident memory
before it, in a fresh child process (peak_memory.py). Progress goes to
stderr.

Usage: ``python benchmarks/bench_surface_distance.py [--dataset NAME]
[--size 512] [--classes 19] [--volume N] [--slices N] [--metric
hd95|assd|nsd] [--tolerance 2] [--repeats 5] [--skip NAME ...] [--peak]
[--quick]`` (``--skip`` leaves out the runners whose name contains NAME,
e.g. ``--skip MONAI --skip medpy``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import turbometrics as tm
from peak_memory import peak_mb_in_child
from segmentation_maps import DATASETS, dataset_maps, preset, regions
from timing import timed
from turbometrics.segmentation import medpy as tm_medpy

RESULTS_DIR = Path(__file__).resolve().parent / "results"
OURS = {
    "hd95": lambda p, t, k, **kw: tm.segmentation.hausdorff_distance(p, t, num_classes=k, percentile=95, **kw),
    "assd": lambda p, t, k, **kw: tm.segmentation.average_surface_distance(p, t, num_classes=k, **kw),
    "nsd": lambda p, t, k, tolerance, **kw: tm.segmentation.surface_dice(
        p, t, num_classes=k, tolerance=tolerance, **kw
    ),
}


def label_maps(spec: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, int]:
    """(prediction, reference, K) for ``spec`` (the command line's choices)."""
    if spec["dataset"]:
        dataset = preset(spec["dataset"], quick=spec["quick"], slices=spec["slices"])
        truth, pred = dataset_maps(dataset, batch=False)
        return pred, truth, dataset.classes
    shape = (spec["volume"],) * 3 if spec["volume"] else (spec["size"],) * 2
    truth, pred = regions(shape, spec["classes"], seeds=60, shift=4.0)
    return pred, truth, spec["classes"]


def runners(
    pred: np.ndarray, truth: np.ndarray, k: int, metric: str, tolerance: float, skip: Sequence[str] = ()
) -> dict[str, Callable]:
    """The calls timed, by name, leaving out (and building no inputs for)
    those whose name contains one of ``skip``."""

    def wanted(name: str) -> bool:
        return not any(s in name for s in skip)

    extra = {"tolerance": tolerance} if metric == "nsd" else {}
    ours = OURS[metric]
    out: dict[str, Callable] = {
        "turbometrics 1 thread": lambda: ours(pred, truth, k, method="monai", n_threads=1, **extra),
        "turbometrics all cores": lambda: ours(pred, truth, k, method="monai", **extra),
    }
    if metric != "nsd":
        drop_in = tm_medpy.hd95 if metric == "hd95" else tm_medpy.assd
        out[f"turbometrics medpy.{metric} loop"] = lambda: [
            float(drop_in(pred == c, truth == c)) for c in present(pred, truth, k)
        ]
    monai_name = {
        "hd95": "compute_hausdorff_distance",
        "assd": "compute_average_surface_distance",
        "nsd": "compute_surface_dice",
    }[metric]
    if wanted(f"MONAI {monai_name}"):  # the one-hot tensors are built only then
        try:
            import torch
            from monai import metrics as monai_metrics

            onehot: list = []  # built by monai.prepare(), untimed, only when MONAI's turn comes

            def prepare() -> None:
                onehot[:] = [
                    torch.from_numpy((m[None, None] == np.arange(k).reshape((1, k) + (1,) * m.ndim)).astype(np.float32))
                    for m in (pred, truth)
                ]

            monai_call = {
                "hd95": lambda: monai_metrics.compute_hausdorff_distance(
                    *onehot, include_background=True, percentile=95
                ),
                "assd": lambda: monai_metrics.compute_average_surface_distance(
                    *onehot, include_background=True, symmetric=True
                ),
                "nsd": lambda: monai_metrics.compute_surface_dice(*onehot, [tolerance] * k, include_background=True),
            }[metric]

            def monai() -> np.ndarray:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return monai_call().numpy()[0]

            monai.prepare = prepare  # type: ignore[attr-defined]
            out[f"MONAI {monai_name}"] = monai
        except ImportError:
            pass
    if metric != "nsd":
        try:
            from medpy.metric import binary as medpy_binary

            reference = getattr(medpy_binary, metric)
            out[f"medpy {metric} loop"] = lambda: [
                float(reference(pred == c, truth == c)) for c in present(pred, truth, k)
            ]
        except ImportError:
            pass
    out["turbometrics surfel"] = lambda: ours(pred, truth, k, method="surfel", **extra)
    try:
        import surface_distance

        for alias, value in (("NaN", np.nan), ("Inf", np.inf)):  # surface-distance 0.1 under NumPy 2
            if not hasattr(np, alias):
                setattr(np, alias, value)
        summary = {
            "hd95": lambda d: surface_distance.compute_robust_hausdorff(d, 95),
            "assd": lambda d: np.mean(surface_distance.compute_average_surface_distance(d)),
            "nsd": lambda d: surface_distance.compute_surface_dice_at_tolerance(d, tolerance),
        }[metric]

        def deepmind() -> np.ndarray:
            spacing = (1.0,) * pred.ndim
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return np.array(
                    [
                        summary(surface_distance.compute_surface_distances(truth == c, pred == c, spacing))
                        for c in range(k)
                    ]
                )

        out["DeepMind surface-distance loop"] = deepmind
    except ImportError:
        pass
    return {name: function for name, function in out.items() if wanted(name)}


def calls(**spec: Any) -> dict[str, Callable]:
    """The runners on the maps of ``spec`` (the peak-memory children's factory)."""
    pred, truth, k = label_maps(spec)
    return runners(pred, truth, k, spec["metric"], spec["tolerance"], spec["skip"])


def present(pred: np.ndarray, truth: np.ndarray, k: int) -> list[int]:
    return [c for c in range(k) if (pred == c).any() and (truth == c).any()]


def check(metric: str, values: dict[str, Any]) -> None:
    """The agreement the module docstring promises, for the runners that ran."""
    ours = np.asarray(values["turbometrics 1 thread"], dtype=np.float64)
    for name, value in values.items():
        if name.startswith("MONAI"):  # float64 vs MONAI's float32; MONAI's nan where ours is inf (one class empty)
            theirs = np.asarray(value, dtype=np.float64)
            np.testing.assert_array_equal(np.isfinite(ours), np.isfinite(theirs))
            finite = np.isfinite(ours)
            np.testing.assert_allclose(ours[finite], theirs[finite], rtol=5e-6, atol=1e-6)
    medpy = f"medpy {metric} loop"
    if medpy in values and f"turbometrics medpy.{metric} loop" in values:
        np.testing.assert_allclose(values[f"turbometrics medpy.{metric} loop"], values[medpy], rtol=1e-12)
    if "DeepMind surface-distance loop" in values and "turbometrics surfel" in values:
        surfel, deepmind = np.asarray(values["turbometrics surfel"]), values["DeepMind surface-distance loop"]
        if metric == "hd95":  # nan where both are empty, DeepMind's inf
            np.testing.assert_array_equal(np.where(np.isnan(surfel), np.inf, surfel), deepmind)
        else:  # where one class is empty the mean of DeepMind's ASSD pair is nan, ours inf
            both = np.isfinite(surfel) & np.isfinite(deepmind)
            np.testing.assert_allclose(surfel[both], deepmind[both], rtol=1e-12)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", choices=sorted(DATASETS), help="one map of an issue preset")
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--classes", type=int, default=19)
    parser.add_argument("--volume", type=int, default=0, help="N x N x N volumes instead of 2-D maps")
    parser.add_argument("--slices", type=int, help="with --dataset: the central N slices of the first axis")
    parser.add_argument("--metric", choices=sorted(OURS), default="hd95")
    parser.add_argument("--tolerance", type=float, default=2.0, help="the NSD tolerance, in pixels")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip", action="append", default=[], help="leave out the runners whose name has this")
    parser.add_argument("--peak", action="store_true", help="also measure peak memory (child processes)")
    parser.add_argument("--quick", action="store_true", help="a preset's sides / 8, or 64 x 64; 1 repeat")
    args = parser.parse_args()
    spec = {
        "dataset": args.dataset,
        "quick": args.quick,
        "slices": args.slices,
        "size": 64 if args.quick else args.size,
        "volume": min(args.volume, 24) if args.quick else args.volume,
        "classes": args.classes,
        "metric": args.metric,
        "tolerance": args.tolerance,
        "skip": args.skip,
    }
    repeats = 1 if args.quick else args.repeats
    pred, truth, k = label_maps(spec)
    shape = " x ".join(map(str, pred.shape))
    if args.dataset:
        described = dataclasses.replace(preset(args.dataset, quick=args.quick, slices=args.slices), images=1).describe()
    else:
        described = f"{shape}, {k} classes"
    print(f"# {args.metric}, {described}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    results: dict[str, dict] = {}
    values: dict[str, object] = {}
    todo = runners(pred, truth, k, args.metric, args.tolerance, args.skip)
    for name in list(todo):
        function = todo.pop(name)  # freed after its calls (MONAI's one-hot tensors before the next child)
        slow = not name.startswith("turbometrics")
        runs = min(3, repeats) if slow else repeats
        print(f"{name}: {runs} call(s)...", end="", file=sys.stderr, flush=True)
        start = time.perf_counter()
        getattr(function, "prepare", lambda: None)()
        seconds, values[name] = timed(function, runs)
        results[name] = {"seconds": seconds, "repeats": runs}
        del function
        if args.peak:
            results[name]["peak_mb"] = peak_mb_in_child("bench_surface_distance", "calls", spec, name)
        print(f" {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    check(args.metric, values)
    base = results["turbometrics 1 thread"]["seconds"] if "turbometrics 1 thread" in results else float("nan")
    print("| call | median s | vs turbometrics 1 thread | peak MB |")
    print("|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['seconds']:.4f} | {r['seconds'] / base:.1f}x | {r.get('peak_mb', float('nan')):.1f} |")
    print(f"# load {os.getloadavg()[0]:.2f}")
    RESULTS_DIR.mkdir(exist_ok=True)
    suffix = f"_{args.dataset}" if args.dataset else (f"_volume{args.volume}" if args.volume else "")
    report = {"maps": described, "metric": args.metric, "results": results, "load_end": os.getloadavg()[0]}
    (RESULTS_DIR / f"surface_distance{suffix}_{args.metric}.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
