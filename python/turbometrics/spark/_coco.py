"""COCO detection evaluation sharded by image over Spark tasks.

The driver reads the ground truth and the results once and cuts both into
shards of images (``turbometrics.coco.sharded``, as ``turbometrics.dask``
does); each shard travels as one row of a DataFrame, one shard per
partition. Each task evaluates its shards into
:class:`turbometrics.coco.DetectionState` s and returns them as
``to_bytes()``; the driver merges them in a balanced tree and accumulates.
Matching is per image and a merged state accumulates in pycocotools' order,
so the result is bit-identical to one ``COCOeval`` (pycocotools 2.0.11)
over all the images.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from typing import Any

from ..coco import DetectionState, sharded
from ._plan import merged_state, session_or_active

CocoEvaluation = sharded.CocoEvaluation
_SHARD_SCHEMA = "shard int, payload binary"


def _shard_states(params: Any, n_threads: int | None) -> Callable[[Iterator[Any]], Iterator[bytes]]:
    """What each partition runs: each row's shard (pickled by the driver)
    -> its state's bytes."""

    def build(batches: Iterator[Any]) -> Iterator[bytes]:
        for batch in batches:
            for payload in batch.column("payload").to_pylist():
                gt, dt, image_ids = pickle.loads(payload)
                yield sharded.shard_state(gt, dt, image_ids, params, n_threads).to_bytes()

    return build


def coco_evaluate(
    gt: Any,
    results: Any,
    *,
    iouType: str = "bbox",
    npartitions: int | None = None,
    params: Any = None,
    n_threads: int | None = None,
    spark: Any = None,
) -> CocoEvaluation:
    """COCO evaluation of ``results`` against ``gt``, sharded by image over
    Spark tasks.

    Parameters
    ----------
    gt : str, path, dict or COCO
        The ground truth: a COCO JSON file, its parsed dict, or a
        ``turbometrics.coco.COCO`` / ``pycocotools.coco.COCO`` (read on the
        driver).
    results : str, path, list, ndarray or COCO
        Detections as ``COCO.loadRes`` takes them, or a COCO object returned
        by ``loadRes``.
    iouType : {'bbox', 'segm', 'keypoints'}, default='bbox'
    npartitions : int, default=None
        Number of image shards (one Spark partition each); None: one per
        500 images.
    params : turbometrics.coco.Params or pycocotools Params, default=None
        Evaluation parameters (default: pycocotools' for ``iouType`` over
        every image and category of ``gt``); ``params.imgIds`` selects the
        images.
    n_threads : int, default=None
        Threads per task for the matching kernels (None: the executor
        process's default, see :mod:`turbometrics.spark`) and for the
        accumulation on the driver.
    spark : pyspark.sql.SparkSession, default=None
        The session to run on; None: the active one (created if there is
        none).

    Returns
    -------
    turbometrics.dask.CocoEvaluation
        ``(stats, eval, summary)``, bit-identical to pycocotools'
        ``COCOeval`` run through evaluate, accumulate and summarize.

    Raises
    ------
    ValueError
        When there are no images to evaluate, or ``npartitions`` is not a
        positive int or None.
    """
    plan = sharded.shard_plan(gt, results, iouType, npartitions, params)
    rows = [
        (index, pickle.dumps((g, d, ids), protocol=pickle.HIGHEST_PROTOCOL))
        for index, (g, d, ids) in enumerate(zip(plan.gt, plan.dt, plan.image_ids))
    ]
    frame = session_or_active(spark).createDataFrame(rows, _SHARD_SCHEMA).repartition(len(rows))
    state = merged_state(frame, _shard_states(plan.params, n_threads), DetectionState.from_bytes)
    return sharded.evaluation(state, n_threads)
