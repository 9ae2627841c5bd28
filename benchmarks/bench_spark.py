#!/usr/bin/env python3
"""Benchmark turbometrics.spark.evaluate against Spark MLlib's
BinaryClassificationEvaluator on a local Spark session.

The data (``--rows`` rows, default 1e7): probabilities ``p ~ U(0, 1)``
(rounded to ``--decimals`` when given, for ties), labels ``y ~
Bernoulli(p)``, written with pyarrow as ``--files`` Parquet files, read by
Spark and cached in its memory (so that neither side is timed reading
files). After one untimed call of each (Python workers start, the JVM
warms up), alternately, ``--repeats`` times each:

* ``turbometrics.spark.evaluate(df, ["roc_auc", "average_precision"],
  label="y", score="p")``: one Spark job (an Evaluator per partition,
  merged on the driver); exact.
* MLlib: ``BinaryClassificationEvaluator(metricName=...)`` for
  ``areaUnderROC`` then ``areaUnderPR`` (two jobs, as the DataFrame API
  computes one metric per call), with ``--num-bins`` (MLlib's default
  1000). MLlib sorts the distinct scores, and with more of them than
  ``numBins`` groups consecutive ones into about ``numBins`` bins, so its
  curves have at most about ``numBins`` points; ``areaUnderROC`` is the
  trapezoidal area under that ROC curve, and ``areaUnderPR`` the
  trapezoidal area under the precision-recall curve (with a first point
  at recall 0 that repeats the first precision), which is not average
  precision (a step sum) even without binning.

Prints the median wall time of each side, the ratio, and each side's
absolute error against scikit-learn's values on the same arrays (the
exact ones). Run ``python benchmarks/bench_spark.py --help`` for options.
Needs pyspark and a Java 17+ runtime.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import timed_pair


def data(rows: int, seed: int, decimals: int | None) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = rng.random(rows)
    if decimals is not None:
        p = np.round(p, decimals)
    return {"y": (rng.random(rows) < p).astype(np.int8), "p": p}


def write_parquet(columns: dict[str, np.ndarray], directory: Path, files: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    for index, part in enumerate(np.array_split(np.arange(len(columns["y"])), files)):
        table = pa.table({name: values[part[0] : part[-1] + 1] for name, values in columns.items()})
        pq.write_table(table, directory / f"part-{index:03d}.parquet")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--files", type=int, default=8, help="Parquet files (Spark partitions on reading)")
    parser.add_argument("--cores", type=int, default=2, help="local[N]")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--decimals", type=int, default=None, help="round the probabilities (default: ~all distinct)")
    parser.add_argument("--num-bins", type=int, default=1000, help="MLlib's numBins (its default: 1000)")
    parser.add_argument("--driver-memory", default="4g")
    args = parser.parse_args()

    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession
    from sklearn.metrics import average_precision_score, roc_auc_score

    import turbometrics.spark as tms

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    rows = int(args.rows)
    columns = data(rows, args.seed, args.decimals)
    exact = {"roc_auc": roc_auc_score(columns["y"], columns["p"])}
    exact["average_precision"] = average_precision_score(columns["y"], columns["p"])
    spark = (
        SparkSession.builder.master(f"local[{args.cores}]")
        .appName("bench_spark")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", args.driver_memory)
        .config("spark.sql.shuffle.partitions", str(args.cores))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    print(
        f"rows={rows:.3g} files={args.files} local[{args.cores}] repeats={args.repeats} decimals={args.decimals} "
        f"numBins={args.num_bins} spark={spark.version} cpus={os.cpu_count()} "
        f"load average before: {os.getloadavg()}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as directory:
        write_parquet(columns, Path(directory), args.files)
        df = spark.read.parquet(directory).cache()
        start = time.perf_counter()
        df.count()
        print(f"reading and caching the Parquet files: {time.perf_counter() - start:.2f} s", flush=True)

        def turbometrics_spark() -> dict[str, float]:
            return tms.evaluate(df, ["roc_auc", "average_precision"], label="y", score="p")["overall"]

        mllib = {
            name: BinaryClassificationEvaluator(
                rawPredictionCol="p", labelCol="y", metricName=metric, numBins=args.num_bins
            )
            for name, metric in (("roc_auc", "areaUnderROC"), ("average_precision", "areaUnderPR"))
        }

        def spark_mllib() -> dict[str, float]:
            return {name: evaluator.evaluate(df) for name, evaluator in mllib.items()}

        for name, function in (("turbometrics.spark", turbometrics_spark), ("MLlib", spark_mllib)):
            start = time.perf_counter()
            function()  # starts the Python workers / warms the JVM; not counted
            print(f"first call, not counted: {name} {time.perf_counter() - start:.2f} s", flush=True)
        ours, theirs = timed_pair(turbometrics_spark, spark_mllib, args.repeats)
        df.unpersist()
    spark.stop()
    print(f"load average after: {os.getloadavg()}")
    print()
    print("| | time (s) | ROC AUC | abs. error | AP / areaUnderPR | abs. error |")
    print("|---|---|---|---|---|---|")
    print(f"| scikit-learn (exact) | | {exact['roc_auc']:.10f} | | {exact['average_precision']:.10f} | |")
    for name, side in (("turbometrics.spark.evaluate", ours), (f"MLlib, numBins={args.num_bins}", theirs)):
        values = side["result"]
        errors = {metric: abs(values[metric] - exact[metric]) for metric in exact}
        print(
            f"| {name} | {side['wall']:.2f} | {values['roc_auc']:.10f} | {errors['roc_auc']:.1e} | "
            f"{values['average_precision']:.10f} | {errors['average_precision']:.1e} |"
        )
    print(f"\nMLlib / turbometrics.spark (median wall time): {theirs['wall'] / ours['wall']:.2f}")


if __name__ == "__main__":
    main()
