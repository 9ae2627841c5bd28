"""A mergeable COCO evaluation: the match table of a subset of images.

Matching is per (category, image) block, so the blocks of disjoint image
subsets can be evaluated anywhere and put together. Accumulation reads the
blocks in ascending image-id order (pycocotools concatenates detections in
sorted ``imgIds`` order before its stable sort, which breaks score ties by
image); a merged state keeps its images sorted by id, so accumulating it
gives pycocotools' tie order whatever the split and the merge order.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, Optional, Sequence

import numpy as np

from .. import _core
from .._threads import resolve_threads
from ..states._mergeable import check_version
from ._accumulate import accumulate_table
from ._log import quiet
from ._params import Params
from ._summary import summarize

_VERSION = 1
_PARAM_FIELDS = ("iouType", "iouThrs", "recThrs", "maxDets", "areaRng", "areaRngLbl", "useCats", "catIds")


def _param_key(p: Any) -> tuple:
    key = [p.iouType, tuple(np.asarray(p.iouThrs, dtype=float)), tuple(np.asarray(p.recThrs, dtype=float)),
           tuple(p.maxDets), tuple(map(tuple, p.areaRng)), tuple(p.areaRngLbl), int(p.useCats),
           tuple(p.catIds) if p.useCats else (-1,)]
    if p.iouType == "keypoints":
        key.append(tuple(np.asarray(p.kpt_oks_sigmas, dtype=float)))
    return tuple(key)


class DetectionState:
    """The per-image matching of a COCO evaluation over a subset of images.

    Build one per shard of images with :meth:`from_coco`, combine them with
    :meth:`merge` (or ``+``) in any grouping and order, then call
    :meth:`accumulate` and :meth:`summarize`: ``eval`` arrays and ``stats``
    are bit-identical to one ``COCOeval`` over all the images. States are
    picklable (versioned; with pickle protocol 5 the arrays travel as
    out-of-band buffers without copies).

    Memory is O(kept detections x area ranges): per detection its score
    and two bit masks per area range (true and false positive per IoU
    threshold), plus a few numbers per (category, image).

    Parameters
    ----------
    params : Params
        The evaluation parameters (merging requires equal parameters).
    image_ids : array-like of int
        The state's images, ascending.
    arrays : dict of ndarray
        The match-table arrays (see :meth:`arrays`); use :meth:`from_coco` or
        :meth:`from_arrays` rather than this constructor.

    Raises
    ------
    ValueError
        From :meth:`merge`, for different parameters or a shared image; from
        unpickling, for a pickle of another state version.

    Notes
    -----
    pycocotools breaks score ties by the image's position in the sorted
    ``imgIds``, then by the detection's place in the image. A state keeps its
    blocks in ascending image-id order and a merge interleaves them by image
    id, so every split, merged in any order, accumulates to the arrays of one
    ``COCOeval`` over all the images.

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
    >>> from turbometrics.coco import DetectionState
    >>> ids = gt.getImgIds()
    >>> first = DetectionState.from_coco(gt, dt, "bbox", imgIds=ids[:10])
    >>> second = DetectionState.from_coco(gt, dt, "bbox", imgIds=ids[10:])
    >>> merged = second + first           # any grouping, any order
    >>> E = COCOeval(gt, dt, "bbox")
    >>> E.evaluate()
    Running per image evaluation...
    Evaluate annotation type *bbox*
    DONE (t=...s).
    >>> E.accumulate()
    Accumulating evaluation results...
    DONE (t=...s).
    >>> import numpy as np
    >>> np.array_equal(merged.accumulate()["precision"], E.eval["precision"])
    True
    """

    def __init__(self, params: Params, image_ids: np.ndarray, arrays: Dict[str, np.ndarray]) -> None:
        self.params = params
        self.image_ids = image_ids
        self._arrays = arrays

    # -- construction --------------------------------------------------------------
    @classmethod
    def from_coco(cls, cocoGt: Any, cocoDt: Any, iouType: str = "bbox", *, imgIds: Optional[Sequence] = None,
                  params: Optional[Params] = None, n_threads: Optional[int] = None) -> "DetectionState":
        """Match the images ``imgIds`` (default: every image of ``cocoGt``)
        with ``params`` (default: pycocotools' for ``iouType``; its
        ``imgIds`` are replaced)."""
        from ._cocoeval import COCOeval

        evaluation = COCOeval(cocoGt, cocoDt, iouType, n_threads=n_threads)
        if params is not None:
            evaluation.params = copy.deepcopy(params)
        if imgIds is not None:
            evaluation.params.imgIds = list(imgIds)
        with quiet():
            evaluation.evaluate()
        p = evaluation._paramsEval
        image_ids = np.asarray(p.imgIds)
        return cls(p, image_ids, evaluation._evaluation.table.arrays())

    @classmethod
    def from_arrays(cls, params: Params, image_ids: Any, *, row_offsets: Any, present: Any, score: Any,
                    true_positive: Any, false_positive: Any, regular_gts: Any) -> "DetectionState":
        """A state from its arrays (those of :meth:`arrays`), validated."""
        arrays = {
            "n_thresholds": len(params.iouThrs),
            "row_offsets": np.ascontiguousarray(row_offsets, dtype=np.int64),
            "present": np.ascontiguousarray(present, dtype=np.uint8),
            "score": np.ascontiguousarray(score, dtype=np.float64),
            "true_positive": np.ascontiguousarray(true_positive, dtype=np.uint64),
            "false_positive": np.ascontiguousarray(false_positive, dtype=np.uint64),
            "regular_gts": np.ascontiguousarray(regular_gts, dtype=np.int64),
        }
        state = cls(params, np.asarray(image_ids), arrays)
        state._table()  # validates the shapes
        n_categories = len(params.catIds) if params.useCats else 1
        if len(arrays["present"]) != n_categories * len(state.image_ids):
            raise ValueError("the arrays do not have one block per (category, image)")
        return state

    def arrays(self) -> Dict[str, np.ndarray]:
        """The state's arrays: ``row_offsets`` (blocks + 1; blocks are
        category-major over the sorted images), ``present``, ``score`` (per
        kept detection), ``true_positive`` / ``false_positive`` (area range x
        detection x group of 64 IoU thresholds, bit masks) and
        ``regular_gts`` (area range x block)."""
        return {k: v for k, v in self._arrays.items() if k != "n_thresholds"}

    def update(self, cocoGt: Any, cocoDt: Any, imgIds: Optional[Sequence] = None,
               n_threads: Optional[int] = None) -> "DetectionState":
        """Add the matching of more images (in place); returns self."""
        other = DetectionState.from_coco(cocoGt, cocoDt, self.params.iouType, imgIds=imgIds, params=self.params,
                                         n_threads=n_threads)
        merged = self.merge(other)
        self.params, self.image_ids, self._arrays = merged.params, merged.image_ids, merged._arrays
        return self

    # -- merging -------------------------------------------------------------------
    @property
    def n_categories(self) -> int:
        return len(self.params.catIds) if self.params.useCats else 1

    def merge(self, other: "DetectionState") -> "DetectionState":
        """The state of both states' images (which must not overlap).

        Raises
        ------
        ValueError
            If the states were evaluated with different parameters (IoU type
            or thresholds, recall thresholds, maxDets, area ranges,
            categories, useCats, keypoint sigmas) or share an image.
        """
        if not isinstance(other, DetectionState):
            raise TypeError(f"cannot merge a DetectionState with {type(other).__name__}")
        if _param_key(self.params) != _param_key(other.params):
            raise ValueError("cannot merge DetectionStates evaluated with different parameters "
                             f"({', '.join(_PARAM_FIELDS)} must be equal)")
        image_ids = np.concatenate([self.image_ids, other.image_ids])
        order = np.argsort(image_ids, kind="stable")
        image_ids = image_ids[order]
        if len(image_ids) > 1 and (image_ids[1:] == image_ids[:-1]).any():
            shared = image_ids[1:][image_ids[1:] == image_ids[:-1]][0]
            raise ValueError(f"cannot merge DetectionStates that both hold image {shared!r}")
        K, A = self.n_categories, len(self.params.areaRng)
        mine, theirs = self._arrays, other._arrays
        I_mine, I_theirs = len(self.image_ids), len(other.image_ids)

        def by_block(name: str, leading: int = 0) -> np.ndarray:
            a = mine[name].reshape(mine[name].shape[:leading] + (K, I_mine))
            b = theirs[name].reshape(theirs[name].shape[:leading] + (K, I_theirs))
            return np.concatenate([a, b], axis=-1)[..., order]

        counts_mine = np.diff(mine["row_offsets"]).reshape(K, I_mine)
        counts_theirs = np.diff(theirs["row_offsets"]).reshape(K, I_theirs)
        starts = np.concatenate([mine["row_offsets"][:-1].reshape(K, I_mine),
                                 theirs["row_offsets"][:-1].reshape(K, I_theirs) + mine["row_offsets"][-1]],
                                axis=1)[:, order].ravel()
        counts = np.concatenate([counts_mine, counts_theirs], axis=1)[:, order].ravel()
        row_offsets = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=row_offsets[1:])
        rows = np.repeat(starts - row_offsets[:-1], counts) + np.arange(row_offsets[-1], dtype=np.int64)
        arrays = {
            "n_thresholds": mine["n_thresholds"],
            "row_offsets": row_offsets,
            "present": by_block("present").ravel(),
            "score": np.concatenate([mine["score"], theirs["score"]])[rows],
            "true_positive": np.concatenate([mine["true_positive"], theirs["true_positive"]], axis=1)[:, rows],
            "false_positive": np.concatenate([mine["false_positive"], theirs["false_positive"]], axis=1)[:, rows],
            "regular_gts": by_block("regular_gts", 1).reshape(A, -1),
        }
        params = copy.deepcopy(self.params)
        params.imgIds = list(image_ids)
        return DetectionState(params, image_ids, arrays)

    def __add__(self, other: "DetectionState") -> "DetectionState":
        return self.merge(other)

    # -- results -------------------------------------------------------------------
    def _table(self) -> Any:
        a = self._arrays
        return _core.CocoMatchTable(a["n_thresholds"], a["row_offsets"], a["present"], a["score"],
                                    a["true_positive"], a["false_positive"], a["regular_gts"])

    def accumulate(self, *, n_threads: Optional[int] = None) -> Dict[str, Any]:
        """The ``eval`` dict (``precision``, ``recall``, ``scores``, ...) of
        a ``COCOeval`` over the state's images."""
        p = copy.deepcopy(self.params)
        p.imgIds = list(self.image_ids)
        return accumulate_table(self._table(), copy.deepcopy(p), p, resolve_threads(n_threads))

    def summarize(self, *, n_threads: Optional[int] = None) -> np.ndarray:
        """Print pycocotools' summary of the state's images and return
        ``stats``."""
        return summarize(self.accumulate(n_threads=n_threads), self.params)

    # -- pickling ------------------------------------------------------------------
    def __getstate__(self) -> Dict[str, Any]:
        return {"version": _VERSION, "params": vars(self.params), "image_ids": self.image_ids,
                "arrays": self._arrays}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        check_version(state, "DetectionState", _VERSION)
        params = Params.__new__(Params)
        params.__dict__.update(state["params"])
        self.params, self.image_ids, self._arrays = params, state["image_ids"], state["arrays"]

    def __repr__(self) -> str:
        return (f"DetectionState(iouType={self.params.iouType!r}, images={len(self.image_ids)}, "
                f"categories={self.n_categories}, detections={int(self._arrays['row_offsets'][-1])})")
