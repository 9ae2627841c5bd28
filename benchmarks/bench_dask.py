#!/usr/bin/env python3
"""Benchmark turbometrics.dask on a local two-process cluster against the
in-memory turbometrics functions.

The data (``--rows`` rows, default 1e8, in ``--blocks`` blocks) is generated
lazily block by block on the workers (timed once end to end for
roc_auc_score, then persisted there so that the metrics are timed on data
in the workers' memory, as the in-memory side has it in memory): probabilities ``p ~ U(0, 1)``, labels
``y ~ Bernoulli(p)`` (int8), predictions ``p > 0.5`` (int8). The same blocks
are generated in this process for the in-memory run (``n_threads`` = the
cluster's total worker threads), so both compute the same values, which
are compared ("exact", or the largest relative difference where sums are
rounded differently: calibration_error's in-memory bins are float sums, the
states' exact sums).

Prints, per metric, the median wall time of each side over ``--repeats``
runs, the ratio dask / in-memory, and the load average before and after.
Run ``python benchmarks/bench_dask.py --help`` for options.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


METRIC_NAMES = (
    "roc_auc_score",
    "roc_auc_score (partitions=1)",
    "average_precision_score",
    "confusion_matrix",
    "f1_score",
    "calibration_error",
)


DECIMALS = None  # set by --decimals: probabilities rounded (fewer distinct scores)


def block(seed: int, index: int, rows: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng([seed, index])
    p = rng.random(rows)
    if DECIMALS is not None:
        p = np.round(p, DECIMALS)
    y = (rng.random(rows) < p).astype(np.int8)
    return {"y": y, "p": p, "pred": (p > 0.5).astype(np.int8)}


def lazy_columns(seed: int, sizes: list[int]) -> dict[str, Any]:
    import dask.array as da

    def column(name: str, dtype: Any) -> Any:
        def make(block_info: Any = None) -> np.ndarray:
            index = block_info[None]["chunk-location"][0]
            return block(seed, index, sizes[index])[name]

        return da.map_blocks(make, chunks=(tuple(sizes),), dtype=dtype, meta=np.empty(0, dtype))

    return {"y": column("y", np.int8), "p": column("p", np.float64), "pred": column("pred", np.int8)}


def in_memory_columns(seed: int, sizes: list[int]) -> dict[str, np.ndarray]:
    blocks = [block(seed, i, n) for i, n in enumerate(sizes)]
    return {name: np.concatenate([b[name] for b in blocks]) for name in ("y", "p", "pred")}


def median_time(function: Callable[[], Any], repeats: int) -> tuple:
    times, result = [], None
    for _ in range(repeats):
        result = None
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-in-memory", action="store_true", help="only time the cluster")
    parser.add_argument("--decimals", type=int, default=None, help="round the probabilities (default: ~all distinct)")
    parser.add_argument("--metrics", default=None, help="comma-separated subset of: " + ", ".join(METRIC_NAMES))
    args = parser.parse_args()

    import cloudpickle
    import dask
    import distributed

    import turbometrics as tm
    import turbometrics.dask as tmd

    global DECIMALS
    DECIMALS = args.decimals
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    rows = int(args.rows)
    sizes = [rows // args.blocks + (i < rows % args.blocks) for i in range(args.blocks)]
    print(
        f"rows={rows:.3g} blocks={args.blocks} workers={args.workers} (1 thread each) repeats={args.repeats} "
        f"decimals={args.decimals} cpus={os.cpu_count()} load average before: {os.getloadavg()}"
    )
    metrics = {
        "roc_auc_score": (
            lambda c: tmd.roc_auc_score(c["y"], c["p"]),
            lambda c, t: tm.roc_auc_score(c["y"], c["p"], n_threads=t),
        ),
        "roc_auc_score (partitions=1)": (lambda c: tmd.roc_auc_score(c["y"], c["p"], partitions=1), None),
        "average_precision_score": (
            lambda c: tmd.average_precision_score(c["y"], c["p"]),
            lambda c, t: tm.average_precision_score(c["y"], c["p"], n_threads=t),
        ),
        "confusion_matrix": (
            lambda c: tmd.confusion_matrix(c["y"], c["pred"]),
            lambda c, t: tm.confusion_matrix(c["y"], c["pred"], n_threads=t),
        ),
        "f1_score": (
            lambda c: tmd.f1_score(c["y"], c["pred"]),
            lambda c, t: tm.f1_score(c["y"], c["pred"], n_threads=t),
        ),
        "calibration_error": (
            lambda c: tmd.calibration_error(c["y"], c["p"]),
            lambda c, t: tm.calibration_error(c["y"], c["p"], n_threads=t),
        ),
    }
    if args.metrics:
        metrics = {name: metrics[name] for name in args.metrics.split(",")}
    results: dict[str, dict[str, Any]] = {name: {} for name in metrics}
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        lazy = lazy_columns(args.seed, sizes)
        if "roc_auc_score" in metrics:
            wall = median_time(lambda: tmd.roc_auc_score(lazy["y"], lazy["p"]), args.repeats)[0]
            print(f"  dask      roc_auc_score, generating the data in the same graph: {wall:8.2f} s", flush=True)
        start = time.perf_counter()
        lazy = dict(zip(lazy, dask.persist(*lazy.values())))
        distributed.wait(list(lazy.values()))
        print(f"  dask      generating and persisting the data on the workers: {time.perf_counter() - start:.2f} s")
        for name, (on_cluster, _) in metrics.items():
            results[name]["dask"] = median_time(lambda: on_cluster(lazy), args.repeats)
            print(f"  dask      {name:30s} {results[name]['dask'][0]:8.2f} s", flush=True)
    if not args.skip_in_memory:
        columns = in_memory_columns(args.seed, sizes)
        for name, (_, in_memory) in metrics.items():
            if in_memory is not None:
                results[name]["memory"] = median_time(lambda: in_memory(columns, args.workers), args.repeats)
                print(f"  in-memory {name:30s} {results[name]['memory'][0]:8.2f} s", flush=True)
    print(f"load average after: {os.getloadavg()}")
    print()
    print("| metric | dask, 2 workers x 1 thread (s) | in memory, 2 threads (s) | dask / in-memory | same result |")
    print("|---|---|---|---|---|")
    for name, timing in results.items():
        dask_time, dask_value = timing["dask"]
        if "memory" in timing:
            memory_time, memory_value = timing["memory"]
            got, want = np.asarray(dask_value), np.asarray(memory_value)
            if np.array_equal(got, want):
                same = "exact"
            else:  # the largest relative difference
                difference = np.max(np.abs(got.astype(float) - want) / np.maximum(np.abs(want), np.finfo(float).tiny))
                same = f"relative difference {difference:.1e}"
            print(f"| {name} | {dask_time:.2f} | {memory_time:.2f} | {dask_time / memory_time:.2f} | {same} |")
        else:
            print(f"| {name} | {dask_time:.2f} | | | |")


if __name__ == "__main__":
    main()
