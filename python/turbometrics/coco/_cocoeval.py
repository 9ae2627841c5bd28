"""COCO evaluation, as ``pycocotools.cocoeval.COCOeval`` (2.0.11), with the
matching and accumulation in C++."""

from __future__ import annotations

import copy
import time
from typing import Any, cast

import numpy as np

from .. import _core
from .._common.progress import progress_callback
from .._common.threads import resolve_threads
from ..detection import (
    Blocks,
    EvaluatedImages,
    IouMatrices,
    Params,
    accumulate_table,
    assign_blocks,
    category_curve,
    check_bool_scores,
    results_per_category,
    say,
    summarize,
)
from . import _annotations
from ._iou_sources import attach_iou_source


class COCOeval:
    """Evaluate detection results against a COCO ground truth.

    A drop-in for ``pycocotools.cocoeval.COCOeval``: the same constructor,
    ``params``, ``evaluate()``, ``accumulate()``, ``summarize()``, ``stats``,
    ``eval`` (``precision``, ``recall`` and ``scores`` bit-identical to
    pycocotools 2.0.11), ``evalImgs`` and ``ious``. ``cocoGt`` and ``cocoDt``
    may be turbometrics or pycocotools ``COCO`` objects.

    Parameters
    ----------
    cocoGt, cocoDt : COCO
        Ground truth and results (``cocoGt.loadRes(...)``).
    iouType : {'segm', 'bbox', 'keypoints'}
        What is compared: masks, boxes or keypoints (OKS).
    n_threads : int, optional, keyword-only
        Threads for matching and accumulation (default: the global setting);
        results are identical for every thread count.

    Notes
    -----
    ``evalImgs`` and ``ious`` are computed on access, one (category, image)
    block at a time, from the same kernel as the evaluation, so ``evaluate()``
    never builds a dict per block. Unlike pycocotools, ``evaluate()`` does not
    write ``ignore``, ``_ignore`` or RLE segmentations into the annotation
    dicts.

    Examples
    --------
    >>> from turbometrics.coco import COCO, COCOeval
    >>> from turbometrics.coco.synthetic import make_coco_set
    >>> dataset, results = make_coco_set(n_images=20, n_categories=3, seed=0)
    >>> gt = COCO()
    >>> gt.dataset = dataset
    >>> gt.createIndex()
    creating index...
    index created!
    >>> dt = gt.loadRes(results)
    Loading and preparing results...
    creating index...
    index created!
    DONE (t=...s)
    >>> E = COCOeval(gt, dt, "bbox", n_threads=2)
    >>> E.evaluate()
    Running per image evaluation...
    Evaluate annotation type *bbox*
    DONE (t=...s).
    >>> E.accumulate()
    Accumulating evaluation results...
    DONE (t=...s).
    >>> E.eval["precision"].shape          # (IoU thresholds, recall thresholds, categories, areas, maxDets)
    (10, 101, 3, 4, 3)
    >>> E.summarize()
     Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.027
     Average Precision  (AP) @[ IoU=0.50      | area=   all | maxDets=100 ] = 0.062
     Average Precision  (AP) @[ IoU=0.75      | area=   all | maxDets=100 ] = 0.020
     Average Precision  (AP) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = 0.027
     Average Precision  (AP) @[ IoU=0.50:0.95 | area=medium | maxDets=100 ] = 0.043
     Average Precision  (AP) @[ IoU=0.50:0.95 | area= large | maxDets=100 ] = 0.041
     Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets=  1 ] = 0.016
     Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets= 10 ] = 0.144
     Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.368
     Average Recall     (AR) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = 0.346
     Average Recall     (AR) @[ IoU=0.50:0.95 | area=medium | maxDets=100 ] = 0.400
     Average Recall     (AR) @[ IoU=0.50:0.95 | area= large | maxDets=100 ] = 0.315
    """

    def __init__(
        self, cocoGt: Any = None, cocoDt: Any = None, iouType: str = "segm", *, n_threads: int | None = None
    ) -> None:
        if not iouType:
            say("iouType not specified. use default iouType segm")
        self.cocoGt = cocoGt
        self.cocoDt = cocoDt
        self.evalImgs: Any = []
        self.eval: dict[str, Any] = {}
        self.params = Params(iouType=iouType)
        self._paramsEval: Any = {}
        self.stats: Any = []
        self.ious: Any = {}
        self.n_threads = n_threads
        self._evaluation: Any | None = None
        self._blocks: Blocks | None = None
        self._bool_scores = False
        if cocoGt is not None:
            self.params.imgIds = sorted(cocoGt.getImgIds())
            self.params.catIds = sorted(cocoGt.getCatIds())

    # -- evaluate -------------------------------------------------------------------
    def evaluate(self, *, progress: bool = False) -> None:
        """Match detections to ground truths on every image and category.

        Afterwards ``evalImgs`` (category-major, then area range, then image)
        and ``ious`` give pycocotools' per-image results.

        Parameters
        ----------
        progress : bool, keyword-only
            Show a progress bar over the (category, image) blocks (needs
            tqdm, the ``progress`` extra).
        """
        tic = time.time()
        say("Running per image evaluation...")
        p = self.params
        if p.useSegm is not None:
            p.iouType = "segm" if p.useSegm == 1 else "bbox"
            say(f"useSegm (deprecated) is not None. Running {p.iouType} evaluation")
        say(f"Evaluate annotation type *{p.iouType}*")
        if p.iouType not in ("segm", "bbox", "keypoints"):
            raise Exception("unknown iouType for iou computation")
        p.imgIds = list(np.unique(p.imgIds))
        if p.useCats:
            p.catIds = list(np.unique(p.catIds))
        p.maxDets = sorted(p.maxDets)
        self.params = p

        cat_filter = p.catIds if p.useCats else None
        gts = _annotations.columns(
            _annotations.select(self.cocoGt, p.imgIds, cat_filter), ground_truth=True, iou_type=p.iouType
        )
        dts = _annotations.detection_columns(self.cocoDt, p, cat_filter)
        blocks = assign_blocks(gts, dts, p)
        evaluation = _core.detection.Evaluation(
            # columns() fills ignore and crowd for ground truths and score for detections
            gts.id,
            gts.area,
            cast(np.ndarray, gts.ignore),
            cast(np.ndarray, gts.crowd),
            dts.id,
            dts.area,
            cast(np.ndarray, dts.score),
            blocks.gt_offsets,
            blocks.gt_members,
            blocks.dt_offsets,
            blocks.dt_members,
            np.asarray(p.iouThrs, dtype=np.float64),
            np.asarray(p.areaRng, dtype=np.float64).reshape(-1, 2),
            int(p.maxDets[-1]) if len(p.maxDets) else 0,
        )
        n_threads = resolve_threads(self.n_threads)
        attach_iou_source(evaluation, gts, dts, blocks, p, self.cocoGt, self.cocoDt, n_threads)
        evaluation.match(n_threads, progress_callback(progress, "evaluate"))
        self._evaluation, self._blocks = evaluation, blocks
        self._bool_scores = dts.bool_scores
        self._paramsEval = copy.deepcopy(self.params)
        self.evalImgs = EvaluatedImages(evaluation, blocks, self._paramsEval, gts, dts)
        self.ious = IouMatrices(evaluation, blocks, self._paramsEval)
        self.eval = {}
        say(f"DONE (t={time.time() - tic:0.2f}s).")

    # -- accumulate -----------------------------------------------------------------
    def accumulate(self, p: Params | None = None) -> None:
        """Precision, recall and score at every (IoU threshold, recall
        threshold, category, area range, max detections), into ``eval``."""
        say("Accumulating evaluation results...")
        tic = time.time()
        if self._evaluation is None:
            say("Please run evaluate() first")
            raise RuntimeError("COCOeval.accumulate() needs evaluate() to have run first")
        if p is None:
            p = self.params
        if self._bool_scores:
            check_bool_scores(self.evalImgs, p, self._paramsEval)
        self.eval = accumulate_table(self._evaluation.table, p, self._paramsEval, resolve_threads(self.n_threads))
        say(f"DONE (t={time.time() - tic:0.2f}s).")

    # -- summarize ------------------------------------------------------------------
    def summarize(self) -> None:
        """Print pycocotools' summary (12 lines for boxes and masks, 10 for
        keypoints) and store it in ``stats``."""
        if not self.eval:
            raise Exception("Please run accumulate() first")
        self.stats = summarize(self.eval, self.params)

    # -- beyond pycocotools --------------------------------------------------------
    def results_per_category(self, *, as_frame: bool | None = None) -> Any:
        """AP (IoU .50:.95), AP50, AP75 and AR at ``maxDets[-1]`` (AR100 by
        default) for each category, -1 where it has no ground truth.

        Returns a pandas DataFrame indexed by category id (with the category
        name) when ``as_frame`` is true, or is None and pandas is installed;
        otherwise ``{category_id: {"name", "AP", "AP50", "AP75", "AR100"}}``.
        Needs ``accumulate()``.
        """
        self._require_eval()
        categories = getattr(self.cocoGt, "cats", {}) or {}
        return results_per_category(self.eval, self.eval["params"], categories, as_frame)

    def category_curve(
        self, category_id: Any, *, iou_threshold: float = 0.5, area: str = "all", max_detections: int | None = None
    ) -> dict[str, np.ndarray]:
        """One category's precision-recall and F1-vs-score curve.

        At each recall threshold the category reaches (``params.recThrs``
        up to its final recall): ``recall``, the interpolated ``precision``
        of ``eval['precision']``, the ``scores`` of ``eval['scores']`` (the
        detection score where that recall is first reached) and
        ``f1 = 2 P R / (P + R)``. Use ``category_id=-1`` when ``useCats`` is
        0; ``max_detections`` defaults to ``maxDets[-1]``. Needs
        ``accumulate()``.

        Raises
        ------
        ValueError
            For a category, IoU threshold, area label or max detections that
            was not evaluated, or a category without ground truth.
        """
        self._require_eval()
        return category_curve(self.eval, self.eval["params"], category_id, iou_threshold, area, max_detections)

    def _require_eval(self) -> None:
        if not self.eval:
            raise RuntimeError("run evaluate() and accumulate() first")

    def __str__(self) -> str:
        self.summarize()
        return ""
