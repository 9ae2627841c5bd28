#!/usr/bin/env python3
"""Benchmark the surface distances of turbometrics.segmentation against MONAI,
medpy and DeepMind surface-distance, in one process, on the same label maps.

A pair of 2-D label maps (default 512 x 512, 19 classes, as one Cityscapes
class set), or with ``--volume N`` of N x N x N volumes: the reference is
Voronoi regions of 60 seeds, the prediction the same regions with every
seed moved a few pixels (boundaries that differ, as a model's do). Timed
(median of ``--repeats`` calls):

* turbometrics ``hausdorff_distance(..., num_classes=K, percentile=95)`` at
  1 thread and at every core (``method="monai"``; "medpy" costs the same);
* MONAI ``compute_hausdorff_distance(percentile=95, include_background=True)``
  on the one-hot (1, K, H, W) float tensors (the one-hot encoding is not
  timed);
* medpy ``hd95`` once per class present in both maps (the binary masks are
  built inside the loop, as a user's loop would);
* turbometrics' drop-ins ``turbometrics.segmentation.medpy.hd95`` (same loop);
* turbometrics ``hausdorff_distance(..., percentile=95, method="surfel")``
  against DeepMind surface-distance 0.1's ``compute_surface_distances`` and
  ``compute_robust_hausdorff(..., 95)`` once per class (the binary masks
  built inside the loop).

It checks that the values agree (1e-12 with medpy, bit for bit with
DeepMind, float32 rounding with MONAI) and, with ``--peak``, measures each
first call's peak resident memory above the resident memory before it, in
a fresh child process (Linux).

Usage: ``python benchmarks/bench_surface_distance.py [--size 512] [--classes
19] [--volume N] [--repeats 5] [--skip NAME ...] [--peak]`` (``--skip``
leaves out the runners whose name contains NAME, e.g. ``--skip MONAI --skip
medpy``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import turbometrics as tm
from turbometrics.segmentation import medpy as tm_medpy

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def maps(size: int, classes: int, seed: int = 0, ndim: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, size, (60, ndim)).astype(np.float64)
    labels = np.arange(60) % classes
    grid = np.indices((size,) * ndim, dtype=np.float32)

    def voronoi(points: np.ndarray) -> np.ndarray:
        best = np.full((size,) * ndim, np.inf, dtype=np.float32)
        out = np.zeros((size,) * ndim, dtype=np.uint8)
        for point, label in zip(points, labels, strict=True):
            d = sum((axis - np.float32(x)) ** 2 for axis, x in zip(grid, point, strict=True))
            closer = d < best
            best[closer] = d[closer]
            out[closer] = label
        return out

    return voronoi(seeds + rng.normal(0, 4, seeds.shape)), voronoi(seeds)


def median_time(function, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def runners(pred: np.ndarray, truth: np.ndarray, k: int) -> dict:
    out = {
        "turbometrics 1 thread": lambda: tm.segmentation.hausdorff_distance(
            pred, truth, num_classes=k, percentile=95, method="monai", n_threads=1
        ),
        "turbometrics all cores": lambda: tm.segmentation.hausdorff_distance(
            pred, truth, num_classes=k, percentile=95, method="monai"
        ),
        "turbometrics medpy.hd95 loop": lambda: [
            float(tm_medpy.hd95(pred == c, truth == c)) for c in present(pred, truth, k)
        ],
    }
    try:
        import torch
        from monai.metrics import compute_hausdorff_distance

        onehot = [
            torch.from_numpy((m[None, None] == np.arange(k).reshape((1, k) + (1,) * m.ndim)).astype(np.float32))
            for m in (pred, truth)
        ]

        def monai() -> np.ndarray:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return compute_hausdorff_distance(*onehot, include_background=True, percentile=95).numpy()[0]

        out["MONAI compute_hausdorff_distance"] = monai
    except ImportError:
        pass
    try:
        from medpy.metric.binary import hd95

        out["medpy hd95 loop"] = lambda: [float(hd95(pred == c, truth == c)) for c in present(pred, truth, k)]
    except ImportError:
        pass
    out["turbometrics surfel"] = lambda: tm.segmentation.hausdorff_distance(
        pred, truth, num_classes=k, percentile=95, method="surfel"
    )
    try:
        import surface_distance

        for alias, value in (("NaN", np.nan), ("Inf", np.inf)):  # surface-distance 0.1 under NumPy 2
            if not hasattr(np, alias):
                setattr(np, alias, value)

        def deepmind() -> np.ndarray:
            spacing = (1.0,) * pred.ndim
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return np.array(
                    [
                        surface_distance.compute_robust_hausdorff(
                            surface_distance.compute_surface_distances(truth == c, pred == c, spacing), 95
                        )
                        for c in range(k)
                    ]
                )

        out["DeepMind surface-distance loop"] = deepmind
    except ImportError:
        pass
    return out


def present(pred: np.ndarray, truth: np.ndarray, k: int) -> list[int]:
    return [c for c in range(k) if (pred == c).any() and (truth == c).any()]


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def peak_kb(function) -> int:
    """Peak resident memory (KB) of one call above the resident memory
    before it (Linux: the high-water mark reset through /proc/self/clear_refs)."""
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    function()
    return _status("VmHWM") - before


def peak(name: str, size: int, classes: int, ndim: int) -> float:
    """Peak memory (MB) of the first call of one runner, in a child process."""
    code = (
        "import sys; sys.path.insert(0, %r); import bench_surface_distance as b;"
        "p, t = b.maps(%d, %d, ndim=%d); r = b.runners(p, t, %d); print(b.peak_kb(r[%r]))"
    ) % (str(Path(__file__).parent), size, classes, ndim, classes, name)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--classes", type=int, default=19)
    parser.add_argument("--volume", type=int, default=0, help="N x N x N volumes instead of 2-D maps")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip", action="append", default=[], help="leave out the runners whose name has this")
    parser.add_argument("--peak", action="store_true", help="also measure peak memory (child processes)")
    args = parser.parse_args()
    size, ndim = (args.volume, 3) if args.volume else (args.size, 2)
    pred, truth = maps(size, args.classes, ndim=ndim)
    k = args.classes
    print(f"# {' x '.join([str(size)] * ndim)}, {k} classes, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    results: dict[str, dict] = {}
    values: dict[str, object] = {}
    for name, function in runners(pred, truth, k).items():
        if any(skip in name for skip in args.skip):
            continue
        slow = "MONAI" in name or "medpy hd95" in name or "DeepMind" in name
        repeats = min(3, args.repeats) if slow else args.repeats
        seconds, values[name] = median_time(function, repeats)
        results[name] = {"seconds": seconds, "repeats": repeats}
        if args.peak:
            results[name]["peak_mb"] = peak(name, size, k, ndim)
    ours = np.asarray(values["turbometrics 1 thread"])
    if "MONAI compute_hausdorff_distance" in values:
        np.testing.assert_allclose(
            ours, values["MONAI compute_hausdorff_distance"], rtol=5e-6
        )  # float64 vs float32 quantiles
    if "medpy hd95 loop" in values and "turbometrics medpy.hd95 loop" in values:
        np.testing.assert_allclose(values["turbometrics medpy.hd95 loop"], values["medpy hd95 loop"], rtol=1e-12)
    if "DeepMind surface-distance loop" in values and "turbometrics surfel" in values:
        surfel = np.asarray(values["turbometrics surfel"])  # nan where both are empty, DeepMind's inf
        np.testing.assert_array_equal(
            np.where(np.isnan(surfel), np.inf, surfel), values["DeepMind surface-distance loop"]
        )
    base = results["turbometrics 1 thread"]["seconds"]
    print("| call | median s | vs turbometrics 1 thread | peak MB |")
    print("|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['seconds']:.4f} | {r['seconds'] / base:.1f}x | {r.get('peak_mb', float('nan')):.1f} |")
    print(f"# load {os.getloadavg()[0]:.2f}")
    RESULTS_DIR.mkdir(exist_ok=True)
    suffix = f"_volume{size}" if ndim == 3 else ""
    (RESULTS_DIR / f"surface_distance{suffix}.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
