#!/usr/bin/env python3
"""Benchmark turbometrics' ranking metrics against scikit-learn.

Every implementation runs in this one process on the same arrays:
turbometrics, scikit-learn and, where the ``sklearnex`` package
(scikit-learn-intelex) imports, its accelerated ``roc_auc_score``. For each
(function, n, data kind) the script reports the median wall time of each
implementation, the speedup ``other_median / turbometrics_median``, and
whether the results agree (``np.allclose`` with ``rtol=1e-9``).

It also measures the peak extra memory of ``turbometrics.roc_auc_score``
per sample, in a fresh subprocess so that nothing else has raised the
process's peak resident set size (see :func:`memory_probe`).

Results go to stdout as a markdown table and to
``benchmarks/results/ranking.json`` (``ranking_quick.json`` with
``--quick``). Run ``python benchmarks/bench_ranking.py --help`` for options.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FUNCTIONS = ("roc_auc_score", "roc_curve", "precision_recall_curve", "average_precision_score")
KINDS = ("continuous", "rounded", "weighted")
LABEL_DTYPES = ("int64", "int8", "bool")
RESULTS_DIR = Path(__file__).resolve().parent / "results"
RTOL = 1e-9
ATOL = 1e-12  # only matters for values that should be exactly 0
MEMORY_CHUNK = 1 << 16


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------


@dataclass
class Case:
    """One benchmark input: labels, scores and optional weights."""

    n: int
    kind: str
    y_true: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None = None

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments shared by every implementation."""
        return {} if self.sample_weight is None else {"sample_weight": self.sample_weight}


def make_cases(n: int, kinds: Sequence[str], label_dtype: str, seed: int) -> list[Case]:
    """The benchmark inputs of size ``n``, one per data kind.

    All kinds share the labels; "continuous" and "weighted" share the
    float64 scores of a noisy logistic model, "rounded" rounds them to two
    decimals (101 distinct values), "weighted" adds uniform [0, 1) weights.
    """
    from turbometrics._common.example import synthetic_scores

    y_true, y_score = synthetic_scores(n, seed=seed)
    y_true = y_true.astype(label_dtype)
    cases = []
    for kind in kinds:
        if kind == "continuous":
            cases.append(Case(n, kind, y_true, y_score))
        elif kind == "rounded":
            cases.append(Case(n, kind, y_true, np.round(y_score, 2)))
        elif kind == "weighted":
            weight = np.random.default_rng(seed + 1).random(n)
            cases.append(Case(n, kind, y_true, y_score, weight))
        else:
            raise ValueError(f"unknown data kind {kind!r}")
    return cases


# --------------------------------------------------------------------------
# Implementations
# --------------------------------------------------------------------------


@dataclass
class Implementation:
    """A named set of metric functions; ``supports`` says which cases it runs."""

    name: str
    functions: dict[str, Callable[..., Any]]
    supports: Callable[[str, Case], bool] = lambda function, case: True
    note: str = ""

    def get(self, function: str, case: Case) -> Callable[..., Any] | None:
        """The function to time for this case, or None when it does not apply."""
        if function not in self.functions or not self.supports(function, case):
            return None
        return self.functions[function]


def turbometrics_implementation(n_threads: int | None) -> Implementation:
    """turbometrics' functions, each called with ``n_threads``."""
    import turbometrics

    def bind(name: str) -> Callable[..., Any]:
        metric = getattr(turbometrics, name)
        return lambda *args, **kwargs: metric(*args, n_threads=n_threads, **kwargs)

    return Implementation("turbometrics", {name: bind(name) for name in FUNCTIONS})


def sklearn_implementation() -> Implementation:
    """scikit-learn's functions."""
    import sklearn.metrics

    return Implementation("scikit-learn", {name: getattr(sklearn.metrics, name) for name in FUNCTIONS})


def sklearnex_implementation() -> tuple[Implementation | None, str]:
    """scikit-learn-intelex's ``roc_auc_score``, or None and the reason.

    sklearnex accelerates only ``roc_auc_score`` and only without
    ``sample_weight`` (with weights it calls scikit-learn), so only those
    cases are timed.
    """
    try:
        from sklearnex.metrics import roc_auc_score
    except Exception as exc:  # not installed, or its native library failed
        return None, f"sklearnex not available ({type(exc).__name__}: {exc})"
    return (
        Implementation(
            "sklearnex",
            {"roc_auc_score": roc_auc_score},
            supports=lambda function, case: case.sample_weight is None,
            note="roc_auc_score without sample_weight only",
        ),
        "",
    )


# --------------------------------------------------------------------------
# Timing and checking
# --------------------------------------------------------------------------


@dataclass
class Timing:
    """Wall times of repeated calls and the last call's result."""

    seconds: list[float]
    result: Any = field(repr=False)

    @property
    def median(self) -> float:
        """Median of the wall times."""
        return statistics.median(self.seconds)


def time_calls(metric: Callable[..., Any], case: Case, repeats: int) -> Timing:
    """Call ``metric`` on ``case`` ``repeats`` times and time each call."""
    seconds = []
    result = None
    for _ in range(repeats):
        result = None  # free the previous result before the next call
        start = time.perf_counter()
        result = metric(case.y_true, case.y_score, **case.kwargs())
        seconds.append(time.perf_counter() - start)
    return Timing(seconds, result)


def results_agree(a: Any, b: Any) -> bool:
    """Whether two metric results agree.

    They must have the same structure and shapes, and values within
    ``rtol=1e-9`` (NaN equal to NaN, infinities equal to themselves).
    """
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            return False
        return all(results_agree(x, y) for x, y in zip(a, b))
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    return x.shape == y.shape and bool(np.allclose(x, y, rtol=RTOL, atol=ATOL, equal_nan=True))


def describe_difference(a: Any, b: Any) -> str:
    """A short account of how two results differ, for warning lines."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            return f"tuples of length {len(a)} and {len(b)}"
        parts = [f"[{i}] {describe_difference(x, y)}" for i, (x, y) in enumerate(zip(a, b)) if not results_agree(x, y)]
        return "; ".join(parts)
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        return f"shapes {x.shape} and {y.shape}"
    if x.ndim == 0:
        return f"{x.item()!r} vs {y.item()!r}"
    with np.errstate(invalid="ignore"):
        gap = np.abs(x - y)
    return f"max abs difference {np.nanmax(gap):.3g} over {x.size} values"


# --------------------------------------------------------------------------
# Peak memory, measured in a subprocess
# --------------------------------------------------------------------------


def _chunked_inputs(n: int, label_dtype: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels and float64 scores, made chunk by chunk.

    Making them never needs much more memory than the arrays themselves: a
    large temporary would raise the peak RSS read before the measured call.
    """
    rng = np.random.default_rng(seed)
    y_true = np.empty(n, dtype=label_dtype)
    y_score = np.empty(n, dtype=np.float64)
    for start in range(0, n, MEMORY_CHUNK):
        stop = min(n, start + MEMORY_CHUNK)
        logit = rng.normal(-1.2, 1.5, size=stop - start)
        y_true[start:stop] = rng.random(stop - start) < 1.0 / (1.0 + np.exp(-logit))
        y_score[start:stop] = 1.0 / (1.0 + np.exp(-(logit + rng.normal(0.0, 1.0, size=stop - start))))
    return y_true, y_score


def memory_probe(n: int, label_dtype: str, implementation: str, n_threads: int | None) -> dict[str, Any]:
    """Peak extra memory of one unweighted ``roc_auc_score`` call.

    Meant to run in a fresh process. The metric is first called on a small
    input so one-off start-up costs (thread pools, lazy imports) are not
    counted; then the inputs are made and touched, the peak RSS is read
    (``ru_maxrss``, KiB on Linux), the metric runs once on the inputs, and
    the peak is read again.

    Returns
    -------
    dict
        ``bytes_per_sample`` is ``(peak_after - peak_before) * 1024 / n``.
    """
    import resource

    metric: Callable[[np.ndarray, np.ndarray], Any]
    if implementation == "turbometrics":
        import turbometrics

        metric = functools.partial(turbometrics.roc_auc_score, n_threads=n_threads)
    elif implementation == "scikit-learn":
        from sklearn.metrics import roc_auc_score

        metric = roc_auc_score
    else:
        raise ValueError(f"unknown implementation {implementation!r}")

    metric(*_chunked_inputs(1000, label_dtype, seed=1))
    y_true, y_score = _chunked_inputs(n, label_dtype, seed=0)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    hwm_before = _vm_hwm_kib()
    start = time.perf_counter()
    value = metric(y_true, y_score)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    hwm_after = _vm_hwm_kib()
    return {
        "implementation": implementation,
        "n": n,
        "label_dtype": label_dtype,
        "score_dtype": "float64",
        "peak_rss_before_kib": before,
        "peak_rss_after_kib": after,
        "bytes_per_sample": (after - before) * 1024 / n,
        "vm_hwm_before_kib": hwm_before,
        "vm_hwm_after_kib": hwm_after,
        "input_bytes_per_sample": (y_true.itemsize + y_score.itemsize),
        "roc_auc": float(value),
        "seconds": seconds,
    }


def _vm_hwm_kib() -> int | None:
    """This process's own peak RSS (VmHWM in /proc/self/status, KiB), if known.

    Unlike ``ru_maxrss`` it never includes a peak inherited from the parent,
    so it serves as a cross-check.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


# Runs the probe as a grandchild. On Linux a process's ``ru_maxrss`` starts
# at the peak RSS of the address space it exec'd from -- with vfork, the
# parent's -- so a probe started straight from this (large) process would
# read the benchmark's peak and see no growth. This small launcher is that
# address space instead.
_LAUNCHER = "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"


def run_memory_probe(n: int, label_dtype: str, implementation: str, n_threads: int | None) -> dict[str, Any]:
    """Run :func:`memory_probe` in a fresh Python process and return its report."""
    command = [
        sys.executable,
        "-c",
        _LAUNCHER,
        sys.executable,
        str(Path(__file__).resolve()),
        "--memory-probe",
        implementation,
        "--memory-size",
        str(n),
        "--label-dtype",
        label_dtype,
    ]
    if n_threads is not None:
        command += ["--n-threads", str(n_threads)]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        tail = completed.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"memory probe failed with code {completed.returncode}: {tail[0]}")
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    hwm = report.get("vm_hwm_before_kib")
    if hwm is not None and report["peak_rss_before_kib"] > hwm + 16 * 1024:
        print(
            f"WARNING: memory probe's ru_maxrss ({report['peak_rss_before_kib']} KiB) exceeds its own "
            f"VmHWM ({hwm} KiB) before the call: the peak was inherited and the figure understates",
            flush=True,
        )
    return report


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    """Facts about the machine and library versions, for the JSON report."""
    import sklearn

    import turbometrics

    info: dict[str, Any] = {
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cpu_model": _cpu_model(),
        "turbometrics_num_threads": turbometrics.get_num_threads(),
        "turbometrics_version": getattr(turbometrics, "__version__", "unknown"),
        "numpy_version": np.__version__,
        "sklearn_version": sklearn.__version__,
        "python_version": platform.python_version(),
        "platform": platform.platform(),
    }
    try:
        from importlib.metadata import version

        info["sklearnex_version"] = version("scikit-learn-intelex")
    except Exception:
        info["sklearnex_version"] = None
    return info


def _load_average() -> float | None:
    """The 1-minute load average (other work on the machine skews timings)."""
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def _cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, else platform.processor()."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _size_label(n: int) -> str:
    """1000000 -> '1e6'; other sizes with thousands separators."""
    exponent = len(str(n)) - 1
    return f"1e{exponent}" if n == 10**exponent else f"{n:,}"


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def _ratio(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}×"


def markdown_table(rows: list[dict[str, Any]], with_sklearnex: bool) -> str:
    """The timing results as a markdown table."""
    header = ["function", "n", "data", "turbometrics (s)", "scikit-learn (s)", "speedup"]
    if with_sklearnex:
        header += ["sklearnex (s)", "speedup vs sklearnex"]
    header.append("agree")
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        cells = [
            row["function"],
            _size_label(row["n"]),
            row["kind"],
            _seconds(row["turbometrics"]["median_s"]),
            _seconds(row["scikit-learn"]["median_s"]),
            _ratio(row["speedup_vs_sklearn"]),
        ]
        if with_sklearnex:
            sklearnex = row.get("sklearnex")
            cells += [_seconds(sklearnex and sklearnex["median_s"]), _ratio(row.get("speedup_vs_sklearnex"))]
        cells.append("yes" if row["agree"] else "**NO**")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def memory_table(probes: list[dict[str, Any]]) -> str:
    """The memory probe results as a markdown table."""
    lines = [
        "| roc_auc_score, float64 scores | n | labels | peak extra bytes/sample | input bytes/sample |",
        "|---|---|---|---|---|",
    ]
    for probe in probes:
        lines.append(
            f"| {probe['implementation']} | {_size_label(probe['n'])} | {probe['label_dtype']} | "
            f"{probe['bytes_per_sample']:.2f} | {probe['input_bytes_per_sample']} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def _sizes(text: str) -> list[int]:
    """argparse type: '1e6,1e7' -> [1000000, 10000000]."""
    try:
        sizes = [int(float(part)) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes: {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError("sizes must be at least 2")
    return sizes


def _choices(allowed: Sequence[str]) -> Callable[[str], list[str]]:
    """argparse type: a comma-separated subset of ``allowed``."""

    def parse(text: str) -> list[str]:
        chosen = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [part for part in chosen if part not in allowed]
        if unknown or not chosen:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)}; got {text!r}")
        return chosen

    return parse


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The benchmark's argument parser."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--sizes", type=_sizes, default=_sizes("1e6,1e7"), help="sample counts, e.g. 1e6,1e7")
    parser.add_argument("--kinds", type=_choices(KINDS), default=list(KINDS), help="data kinds, comma-separated")
    parser.add_argument(
        "--functions",
        type=_choices(FUNCTIONS),
        default=list(FUNCTIONS),
        help="metrics to time, comma-separated",
    )
    parser.add_argument("--repeats", type=_positive, default=5, help="timed calls of turbometrics per case")
    parser.add_argument(
        "--sklearn-repeats",
        type=_positive,
        default=None,
        help="timed calls of scikit-learn and sklearnex per case (default: 5 up to n=1e6, 3 above)",
    )
    parser.add_argument("--quick", action="store_true", help="smoke test: n=1e5, 1 repeat, memory probe at 1e5")
    parser.add_argument("--n-threads", type=_positive, default=None, help="n_threads for turbometrics")
    parser.add_argument("--label-dtype", choices=LABEL_DTYPES, default="int64", help="dtype of y_true")
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic data")
    parser.add_argument("--memory-size", type=lambda t: int(float(t)), default=10**7, help="n of the peak-memory probe")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory probe")
    parser.add_argument("--no-sklearnex", action="store_true", help="do not time sklearnex")
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="JSON report (default: benchmarks/results/ranking.json, ranking_quick.json with --quick)",
    )
    parser.add_argument(
        "--memory-probe", choices=("turbometrics", "scikit-learn"), default=None, help=argparse.SUPPRESS
    )  # internal: run one probe and print its JSON
    return parser


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def benchmark_case(
    function: str, case: Case, implementations: list[Implementation], repeats: int, sklearn_repeats: int
) -> dict[str, Any]:
    """Time every implementation on one case and compare each with turbometrics."""
    row: dict[str, Any] = {"function": function, "n": case.n, "kind": case.kind}
    reference = None
    for implementation in implementations:
        metric = implementation.get(function, case)
        if metric is None:
            row[implementation.name] = None
            continue
        count = repeats if implementation.name == "turbometrics" else sklearn_repeats
        timing = time_calls(metric, case, count)
        row[implementation.name] = {"median_s": timing.median, "seconds": timing.seconds}
        if reference is None:
            reference = timing.result
            continue
        agree = results_agree(reference, timing.result)
        row.setdefault("agreement", {})[implementation.name] = agree
        if not agree:
            print(
                f"WARNING: {function} n={case.n} {case.kind}: turbometrics and {implementation.name} "
                f"disagree: {describe_difference(reference, timing.result)}",
                flush=True,
            )
    tm = row["turbometrics"]["median_s"]
    row["speedup_vs_sklearn"] = row["scikit-learn"]["median_s"] / tm if tm > 0 else None
    if row.get("sklearnex"):
        row["speedup_vs_sklearnex"] = row["sklearnex"]["median_s"] / tm if tm > 0 else None
    row["agree"] = all(row.get("agreement", {}).values())  # with every other implementation
    return row


def _sklearn_repeats(args: argparse.Namespace, n: int) -> int:
    """Timed calls of scikit-learn and sklearnex for inputs of size ``n``."""
    if args.quick:
        return 1
    return args.sklearn_repeats or (5 if n <= 10**6 else 3)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark described by parsed arguments."""
    sizes = [10**5] if args.quick else args.sizes
    repeats = 1 if args.quick else args.repeats
    memory_size = 10**5 if args.quick else args.memory_size
    output = args.output or RESULTS_DIR / ("ranking_quick.json" if args.quick else "ranking.json")

    implementations = [turbometrics_implementation(args.n_threads), sklearn_implementation()]
    sklearnex_note = "disabled with --no-sklearnex"
    if not args.no_sklearnex:
        sklearnex, sklearnex_note = sklearnex_implementation()
        if sklearnex is None:
            print(f"note: {sklearnex_note}; skipping it", flush=True)
        else:
            implementations.append(sklearnex)
            sklearnex_note = sklearnex.note
    with_sklearnex = any(impl.name == "sklearnex" for impl in implementations)

    load_at_start = _load_average()
    rows = []
    for n in sizes:
        sklearn_repeats = _sklearn_repeats(args, n)
        _progress(f"making data, n={n:,}")
        for case in make_cases(n, args.kinds, args.label_dtype, args.seed):
            for function in args.functions:
                _progress(f"  {function} n={n:,} {case.kind}")
                rows.append(benchmark_case(function, case, implementations, repeats, sklearn_repeats))

    probes = []
    if not args.no_memory:
        for implementation in ("turbometrics", "scikit-learn"):
            _progress(f"memory probe: {implementation} roc_auc_score n={memory_size:,}")
            try:
                probes.append(run_memory_probe(memory_size, args.label_dtype, implementation, args.n_threads))
            except (RuntimeError, ValueError) as exc:
                print(f"WARNING: {exc}", flush=True)

    machine = machine_info()
    machine["load_average_1min_at_start"] = load_at_start
    machine["load_average_1min_at_end"] = _load_average()
    report: dict[str, Any] = {
        "machine": machine,
        "settings": {
            "sizes": sizes,
            "kinds": args.kinds,
            "functions": args.functions,
            "repeats": repeats,
            "sklearn_repeats": {str(n): _sklearn_repeats(args, n) for n in sizes},
            "quick": args.quick,
            "n_threads": args.n_threads,
            "label_dtype": args.label_dtype,
            "seed": args.seed,
            "rtol": RTOL,
            "atol": ATOL,
            "sklearnex": sklearnex_note,
        },
        "results": rows,
        "memory": probes,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    info = report["machine"]
    print(
        f"\nturbometrics {info['turbometrics_version']} ({info['turbometrics_num_threads']} threads), "
        f"scikit-learn {info['sklearn_version']}, numpy {info['numpy_version']}, "
        f"{info['cpu_count']} CPUs ({info['cpu_model']}); labels {args.label_dtype}; "
        f"median of {repeats} turbometrics runs; load average {load_at_start} at start, "
        f"{info['load_average_1min_at_end']} at end\n"
    )
    print(markdown_table(rows, with_sklearnex))
    if probes:
        print()
        print(memory_table(probes))
    print(f"\nwrote {output}")
    # Disagreeing with scikit-learn is a correctness bug: fail. A differing
    # sklearnex result has only been warned about.
    wrong = [row for row in rows if not row.get("agreement", {}).get("scikit-learn", True)]
    return 1 if wrong else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse arguments and run the benchmark or a memory probe."""
    args = build_parser().parse_args(argv)
    if args.memory_probe:
        report = memory_probe(args.memory_size, args.label_dtype, args.memory_probe, args.n_threads)
        print(json.dumps(report))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
