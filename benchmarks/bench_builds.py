"""Time ``roc_auc_score`` in several builds of turbometrics, alternated.

Each build is a directory holding an installed ``turbometrics`` package (for
example made by ``pip install --no-deps --target DIR .`` at a commit). Every
round runs one fresh process per build, in turn, so that a drift in the
machine's speed falls on all builds alike; each process times the metric at
1 and 2 threads (median and minimum of ``--repeats`` calls) on the same
synthetic data (a logistic model, seed 0) and prints the value's bits, which
must agree between builds.

Usage::

    python benchmarks/bench_builds.py BUILD_DIR [BUILD_DIR ...] [--n 1e7] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

_ONE_BUILD = """
import sys, time, numpy as np
build, n, repeats = sys.argv[1], int(float(sys.argv[2])), int(sys.argv[3])
sys.path.insert(0, build)
import turbometrics as tm
assert tm.__file__.startswith(build), tm.__file__
rng = np.random.default_rng(0)
logit = rng.normal(-1.2, 1.5, size=n)
y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
s = 1 / (1 + np.exp(-(logit + rng.normal(0, 1, size=n))))
for threads in (1, 2):
    value = tm.roc_auc_score(y, s, n_threads=threads)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        tm.roc_auc_score(y, s, n_threads=threads)
        times.append(time.perf_counter() - start)
    print(threads, value.hex(), *times)
"""


def time_build(build: str, n: float, repeats: int) -> dict[int, tuple[str, list[float]]]:
    """Run one fresh process for ``build``; per thread count, the value's hex and the call times."""
    completed = subprocess.run(
        [sys.executable, "-c", _ONE_BUILD, build, str(n), str(repeats)],
        check=True,
        capture_output=True,
        text=True,
    )
    results = {}
    for line in completed.stdout.split("\n"):
        if line.strip():
            threads, value, *times = line.split()
            results[int(threads)] = (value, [float(t) for t in times])
    return results


def main() -> None:
    """Parse arguments, alternate the builds and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", help="directories holding an installed turbometrics")
    parser.add_argument("--n", type=float, default=1e7, help="samples (default 1e7)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over all builds (default 3)")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per thread count (default 5)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    rows: dict[tuple[str, int], list[str]] = {}
    values = set()
    for _ in range(args.rounds):
        for build in args.builds:
            for threads, (value, times) in time_build(build, args.n, args.repeats).items():
                values.add(value)
                rows.setdefault((build, threads), []).append(f"{statistics.median(times):.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}; values agree: {len(values) == 1}")
    print(f"\n`roc_auc_score`, n = {args.n:.0e}, median of {args.repeats} calls per round, seconds\n")
    print("| build | threads | rounds |\n|---|---|---|")
    for (build, threads), medians in sorted(rows.items(), key=lambda item: (item[0][1], args.builds.index(item[0][0]))):
        print(f"| {build} | {threads} | {' / '.join(medians)} |")
    sys.exit(0 if len(values) == 1 else 1)


if __name__ == "__main__":
    main()
