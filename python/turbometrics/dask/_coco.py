"""COCO detection evaluation sharded by image over dask tasks.

The client reads the ground truth and the results once and cuts both into
shards of images (each annotation goes to its image's shard, in file
order). Each task evaluates its shard into a
:class:`turbometrics.coco.DetectionState`; the states are tree-merged and
accumulated. Matching is per image, and a merged state accumulates in
pycocotools' order, so ``stats`` and the ``eval`` arrays are bit-identical
to one ``COCOeval`` (pycocotools 2.0.11) over all the images.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any, NamedTuple

import dask
import numpy as np

from ._graph import check_split_every, tree_reduce
from ._results import Warned, finish

# Images per shard when ``npartitions`` is None.
IMAGES_PER_SHARD = 500


class CocoEvaluation(NamedTuple):
    """The result of :func:`coco_evaluate`.

    Attributes
    ----------
    stats : ndarray of float64
        ``COCOeval.stats`` (12 numbers; 10 for keypoints).
    eval : dict
        ``COCOeval.eval``: ``params``, ``counts``, ``date``, ``precision``,
        ``recall``, ``scores``.
    summary : str
        The text ``COCOeval.summarize()`` prints.
    """

    stats: np.ndarray
    eval: dict[str, Any]
    summary: str


def _quiet(function: Any, *args: Any, **kwargs: Any) -> Any:
    """``function(...)`` without pycocotools' progress messages (silenced
    for this thread only, so that tasks of one process run concurrently)."""
    from ..coco import quiet

    with quiet():
        return function(*args, **kwargs)


def _as_coco(gt: Any) -> Any:
    from ..coco import COCO

    if isinstance(gt, dict):
        coco = COCO()
        coco.dataset = gt
        _quiet(coco.createIndex)
        return coco
    if hasattr(gt, "dataset") and hasattr(gt, "loadRes"):
        return gt
    return _quiet(COCO, gt)


def _shards(
    dataset: dict[str, Any], images: dict[Any, dict], shard_of: dict[Any, int], n_shards: int
) -> list[dict[str, Any]]:
    shards: list[dict[str, Any]] = [
        {"images": [], "annotations": [], "categories": dataset.get("categories", [])} for _ in range(n_shards)
    ]
    for image_id, index in shard_of.items():
        if image_id in images:
            shards[index]["images"].append(images[image_id])
    for annotation in dataset.get("annotations", []):
        shard = shard_of.get(annotation["image_id"])
        if shard is not None:
            shards[shard]["annotations"].append(annotation)
    return shards


def _shard_state(
    gt: dict[str, Any], dt: dict[str, Any], image_ids: list[Any], params: Any, n_threads: int | None
) -> Any:
    from ..coco import COCO, DetectionState

    def evaluate() -> Any:
        cocos = []
        for dataset in (gt, dt):
            coco = COCO()
            coco.dataset = dataset
            coco.createIndex()
            cocos.append(coco)
        return DetectionState.from_coco(
            cocos[0], cocos[1], params.iouType, imgIds=image_ids, params=params, n_threads=n_threads
        )

    return _quiet(evaluate)


def _result(state: Any, n_threads: int | None) -> Warned:
    from ..coco import summary_lines

    evaluation = state.accumulate(n_threads=n_threads)
    stats, lines = summary_lines(evaluation, state.params)
    return Warned(CocoEvaluation(stats, evaluation, "".join(line + "\n" for line in lines)), [])


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
    from ..coco import COCOeval

    every = check_split_every(split_every)
    coco_gt = _as_coco(gt)
    coco_dt = (
        results if hasattr(results, "dataset") and hasattr(results, "loadRes") else _quiet(coco_gt.loadRes, results)
    )
    if params is None:
        params = COCOeval(coco_gt, coco_dt, iouType).params
    params = copy.deepcopy(params)
    image_ids = list(np.unique(params.imgIds))
    if not image_ids:
        raise ValueError("coco_evaluate: there are no images to evaluate")
    if npartitions is None:
        npartitions = -(-len(image_ids) // IMAGES_PER_SHARD)
    if isinstance(npartitions, bool) or not isinstance(npartitions, int) or npartitions < 1:
        raise ValueError(f"npartitions must be a positive int or None, got {npartitions!r}")
    groups = [list(g) for g in np.array_split(np.asarray(image_ids, dtype=object), min(npartitions, len(image_ids)))]
    shard_of = {image_id: i for i, group in enumerate(groups) for image_id in group}
    gt_shards = _shards(coco_gt.dataset, coco_gt.imgs, shard_of, len(groups))
    dt_shards = _shards(coco_dt.dataset, coco_gt.imgs, shard_of, len(groups))
    shared_params = _literal(params, "params")
    states = [
        dask.delayed(_shard_state, pure=True)(_literal(g, "gt"), _literal(d, "dt"), ids, shared_params, n_threads)
        for g, d, ids in zip(gt_shards, dt_shards, groups)
    ]
    merged = tree_reduce(states, every)
    return finish(dask.delayed(_result, pure=True)(merged, n_threads), compute)
