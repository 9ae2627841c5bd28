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
    Threads per task for the turbometrics kernels. None uses the executor's
    Python worker's default: ``OMP_NUM_THREADS``, which Spark sets in its
    Python workers (1 in a ``local[N]`` session), else the CPUs the worker
    may run on. Spark runs one task per core (``spark.task.cpus=1``): keep
    ``tasks per executor x n_threads <= cores``.
"""

from __future__ import annotations

from ._coco import CocoEvaluation, coco_evaluate
from ._evaluate import evaluate
from ._segmentation import segmentation_evaluate

__all__ = ["CocoEvaluation", "coco_evaluate", "evaluate", "segmentation_evaluate"]
