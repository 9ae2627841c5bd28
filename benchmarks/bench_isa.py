"""Times the kernels that have x86 SIMD paths (AVX2/AVX-512 copies or
intrinsics, see cpp/include/turbometrics/isa.hpp) on ~1e7 values, one
thread, in whichever turbometrics is importable, and prints one JSON object:
the build's dispatch facts and the median seconds per case. Run it against
a normal build and a TURBOMETRICS_FORCE_GENERIC build (the portable loops,
which is what an aarch64 build runs) and divide: the ratio says how much
the x86 paths buy, i.e. where hand-written NEON paths might pay. See
docs/dev/aarch64.md ("NEON") for the commands and the last measurement.

    python benchmarks/bench_isa.py [--repeats 7] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import turbometrics as tm
from turbometrics import _core


def median_seconds(fn, repeats: int) -> float:
    fn()  # warm-up (page faults, first-call set-up)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def cases(scale: float):
    rng = np.random.default_rng(0)
    n = int(1e7 * scale)
    k = 5
    rows = n // k
    t = 1

    y_true = rng.integers(0, 10, n).astype(np.int64)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 10, n)).astype(np.int64)
    weight = rng.random(n)
    y_float = y_true.astype(np.float64)
    scores = rng.random(n)
    y_bin = (rng.random(n) < scores).astype(np.int64)
    logits = rng.normal(size=(rows, k))
    proba = np.exp(logits)
    proba /= proba.sum(axis=1, keepdims=True)
    y_multi = rng.integers(0, k, rows).astype(np.int64)
    models = 10
    ens = rng.random((models, n // models))  # P[model, sample], binary probabilities
    data = rng.normal(size=(10_000, 1))
    points = rng.normal(size=(1_000, 1))

    yield "label_scan (labels.scan, float64)", lambda: _core.labels.scan(y_float, 64, t)
    labels = list(range(10))
    stab = tm.stability
    yield "confusion (confusion_matrix)", lambda: tm.confusion_matrix(y_true, y_pred, labels=labels, n_threads=t)
    yield (
        "confusion (weighted)",
        lambda: tm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weight, n_threads=t),
    )
    yield "bin_table (calibration_error, binary)", lambda: tm.calibration_error(y_bin, scores, n_threads=t)
    yield "bin_table (calibration_error, top-label 2e6x5)", lambda: tm.calibration_error(y_multi, proba, n_threads=t)
    yield (
        "proper_scores (probability_facts 2e6x5)",
        lambda: _core.calibration.probability_facts(proba, True, 1e-5, 1e-8, t),
    )
    yield "proper_scores (log_loss 2e6x5)", lambda: tm.log_loss(y_multi, proba, n_threads=t)
    yield "kernel_sum (kde gaussian 1e4 x 1e3)", lambda: tm.kde(data, points, bandwidth=0.3, n_threads=t)
    yield (
        "kernel_sum (kde epanechnikov 1e4 x 1e3)",
        lambda: tm.kde(data, points, bandwidth=0.3, kernel="epanechnikov", n_threads=t),
    )
    yield "ensemble (stability.std 10 x 1e6)", lambda: stab.std(ens, per_sample=True, n_threads=t)
    yield "log (aleatoric_uncertainty 10 x 1e6)", lambda: stab.aleatoric_uncertainty(ens, per_sample=True, n_threads=t)
    yield "log (epistemic mutual_info 10 x 1e6)", lambda: stab.epistemic_uncertainty(ens, per_sample=True, n_threads=t)
    yield "quartiles (stability.iqr 10 x 1e6)", lambda: stab.iqr(ens, per_sample=True, n_threads=t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    report = {"core": _core.__file__, "dispatch": _core.threads.cpu_dispatch(), "seconds": {}}
    for name, fn in cases(args.scale):
        report["seconds"][name] = median_seconds(fn, args.repeats)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
