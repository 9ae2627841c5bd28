"""Exact metrics over Spark DataFrames (``pip install turbometrics[spark]``).

Each partition becomes a mergeable state on the executors (through Arrow:
``mapInArrow``), the states travel to the driver as ``to_bytes()`` (arrays
and JSON, no pickle) and are merged there in a balanced tree. Raw rows never
reach the driver, and results equal the in-memory turbometrics functions
whatever the partitioning (see each function).

pyspark (4.x, with a Java 17+ runtime) is imported only when a function
runs: ``import turbometrics.spark`` works without it. The executors need
turbometrics installed in their Python.

n_threads : int, default=None
    Threads per task for the turbometrics kernels. None uses the executor
    process's default (``OMP_NUM_THREADS`` where set, else the CPUs it may
    run on). Spark runs one task per core: keep ``tasks per executor x
    n_threads <= cores``, e.g. ``n_threads=1`` with the default
    ``spark.task.cpus=1``.
"""

from __future__ import annotations

from ._coco import CocoEvaluation, coco_evaluate

__all__ = ["CocoEvaluation", "coco_evaluate"]
