#!/usr/bin/env python3
"""Benchmark the streaming classification and calibration states.

1. Update throughput at ``--n`` rows (default 10**7), in one process on the
   same arrays: ``ConfusionState.from_arrays`` vs the in-memory metric it
   replaces (``confusion_matrix``), and ``CalibrationState.from_arrays``
   (exact per-bin sums) vs ``calibration_error``; also the state fed in
   ``--batches`` batches. Median wall time of ``--repeat`` alternating runs
   and the ratio.
2. With ``--parquet-rows R`` (e.g. 5e7): writes an R-row Parquet file to
   ``--parquet-path`` (row groups of 10**6 rows) unless it exists, then, in
   fresh subprocesses, measures the peak RSS of ``evaluate_parquet`` on it
   and of loading the same columns whole and calling the in-memory
   functions (needs pyarrow).

Example::

    python benchmarks/bench_states_classification.py --n 10000000 --threads 2
    python benchmarks/bench_states_classification.py --n 0 --parquet-rows 50000000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import turbometrics as tm
from timing import timed_pair

METRICS = ["accuracy", "f1", "matthews_corrcoef", "ece", "mce"]


def _row(name: str, state: dict, memory: dict) -> str:
    return f"| {name} | {state['wall'] * 1e3:.1f} | {memory['wall'] * 1e3:.1f} | {memory['wall'] / state['wall']:.2f} |"


def throughput(n: int, batches: int, repeat: int, threads: int) -> None:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 10, n)
    y_pred = np.where(rng.random(n) < 0.8, y_true, rng.integers(0, 10, n))
    weight = rng.random(n)
    prob = rng.random(n)
    label = (rng.random(n) < prob).astype(np.int64)
    probs = rng.dirichlet(np.ones(10), n // 4)
    classes = rng.integers(0, 10, n // 4)
    size = -(-n // batches)

    def batched(make, *arrays, **kw):
        def run():
            state = make(**kw)
            for start in range(0, n, size):
                state.update(*(a[start : start + size] for a in arrays), n_threads=threads)
            return state

        return run

    cases = [
        (
            "ConfusionState 10 classes vs confusion_matrix",
            lambda: tm.ConfusionState.from_arrays(y_true, y_pred, n_threads=threads),
            lambda: tm.confusion_matrix(y_true, y_pred, n_threads=threads),
        ),
        (
            f"ConfusionState in {batches} batches vs confusion_matrix",
            batched(tm.ConfusionState, y_true, y_pred),
            lambda: tm.confusion_matrix(y_true, y_pred, n_threads=threads),
        ),
        (
            "ConfusionState weighted vs confusion_matrix weighted",
            lambda: tm.ConfusionState.from_arrays(y_true, y_pred, sample_weight=weight, n_threads=threads),
            lambda: tm.confusion_matrix(y_true, y_pred, sample_weight=weight, n_threads=threads),
        ),
        (
            "CalibrationState binary vs calibration_error",
            lambda: tm.CalibrationState.from_arrays(label, prob, n_threads=threads),
            lambda: tm.calibration_error(label, prob, n_threads=threads),
        ),
        (
            f"CalibrationState binary in {batches} batches vs calibration_error",
            batched(tm.CalibrationState, label, prob),
            lambda: tm.calibration_error(label, prob, n_threads=threads),
        ),
        (
            "CalibrationState binary weighted vs calibration_error weighted",
            lambda: tm.CalibrationState.from_arrays(label, prob, sample_weight=weight, n_threads=threads),
            lambda: tm.calibration_error(label, prob, sample_weight=weight, n_threads=threads),
        ),
        (
            "CalibrationState top-label (n/4 x 10) vs calibration_error",
            lambda: tm.CalibrationState.from_arrays(classes, probs, n_threads=threads),
            lambda: tm.calibration_error(classes, probs, n_threads=threads),
        ),
    ]
    print(f"n = {n:.0e}, threads = {threads}, load average before: {os.getloadavg()}")
    print("| case | state ms | in-memory ms | in-memory / state |")
    print("|---|---|---|---|")
    for name, state_call, memory_call in cases:
        state, memory = timed_pair(state_call, memory_call, repeat)
        print(_row(name, state, memory), flush=True)
    print(f"load average after: {os.getloadavg()}")


_PROBE = r"""
import json, resource, sys, time
import numpy as np
import turbometrics as tm
path, mode, metrics = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if mode == "stream":
    result = tm.evaluate_parquet(path, label="label", score="score", metrics=metrics)
else:
    import pyarrow.parquet as pq
    table = pq.read_table(path, columns=["label", "score"])
    label, score = table.column("label").to_numpy(), table.column("score").to_numpy()
    result = {"accuracy": tm.accuracy_score(label, (score >= 0.5).astype(np.int8)),
              "f1": tm.f1_score(label, (score >= 0.5).astype(np.int8)),
              "matthews_corrcoef": tm.matthews_corrcoef(label, (score >= 0.5).astype(np.int8)),
              "ece": tm.calibration_error(label, score), "mce": tm.calibration_error(label, score, norm="max")}
    result = {k: result[k] for k in metrics}
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before_mib": before / 1024, "peak_mib": peak / 1024, "seconds": time.perf_counter() - start,
                  "result": result}))
"""


def parquet_memory(rows: int, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not path.exists():
        writer = None
        rng = np.random.default_rng(5)
        for start in range(0, rows, 10**6):
            count = min(10**6, rows - start)
            score = rng.random(count)
            label = (rng.random(count) < score).astype(np.int8)
            table = pa.table({"label": label, "score": score})
            writer = writer or pq.ParquetWriter(path, table.schema)
            writer.write_table(table, row_group_size=10**6)
        writer.close()
    print(
        f"file {path}: {rows:.0e} rows, {path.stat().st_size / 2**20:.0f} MiB, "
        f"{pq.ParquetFile(path).metadata.num_row_groups} row groups"
    )
    outputs = {}
    for mode in ("stream", "whole"):
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, str(path), mode, ",".join(METRICS)],
            check=True,
            capture_output=True,
            text=True,
        )
        outputs[mode] = json.loads(done.stdout)
        print(
            f"{mode}: peak RSS {outputs[mode]['peak_mib']:.0f} MiB (after imports "
            f"{outputs[mode]['before_mib']:.0f} MiB), {outputs[mode]['seconds']:.1f} s; {outputs[mode]['result']}",
            flush=True,
        )
    for name in METRICS:
        a, b = outputs["stream"]["result"][name], outputs["whole"]["result"][name]
        print(f"{name}: " + ("identical" if a == b else f"relative difference {abs(a - b) / abs(b):.1e}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7)
    parser.add_argument("--batches", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--parquet-rows", type=float, default=0)
    parser.add_argument("--parquet-path", type=Path, default=Path("/tmp/turbometrics-bench-states.parquet"))
    args = parser.parse_args()
    threads = args.threads or tm.get_num_threads()
    if args.n:
        throughput(int(args.n), args.batches, args.repeat, threads)
    if args.parquet_rows:
        parquet_memory(int(args.parquet_rows), args.parquet_path)


if __name__ == "__main__":
    main()
