#!/usr/bin/env python3
"""The exact on-device ranking program (``turbometrics.torch.functional``)
on a GPU: bits checked against the CPU, then timed. One run, under 10
minutes on a CUDA card.

1. **Steps**: each step of the program (NumPy's pairwise sum, the sorted
   cumulative counts, the ROC and precision-recall points, rates, precision
   and recall, the area and the average precision) on the device against
   the same step on the CPU, whose results the test suite checks against
   scikit-learn bit for bit.
2. **Fuzz**: the four functions end to end on the device against
   turbometrics' CPU kernel (scikit-learn's bits), from n = 1 to ``--max-n``
   (1e8 by default): float32, float64 and integer scores with and without
   ties, bool and integer labels, integer weights; curves up to n = 1e7.
3. **Time**: ``roc_auc_score`` and ``average_precision_score`` of float32
   scores and bool labels on the device against the CPU kernel at
   ``--cpu-threads`` (16) threads and torchmetrics' ``binary_auroc`` /
   ``binary_average_precision`` on the same device, at 1e7, 1e8 and the
   largest n that fits in 80 GB (from the program's measured peak memory
   per sample); medians of ``--repeats`` runs, the implementations alternating.

Without CUDA, ``--device cpu --quick`` runs the same checks on the CPU at
small n (the test suite's smoke test). The exit code is 1 if any bit
differs. ``--json FILE`` writes the report.

Usage: ``python benchmarks/gpu_check.py [--device cuda] [--quick]
[--max-n 1e8] [--repeats 5] [--cpu-threads 16] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

import turbometrics as tm
from turbometrics.torch import _program, _program_inputs, functional
from turbometrics.torch._program_sum import pairwise_sum

NAMES = ("roc_auc_score", "average_precision_score", "roc_curve", "precision_recall_curve")


def as_bits(value: Any) -> tuple[str, tuple, bytes]:
    """dtype, shape and bytes of a tensor, array or float."""
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    array = np.asarray(value)
    return str(array.dtype), array.shape, np.ascontiguousarray(array).tobytes()


def same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return as_bits(a) == as_bits(b)


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def sample(rng: np.random.Generator, n: int, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Labels, scores and weights of one fuzz case."""
    labels = rng.random(n) < rng.uniform(0.05, 0.95)
    if n >= 2:
        labels[:2] = [True, False]
    scores = rng.standard_normal(n)
    if "ties" in kind:
        scores = np.round(scores, int(rng.integers(0, 3)))
        scores[rng.random(n) < 0.1] = -0.0
    if "int" in kind:
        scores = np.floor(scores * 100).astype(np.int32)
    elif "float32" in kind:
        scores = scores.astype(np.float32)
    if "int_labels" in kind:
        labels = labels.astype(np.int64)
    weights = None
    if "weights" in kind:
        weights = rng.integers(0, 4, n)
        weights[:2] = 1  # weight in both classes
    return labels, scores, weights


def to_device(arrays: tuple, device: torch.device) -> tuple:
    return tuple(None if a is None else torch.from_numpy(np.ascontiguousarray(a)).to(device) for a in arrays)


def check_steps(device: torch.device, sizes: list[int], rng: np.random.Generator) -> list[str]:
    """Each step on ``device`` against the CPU; the failures."""
    failures = []
    cpu = torch.device("cpu")
    for n in sizes:
        values = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
        values[rng.random(n) < 0.3] *= -1
        if not same(pairwise_sum(torch.from_numpy(values)), pairwise_sum(torch.from_numpy(values).to(device))):
            failures.append(f"pairwise_sum n={n}")
        if n < 2:
            continue
        for kind in ("float64", "float32 ties", "int weights"):
            arrays = sample(rng, n, kind)
            steps: dict[str, list[Any]] = {}
            for where in (cpu, device):
                labels, scores, weights = to_device(arrays, where)
                data = _program_inputs.device_input(labels, scores, weights, None, "consistent")
                assert data is not None
                counts = _program.ranked_counts(*data)
                roc = _program.roc_points(counts, True)
                pr = _program.precision_recall_points(counts, True)
                results = {
                    "ranked_counts": counts,
                    "roc_points": roc,
                    "rates": _program.rates(roc),
                    "roc_thresholds": _program.roc_thresholds(data.scores, roc),
                    "area_under_curve": _program.area_under_curve(*_program.rates(roc)),
                    "precision_recall_points": pr,
                    "precision_recall": _program.precision_recall(counts),
                    "with_final_point": _program.with_final_point(*_program.precision_recall(pr)),
                    "average_precision": _program.average_precision(counts),
                }
                for step, value in results.items():
                    steps.setdefault(step, []).append(tuple(value) if isinstance(value, tuple) else value)
            failures += [f"{step} n={n} {kind}" for step, (a, b) in steps.items() if not same(a, b)]
    return failures


def with_warnings(function: Callable[..., Any], *args: Any) -> tuple[Any, list[str]]:
    """``function(y_true, y_score, sample_weight=...)`` and its warnings' messages."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(args[0], args[1], sample_weight=args[2])
    return result, [str(warning.message) for warning in caught]


def fuzz(device: torch.device, sizes: list[int], rng: np.random.Generator, curves_up_to: int) -> list[str]:
    """The functions on ``device`` against the CPU kernel; the failures."""
    failures = []
    kinds = ["float64", "float32 ties", "int", "float64 ties int_labels weights", "float32 weights"]
    for index, n in enumerate(sizes):
        kind = kinds[index % len(kinds)]
        arrays = sample(rng, n, kind)
        tensors = to_device(arrays, device)
        for name in NAMES if n <= curves_up_to else NAMES[:2]:
            expected, expected_warnings = with_warnings(getattr(tm, name), arrays[0], arrays[1], arrays[2])
            got, got_warnings = with_warnings(getattr(functional, name), tensors[0], tensors[1], tensors[2])
            if isinstance(expected, float):
                expected = np.float64(expected)
            if not same(got, expected) or got_warnings != expected_warnings:
                failures.append(f"{name} n={n} {kind}")
        print(f"  fuzz n={n:>11,} {kind:<32} {'ok' if not failures else 'FAILURES: ' + str(len(failures))}", flush=True)
    return failures


def median_time(function: Callable[[], Any], device: torch.device, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        synchronize(device)
        start = time.perf_counter()
        function()
        synchronize(device)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_bytes_per_sample(device: torch.device, n: int, rng: np.random.Generator) -> float | None:
    """The program's peak device memory beyond its inputs, per sample
    (float32 scores, bool labels); None off CUDA."""
    if device.type != "cuda":
        return None
    labels, scores = to_device((rng.random(n) < 0.3, rng.random(n).astype(np.float32)), device)
    peaks = []
    for name in NAMES:
        synchronize(device)
        torch.cuda.reset_peak_memory_stats(device)
        before = torch.cuda.memory_allocated(device)
        result = getattr(functional, name)(labels, scores)
        synchronize(device)
        peaks.append((torch.cuda.max_memory_allocated(device) - before) / n)
        del result
    return max(peaks)


def time_case(device: torch.device, n: int, repeats: int, cpu_threads: int, rng: np.random.Generator) -> dict:
    """Median seconds of each implementation at ``n`` samples."""
    labels = rng.random(n, dtype=np.float32) < 0.3
    scores = rng.standard_normal(n, dtype=np.float32)
    scores *= np.float32(0.25)
    scores += np.where(labels, np.float32(0.7), np.float32(0.3))
    np.clip(scores, 0, 1, out=scores)
    target, preds = to_device((labels, scores), device)
    row: dict[str, Any] = {"n": n}
    try:
        import torchmetrics.functional.classification as torchmetrics_functional
    except ImportError:
        torchmetrics_functional = None
    pairs = (("roc_auc_score", "binary_auroc"), ("average_precision_score", "binary_average_precision"))
    for name, reference in pairs:
        program = getattr(functional, name)
        host = getattr(tm, name)
        row[f"{name} program"] = median_time(lambda: program(target, preds), device, repeats)
        row[f"{name} cpu kernel"] = median_time(lambda: host(labels, scores, n_threads=cpu_threads), device, repeats)
        if torchmetrics_functional is not None:
            other = getattr(torchmetrics_functional, reference)
            try:
                row[f"{name} torchmetrics"] = median_time(lambda: other(preds, target), device, repeats)
            except torch.OutOfMemoryError:
                row[f"{name} torchmetrics"] = "out of memory"
            if device.type == "cuda":
                torch.cuda.empty_cache()
        exact = same(program(target, preds), np.float64(host(labels, scores)))
        row[f"{name} bits equal"] = exact
    return row


def sizes_up_to(max_n: int) -> list[int]:
    """1 to 40, then about four sizes per decade up to ``max_n`` (odd ones
    included, so that every pairwise-sum shape appears)."""
    sizes = list(range(1, 41))
    exponent = math.log10(41)
    while 10**exponent < max_n:
        exponent += 0.25
        sizes.append(min(int(10**exponent) + len(sizes) % 7, max_n))
    return sorted(set(sizes))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--quick", action="store_true", help="small n only (a smoke test)")
    parser.add_argument("--max-n", type=float, default=None, help="largest fuzz size (default 1e8; --quick: 1e5)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cpu-threads", type=int, default=16)
    parser.add_argument("--json", default=None, help="write the report to this file")
    args = parser.parse_args()
    device = torch.device(args.device)
    rng = np.random.default_rng(20261129)
    max_n = int(args.max_n or (1e5 if args.quick else 1e8))
    report: dict[str, Any] = {
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "cpu",
        "torch": torch.__version__,
        "turbometrics": tm.__version__,
        "quick": args.quick,
    }
    start = time.perf_counter()
    print(f"device: {report['device']}, torch {torch.__version__}", flush=True)

    step_sizes = [0, 1, 2, 7, 8, 9, 127, 128, 129, 1000, 4097] + ([] if args.quick else [10**5 + 3, 10**6 + 7, 10**7])
    failures = check_steps(device, step_sizes, rng)
    print(f"steps: {len(step_sizes)} sizes, {failures or 'ok'}", flush=True)
    failures += fuzz(device, sizes_up_to(max_n), rng, curves_up_to=min(max_n, 10**7))

    per_sample = peak_bytes_per_sample(device, min(max_n, 10**7), rng)
    report["peak bytes per sample"] = per_sample
    timing_sizes = [min(max_n, 10**5)] if args.quick else [10**7, 10**8]
    if per_sample is not None and not args.quick:
        free, _ = torch.cuda.mem_get_info(device)
        # In 80 GB (the docs' figure) or what the card has free; + the inputs: float32 scores, bool labels.
        largest = int(0.95 * min(free, 80e9) / (per_sample + 5))
        report["largest n that fits"] = largest
        timing_sizes.append(largest)
    rows = []
    for n in timing_sizes:
        rows.append(time_case(device, n, 2 if n > 10**8 else args.repeats, args.cpu_threads, rng))
        print("  " + ", ".join(f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}" for k, v in rows[-1].items()))
        failures += [f"timed {k} n={n}" for k, v in rows[-1].items() if k.endswith("bits equal") and not v]
    report["timings (s, median)"] = rows
    report["failures"] = failures
    report["seconds"] = time.perf_counter() - start
    print(f"peak device memory per sample: {per_sample}")
    print(f"{'FAILED: ' + ', '.join(failures) if failures else 'all bits equal'} ({report['seconds']:.0f} s)")
    if args.json:
        with open(args.json, "w") as file:
            json.dump(report, file, indent=1, default=str)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
