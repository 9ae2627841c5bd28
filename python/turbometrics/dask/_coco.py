"""COCO detection evaluation sharded by image over dask tasks.

The client reads the ground truth and the results once and cuts both into
shards of images (``turbometrics.coco.sharded``: each annotation goes to
its image's shard, in file order). Each task evaluates its shard into a
:class:`turbometrics.coco.DetectionState`; the states are tree-merged and
accumulated. Matching is per image, and a merged state accumulates in
pycocotools' order, so ``stats`` and the ``eval`` arrays are bit-identical
to one ``COCOeval`` (pycocotools 2.0.11) over all the images.
"""

from __future__ import annotations

import uuid
from typing import Any

import dask

from ..coco import sharded
from ._graph import check_split_every, tree_reduce
from ._results import Warned, finish

CocoEvaluation = sharded.CocoEvaluation


def _result(state: Any, n_threads: int | None) -> Warned:
    return Warned(sharded.evaluation(state, n_threads), [])


def _literal(value: Any, what: str) -> Any:
    """A Delayed holding ``value`` as is (not traversed nor hashed)."""
    return dask.delayed(value, name=f"turbometrics-coco-{what}-{uuid.uuid4().hex}", traverse=False)


def coco_evaluate(
    gt: Any,
    results: Any,
    *,
    iouType: str = "bbox",
    npartitions: int | None = None,
    params: Any = None,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """COCO evaluation of ``results`` against ``gt``, sharded by image.

    Parameters
    ----------
    gt : str, path, dict or COCO
        The ground truth: a COCO JSON file, its parsed dict, or a
        ``turbometrics.coco.COCO`` / ``pycocotools.coco.COCO``.
    results : str, path, list, ndarray or COCO
        Detections as ``COCO.loadRes`` takes them, or a COCO object returned
        by ``loadRes``.
    iouType : {'bbox', 'segm', 'keypoints'}, default='bbox'
    npartitions : int, default=None
        Number of image shards (tasks); None: one per 500 images.
    params : turbometrics.coco.Params or pycocotools Params, default=None
        Evaluation parameters (default: pycocotools' for ``iouType`` over
        every image and category of ``gt``); ``params.imgIds`` selects the
        images.
    n_threads, compute, split_every
        See :mod:`turbometrics.dask`.

    Returns
    -------
    CocoEvaluation
        ``(stats, eval, summary)``, bit-identical to pycocotools'
        ``COCOeval`` run through evaluate, accumulate and summarize (a
        Delayed of it when ``compute`` is False).
    """
    every = check_split_every(split_every)
    plan = sharded.shard_plan(gt, results, iouType, npartitions, params)
    shared_params = _literal(plan.params, "params")
    states = [
        dask.delayed(sharded.shard_state, pure=True)(
            _literal(g, "gt"), _literal(d, "dt"), ids, shared_params, n_threads
        )
        for g, d, ids in zip(plan.gt, plan.dt, plan.image_ids)
    ]
    merged = tree_reduce(states, every)
    return finish(dask.delayed(_result, pure=True)(merged, n_threads), compute)
