"""COCO evaluation sharded by image, whatever runs the shards.

The engine adapters (``turbometrics.dask``, ``turbometrics.spark``) share
these steps: :func:`shard_plan` reads the ground truth and the results once
and cuts both into shards of images (each annotation goes to its image's
shard, in file order); :func:`shard_state` evaluates one shard into a
:class:`DetectionState` (where the engine runs it); the states are merged
(in any tree) and :func:`evaluation` accumulates and summarizes. Matching is
per image, and a merged state accumulates in pycocotools' order, so the
result is bit-identical to one ``COCOeval`` (pycocotools 2.0.11) over all
the images.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

import numpy as np

from ..detection import quiet, summary_lines
from ._coco import COCO
from ._cocoeval import COCOeval
from ._state import DetectionState

# Images per shard when ``npartitions`` is None.
IMAGES_PER_SHARD = 500


class CocoEvaluation(NamedTuple):
    """The result of ``coco_evaluate`` (:mod:`turbometrics.dask`,
    :mod:`turbometrics.spark`).

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


class ShardPlan(NamedTuple):
    """What :func:`shard_plan` cut: the evaluation parameters (a copy), and
    per shard its image ids, its ground truth and its results (COCO
    datasets: ``images``, ``annotations``, ``categories``)."""

    params: Any
    image_ids: list[list[Any]]
    gt: list[dict[str, Any]]
    dt: list[dict[str, Any]]


def _quiet(function: Any, *args: Any, **kwargs: Any) -> Any:
    """``function(...)`` without pycocotools' progress messages (silenced
    for this thread only, so that shards of one process run concurrently)."""
    with quiet():
        return function(*args, **kwargs)


def _as_coco(gt: Any) -> Any:
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


def shard_plan(gt: Any, results: Any, iouType: str, npartitions: int | None, params: Any) -> ShardPlan:
    """Read ``gt`` and ``results`` and cut them into ``npartitions`` shards
    of consecutive image ids (sorted, as ``params.imgIds``).

    Parameters
    ----------
    gt : str, path, dict or COCO
        The ground truth: a COCO JSON file, its parsed dict, or a COCO.
    results : str, path, list, ndarray or COCO
        Detections as ``COCO.loadRes`` takes them, or its result.
    iouType : {'bbox', 'segm', 'keypoints'}
    npartitions : int or None
        Number of shards (at most one per image); None: one per
        ``IMAGES_PER_SHARD`` images.
    params : Params or None
        Evaluation parameters; None: pycocotools' for ``iouType`` over every
        image and category of ``gt``.

    Raises
    ------
    ValueError
        When there are no images, or ``npartitions`` is not a positive int.
    """
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
    return ShardPlan(
        params,
        groups,
        _shards(coco_gt.dataset, coco_gt.imgs, shard_of, len(groups)),
        _shards(coco_dt.dataset, coco_gt.imgs, shard_of, len(groups)),
    )


def shard_state(
    gt: dict[str, Any], dt: dict[str, Any], image_ids: list[Any], params: Any, n_threads: int | None
) -> DetectionState:
    """The :class:`DetectionState` of one shard of a :class:`ShardPlan`
    (``gt``, ``dt``, ``image_ids`` of the same shard, the plan's
    ``params``), without pycocotools' progress messages."""

    def evaluate() -> DetectionState:
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


def evaluation(state: DetectionState, n_threads: int | None) -> CocoEvaluation:
    """Accumulate and summarize the merged state of every shard."""
    evaluated = state.accumulate(n_threads=n_threads)
    stats, lines = summary_lines(evaluated, state.params)
    return CocoEvaluation(stats, evaluated, "".join(line + "\n" for line in lines))
