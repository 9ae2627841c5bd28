#!/usr/bin/env python3
"""Benchmark turbometrics' mergeable ranking states.

On one synthetic binary data set (continuous float64 scores, and the same
scores rounded to 3 decimals) it times, in this one process:

* ``RankingState.from_arrays`` against ``turbometrics.roc_auc_score`` on
  the same arrays (building a state is one table build, as the metric is);
* ``roc_auc`` and ``average_precision`` of the built state;
* ``a.merge(b)`` of two states of half the data each;
* ``BinnedRankingState.from_arrays`` (65536 bits bins);

and reports the state's memory per distinct score. Medians of
``--repeats`` alternating calls; ratios are other / reference.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import turbometrics as tm
from timing import timed, timed_pair


def make_data(n: int, seed: int):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    scores = np.clip(rng.normal(0.4 + 0.2 * y, 0.25), 0.0, 1.0)
    return y, scores, np.round(scores, 3)


def state_bytes(state: tm.RankingState) -> int:
    return state.scores.nbytes + state.positive.nbytes + state.negative.nbytes


def run(args: argparse.Namespace) -> None:
    n = int(args.n)
    y, continuous, rounded = make_data(n, args.seed)
    print(
        f"turbometrics {tm.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs ({platform.processor()}), "
        f"{tm.get_num_threads()} threads; n={n:,}; median of {args.repeats}; load average "
        f"{os.getloadavg()[0]:.2f} at start"
    )
    print()
    print("| data | operation | time (s) | reference | reference (s) | ratio |")
    print("|---|---|---|---|---|---|")
    for name, scores in (("continuous", continuous), ("rounded", rounded)):
        build, metric = timed_pair(
            lambda: tm.RankingState.from_arrays(y, scores), lambda: tm.roc_auc_score(y, scores), args.repeats
        )
        state = build["result"]
        assert state.roc_auc() == metric["result"]
        print(
            f"| {name} | from_arrays | {build['wall']:.3g} | roc_auc_score | {metric['wall']:.3g} | "
            f"{build['wall'] / metric['wall']:.3g} |"
        )
        auc_time, _ = timed(state.roc_auc, args.repeats)
        ap_time, _ = timed(state.average_precision, args.repeats)
        ap_memory, _ = timed(lambda: tm.average_precision_score(y, scores), args.repeats)
        print(
            f"| {name} | state.roc_auc() | {auc_time:.3g} | roc_auc_score | {metric['wall']:.3g} | "
            f"{auc_time / metric['wall']:.3g} |"
        )
        print(
            f"| {name} | state.average_precision() | {ap_time:.3g} | average_precision_score | {ap_memory:.3g} | "
            f"{ap_time / ap_memory:.3g} |"
        )
        half = n // 2
        first = tm.RankingState.from_arrays(y[:half], scores[:half])
        second = tm.RankingState.from_arrays(y[half:], scores[half:])
        merge_time, merged = timed(lambda: first.merge(second), args.repeats)
        assert merged.roc_auc() == state.roc_auc()
        print(
            f"| {name} | merge of two {half:,}-sample states ({len(first):,} + {len(second):,} rows) | "
            f"{merge_time:.3g} | from_arrays (all) | {build['wall']:.3g} | {merge_time / build['wall']:.3g} |"
        )
        binned_time, binned = timed(lambda: tm.BinnedRankingState.from_arrays(y, scores), args.repeats)
        print(
            f"| {name} | BinnedRankingState.from_arrays (2^16 bits bins) | {binned_time:.3g} | from_arrays | "
            f"{build['wall']:.3g} | {binned_time / build['wall']:.3g} |"
        )
        print(
            f"| {name} | state memory: {len(state):,} rows, {state_bytes(state) / len(state):.0f} bytes per "
            f"distinct score ({state_bytes(state) / 2**20:.1f} MiB); binned {2 * binned.positive.nbytes / 2**20:.1f} "
            f"MiB | | | | |"
        )
    print()
    print(f"load average {os.getloadavg()[0]:.2f} at end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e7, help="samples")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per operation")
    parser.add_argument("--seed", type=int, default=0)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
