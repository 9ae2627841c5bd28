#!/usr/bin/env python3
"""turbometrics.torch's metric classes against torchmetrics 1.9's, in one
process on the same tensors (CPU).

For each class pair the script feeds ``--n`` samples in batches of
``--batch`` through ``update`` and calls ``compute`` (a fresh metric per
repeat; the two alternate, median of ``--repeats``), and reports the wall
times, the values (turbometrics' is scikit-learn's, torchmetrics' is
float32) and the state's size: ``len(to_bytes())`` for turbometrics, the
bytes of the tensors torchmetrics keeps (every score and target, in its
exact mode). Scores are float32 probabilities below 1 rounded to 1e-4 (10,000
distinct values, as a model's outputs often are) unless ``--distinct``.

torch's threads (``--torch-threads``, default torch's own count) matter
to torchmetrics' per-batch tensor operations on a loaded machine.

Usage: ``python benchmarks/bench_torch_classes.py [--n 2000000]
[--batch 10000] [--repeats 5] [--distinct] [--torch-threads N]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import timed_pair


def _kept_bytes(metric) -> int:
    total = 0
    for name in metric._defaults:
        value = getattr(metric, name)
        for tensor in value if isinstance(value, list) else [value]:
            total += tensor.numel() * tensor.element_size()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--distinct", action="store_true", help="scores not rounded")
    parser.add_argument("--torch-threads", type=int, default=None, help="torch.set_num_threads before timing")
    args = parser.parse_args()
    if args.torch_threads is not None:
        torch.set_num_threads(args.torch_threads)

    import torchmetrics.classification as reference

    import turbometrics.torch as ours

    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, args.n)
    scores = np.clip(rng.normal(0.35 + 0.3 * labels, 0.2), 0, 0.9999).astype(np.float32)  # torchmetrics bins 1.0 apart
    if not args.distinct:
        scores = np.round(scores, 4).astype(np.float32)
    classes = rng.integers(0, 10, args.n)
    probs = rng.dirichlet(np.ones(10), args.n).astype(np.float32)
    if not args.distinct:
        probs = np.round(probs, 4).astype(np.float32)
    binary = [
        (torch.from_numpy(scores[i : i + args.batch]), torch.from_numpy(labels[i : i + args.batch]))
        for i in range(0, args.n, args.batch)
    ]
    multi = [
        (torch.from_numpy(probs[i : i + args.batch]), torch.from_numpy(classes[i : i + args.batch]))
        for i in range(0, args.n, args.batch)
    ]

    cases = [
        ("BinaryAUROC", {}, binary),
        ("BinaryAveragePrecision", {}, binary),
        ("BinaryCalibrationError", {}, binary),
        ("MulticlassAUROC", {"num_classes": 10}, multi),
        ("MulticlassConfusionMatrix", {"num_classes": 10}, multi),
    ]
    print(
        f"n = {args.n:,}, batches of {args.batch:,}, median of {args.repeats}; torch {torch.__version__}, "
        f"threads {torch.get_num_threads()}"
    )
    print(
        "| class | turbometrics s | torchmetrics s | speed-up | value (turbometrics) | torchmetrics - ours "
        "| state bytes (turbometrics) | kept bytes (torchmetrics) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, kwargs, batches in cases:

        def run(cls, kwargs=kwargs, batches=batches):
            metric = cls(**kwargs)
            for preds, target in batches:
                metric.update(preds, target)
            return metric, metric.compute()

        mine, theirs = timed_pair(lambda: run(getattr(ours, name)), lambda: run(getattr(reference, name)), args.repeats)
        ours_metric, ours_value = mine["result"]
        ref_metric, ref_value = theirs["result"]
        difference = float((ref_value.double() - ours_value.double()).abs().max())
        shown = f"{float(ours_value):.17g}" if ours_value.numel() == 1 else f"{tuple(ours_value.shape)} tensor"
        print(
            f"| {name} | {mine['wall']:.3f} | {theirs['wall']:.3f} | {theirs['wall'] / mine['wall']:.1f}x | "
            f"{shown} | {difference:.1e} | {len(ours_metric.to_bytes()):,} | {_kept_bytes(ref_metric):,} |"
        )


if __name__ == "__main__":
    main()
