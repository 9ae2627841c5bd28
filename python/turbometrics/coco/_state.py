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
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from .. import _core
from .._common.mergeable import check_version
from .._common.serial import dump_state, load_state
from .._common.threads import resolve_threads
from ..detection import Params, accumulate_table, quiet, summarize

_VERSION = 1
_PARAM_FIELDS = ("iouType", "iouThrs", "recThrs", "maxDets", "areaRng", "areaRngLbl", "useCats", "catIds")


# The match-table arrays: dtype, dimensions and the dtype kinds accepted.
_ARRAYS = {
    "row_offsets": (np.int64, 1, "iu"),
    "present": (np.uint8, 1, "biu"),
    "score": (np.float64, 1, "iuf"),
    "true_positive": (np.uint64, 3, "iu"),
    "false_positive": (np.uint64, 3, "iu"),
    "regular_gts": (np.int64, 2, "iu"),
}
_IOU_TYPES = ("bbox", "segm", "keypoints")


def _refuse(field: str, problem: str) -> None:
    raise ValueError(f"DetectionState {field}: {problem}")


def _param(params: Any, name: str) -> Any:
    if not hasattr(params, name):
        _refuse(f"params.{name}", "missing")
    return getattr(params, name)


def _vector(params: Any, name: str) -> np.ndarray:
    """A parameter that must be a 1-D list of finite numbers."""
    try:
        values = np.asarray(_param(params, name))
    except (ValueError, TypeError):
        values = np.asarray(None)
    if values.ndim != 1 or values.dtype.kind not in "iuf" or not np.isfinite(values).all():
        _refuse(f"params.{name}", "must be a 1-D list of finite numbers")
    return values


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer))


def _check_params(params: Any) -> tuple[int, int, int, int]:
    """``(T, A, K, kept)``: thresholds, area ranges, category block rows and
    the most rows a block keeps (``max(maxDets)``) of sane ``params``."""
    if _param(params, "iouType") not in _IOU_TYPES:
        _refuse("params.iouType", f"must be one of {_IOU_TYPES}, got {params.iouType!r}")
    n_thresholds = len(_vector(params, "iouThrs"))
    _vector(params, "recThrs")
    max_dets = _param(params, "maxDets")
    if not isinstance(max_dets, (list, tuple)) or not all(_is_int(m) and m >= 0 for m in max_dets):
        _refuse("params.maxDets", "must be a list of non-negative ints")
    try:
        area_ranges = np.asarray(_param(params, "areaRng"))
    except (ValueError, TypeError):
        area_ranges = np.asarray(None)
    if (
        area_ranges.ndim != 2
        or area_ranges.shape[1] != 2
        or area_ranges.dtype.kind not in "iuf"
        or np.isnan(area_ranges).any()
    ):
        _refuse("params.areaRng", "must be a list of [low, high] number pairs")
    labels = _param(params, "areaRngLbl")
    if (
        not isinstance(labels, (list, tuple))
        or len(labels) != len(area_ranges)
        or not all(isinstance(label, str) for label in labels)
    ):
        _refuse("params.areaRngLbl", "must be one string per area range")
    use_cats = _param(params, "useCats")
    if not _is_int(use_cats) or use_cats not in (0, 1):
        _refuse("params.useCats", "must be 0 or 1")
    cat_ids = _param(params, "catIds")
    if use_cats:
        cat_ids = _check_ascending("params.catIds", cat_ids)
    if params.iouType == "keypoints":
        _vector(params, "kpt_oks_sigmas")
    return n_thresholds, len(area_ranges), len(cat_ids) if use_cats else 1, max(max_dets, default=0)


def _check_ascending(field: str, values: Any) -> np.ndarray:
    """``values`` as a 1-D array of ints, floats or strings, strictly
    ascending (sorted and unique, as ``np.unique`` leaves ids)."""
    try:
        array = np.asarray(values)
    except (ValueError, TypeError):
        array = np.asarray(None)
    if array.ndim != 1 or array.dtype.kind not in "iufU" or not (array[1:] > array[:-1]).all():
        _refuse(field, "must be a 1-D list of ids (ints or strings), ascending and unique")
    return array


def _check_array(name: str, value: Any) -> np.ndarray:
    """``value`` as the C-contiguous array of ``name``'s dtype, refusing
    other dimensions, dtype kinds and values the dtype cannot hold."""
    dtype, ndim, kinds = _ARRAYS[name]
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        array = np.asarray(None)
    if array.dtype.kind not in kinds or array.ndim != ndim:
        _refuse(name, f"must be a {ndim}-D array of {np.dtype(dtype).name}, got {array.ndim}-D {array.dtype}")
    if array.dtype.kind in "iu" and np.dtype(dtype).kind in "iu" and array.size:
        info = np.iinfo(cast(Any, dtype))  # an integer dtype here
        if array.min() < info.min or array.max() > info.max:
            _refuse(name, f"has values outside the {np.dtype(dtype).name} range")
    return np.ascontiguousarray(array, dtype=dtype)


def _validated(params: Any, image_ids: Any, arrays: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
    """``(image_ids, arrays)`` of a state, checked as the kernels rely on
    them; ValueError naming the field otherwise.

    Checked here: the parameters (see :func:`_check_params`); image ids
    ascending and unique; each array's dtype and shape (blocks ``K x I``,
    rows, area ranges ``A``, ``ceil(T / 64)`` mask words); no block with
    more rows than ``max(maxDets)``. Checked by ``_core.detection.MatchTable``
    (the C++ refuses such tables by itself): row offsets from 0, not
    decreasing, ending at the row count; present 0 or 1, and absent
    blocks empty; each block's scores in detection order (descending, NaN
    last); mask bits only below T, never both true and false positive;
    regular ground truths non-negative and per (area, block, threshold) at
    least the true positives, so recall never passes 1.
    """
    n_thresholds, n_areas, n_categories, kept = _check_params(params)
    image_ids = _check_ascending("image_ids", image_ids)
    if set(arrays) != set(_ARRAYS):
        _refuse("arrays", f"must be exactly {sorted(_ARRAYS)}, got {sorted(arrays)}")
    checked: dict[str, Any] = {name: _check_array(name, arrays[name]) for name in _ARRAYS}
    n_blocks, n_rows, n_words = n_categories * len(image_ids), len(checked["score"]), -(-n_thresholds // 64)
    shapes = {
        "row_offsets": (n_blocks + 1,),
        "present": (n_blocks,),
        "score": (n_rows,),
        "true_positive": (n_areas, n_rows, n_words),
        "false_positive": (n_areas, n_rows, n_words),
        "regular_gts": (n_areas, n_blocks),
    }
    for name, shape in shapes.items():
        if checked[name].shape != shape:
            _refuse(name, f"has shape {checked[name].shape}; these parameters and images need {shape}")
    checked["n_thresholds"] = n_thresholds
    try:
        _match_table(checked)
    except ValueError as error:
        raise ValueError(f"DetectionState {error}") from None
    if n_blocks and np.diff(checked["row_offsets"]).max() > kept:
        _refuse("row_offsets", f"a block has more rows than max(maxDets) = {kept}")
    return image_ids, checked


def _match_table(arrays: dict[str, Any]) -> Any:
    """The C++ match table of the arrays (which validates their contents)."""
    a = arrays
    return _core.detection.MatchTable(
        a["n_thresholds"],
        a["row_offsets"],
        a["present"],
        a["score"],
        a["true_positive"],
        a["false_positive"],
        a["regular_gts"],
    )


def _plain(value: Any) -> Any:
    """A parameter as JSON-able lists (arrays and NumPy scalars as Python
    values; lists keep their ints and floats apart)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value.item() if isinstance(value, np.generic) else value


def _param_key(p: Any) -> tuple:
    key = [
        p.iouType,
        tuple(np.asarray(p.iouThrs, dtype=float)),
        tuple(np.asarray(p.recThrs, dtype=float)),
        tuple(p.maxDets),
        tuple(map(tuple, p.areaRng)),
        tuple(p.areaRngLbl),
        int(p.useCats),
        tuple(p.catIds) if p.useCats else (-1,),
    ]
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
    out-of-band buffers without copies) and convert to bytes that hold no
    pickle (:meth:`to_bytes`, :meth:`from_bytes`).

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
        If the arrays, parameters or image ids are not those of a matching
        (every constructor, unpickling and :meth:`from_bytes` check them,
        see :meth:`from_arrays`); from :meth:`merge`, for different
        parameters or a shared image; from unpickling, for a pickle of
        another state version.

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

    def __init__(self, params: Params, image_ids: np.ndarray, arrays: dict[str, np.ndarray]) -> None:
        arrays = {name: value for name, value in arrays.items() if name != "n_thresholds"}
        self.image_ids, self._arrays = _validated(params, image_ids, arrays)
        self.params = params

    @classmethod
    def _trusted(cls, params: Any, image_ids: np.ndarray, arrays: dict[str, Any]) -> DetectionState:
        """A state of arrays that a matching or a merge of valid states
        made (not checked again)."""
        state = cls.__new__(cls)
        state.params, state.image_ids, state._arrays = params, image_ids, arrays
        return state

    # -- construction --------------------------------------------------------------
    @classmethod
    def from_coco(
        cls,
        cocoGt: Any,
        cocoDt: Any,
        iouType: str = "bbox",
        *,
        imgIds: Sequence | None = None,
        params: Params | None = None,
        n_threads: int | None = None,
    ) -> DetectionState:
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
        return cls._trusted(p, image_ids, cast(Any, evaluation._evaluation).table.arrays())

    @classmethod
    def from_arrays(
        cls,
        params: Params,
        image_ids: Any,
        *,
        row_offsets: Any,
        present: Any,
        score: Any,
        true_positive: Any,
        false_positive: Any,
        regular_gts: Any,
    ) -> DetectionState:
        """A state from its arrays (those of :meth:`arrays`), validated.

        Raises
        ------
        ValueError
            Naming the field, unless: ``params`` has an ``iouType`` of
            pycocotools, finite 1-D ``iouThrs`` (T of them) and
            ``recThrs``, ``maxDets`` of non-negative ints, ``areaRng`` pairs
            (A of them) with one ``areaRngLbl`` each, ``useCats`` 0 or 1 and,
            with ``useCats``, ascending unique ``catIds`` (K of them; else
            K = 1); ``image_ids`` are ascending and unique (I of them);
            ``row_offsets`` (K x I + 1 blocks) start at 0, do not decrease,
            end at ``len(score)`` and give no block more than
            ``max(maxDets)`` rows; ``present`` is 0 or 1, and a block that is
            not present has no rows and no regular ground truths; each
            block's scores descend (NaN last, as pycocotools sorts);
            ``true_positive`` / ``false_positive`` are (A, rows, ceil(T /
            64)) words with bits only below T and never both at one
            threshold; ``regular_gts`` (A, K x I) are non-negative, sum
            within int64, and are at least the block's true positives at
            every threshold (a regular ground truth matches at most one
            detection per threshold, so recall stays within [0, 1]).
            Integer inputs must fit the dtype (no wrap-around casts).
        """
        arrays = {
            "row_offsets": row_offsets,
            "present": present,
            "score": score,
            "true_positive": true_positive,
            "false_positive": false_positive,
            "regular_gts": regular_gts,
        }
        return cls(params, image_ids, arrays)

    def arrays(self) -> dict[str, np.ndarray]:
        """The state's arrays: ``row_offsets`` (blocks + 1; blocks are
        category-major over the sorted images), ``present``, ``score`` (per
        kept detection), ``true_positive`` / ``false_positive`` (area range x
        detection x group of 64 IoU thresholds, bit masks) and
        ``regular_gts`` (area range x block)."""
        return {k: v for k, v in self._arrays.items() if k != "n_thresholds"}

    def update(
        self, cocoGt: Any, cocoDt: Any, imgIds: Sequence | None = None, n_threads: int | None = None
    ) -> DetectionState:
        """Add the matching of more images (in place); returns self."""
        other = DetectionState.from_coco(
            cocoGt, cocoDt, self.params.iouType, imgIds=imgIds, params=self.params, n_threads=n_threads
        )
        merged = self.merge(other)
        self.params, self.image_ids, self._arrays = merged.params, merged.image_ids, merged._arrays
        return self

    # -- merging -------------------------------------------------------------------
    @property
    def n_categories(self) -> int:
        return len(self.params.catIds) if self.params.useCats else 1

    def merge(self, other: DetectionState) -> DetectionState:
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
            raise ValueError(
                "cannot merge DetectionStates evaluated with different parameters "
                f"({', '.join(_PARAM_FIELDS)} must be equal)"
            )
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
        starts = np.concatenate(
            [
                mine["row_offsets"][:-1].reshape(K, I_mine),
                theirs["row_offsets"][:-1].reshape(K, I_theirs) + mine["row_offsets"][-1],
            ],
            axis=1,
        )[:, order].ravel()
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
        return DetectionState._trusted(params, image_ids, arrays)

    def __add__(self, other: DetectionState) -> DetectionState:
        return self.merge(other)

    # -- results -------------------------------------------------------------------
    def _table(self) -> Any:
        return _match_table(self._arrays)

    def accumulate(self, *, n_threads: int | None = None) -> dict[str, Any]:
        """The ``eval`` dict (``precision``, ``recall``, ``scores``, ...) of
        a ``COCOeval`` over the state's images."""
        p = copy.deepcopy(self.params)
        p.imgIds = list(self.image_ids)
        return accumulate_table(self._table(), copy.deepcopy(p), p, resolve_threads(n_threads))

    def summarize(self, *, n_threads: int | None = None) -> np.ndarray:
        """Print pycocotools' summary of the state's images and return
        ``stats``."""
        return summarize(self.accumulate(n_threads=n_threads), self.params)

    # -- pickling ------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return {"version": _VERSION, "params": vars(self.params), "image_ids": self.image_ids, "arrays": self._arrays}

    def __setstate__(self, state: dict[str, Any]) -> None:
        check_version(state, "DetectionState", _VERSION)
        fields: dict[str, Any] = {name: state.get(name) for name in ("params", "image_ids", "arrays")}
        for name in ("params", "arrays"):
            if not isinstance(fields[name], dict) or not all(isinstance(key, str) for key in fields[name]):
                _refuse(name, "the pickle does not hold a dict of them")
        params = Params.__new__(Params)
        params.__dict__.update(fields["params"])
        arrays = dict(fields["arrays"])
        if arrays.pop("n_thresholds", None) != len(_vector(params, "iouThrs")):
            _refuse("n_thresholds", "the pickle's count disagrees with params.iouThrs")
        self.__init__(params, fields["image_ids"], arrays)  # type: ignore[misc]  # unpickling re-initialises in place

    # -- bytes ---------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The state as versioned bytes that hold only arrays and JSON (no
        pickle): see ``DetectionState`` in docs/guide/coco.md for the layout.
        :meth:`from_bytes` reads them back, accumulating to the same bits."""
        p = self.params
        fields = {name: _plain(getattr(p, name)) for name in _PARAM_FIELDS}
        if p.iouType == "keypoints":
            fields["kpt_oks_sigmas"] = _plain(p.kpt_oks_sigmas)
        return dump_state(
            "DetectionState", _VERSION, {"params": fields}, {"image_ids": self.image_ids, **self.arrays()}
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> DetectionState:
        """The state :meth:`to_bytes` wrote, validated as :meth:`from_arrays`
        validates; nothing is unpickled.

        Raises
        ------
        TypeError
            If ``data`` is not bytes.
        ValueError
            If the bytes are not such a state (truncated, altered, another
            kind, format or version), or the state they hold is not valid.
        """
        fields, arrays = load_state(data, "DetectionState", _VERSION)
        stored: Any = fields.get("params")
        if not isinstance(stored, dict) or set(stored) - set(_PARAM_FIELDS) - {"kpt_oks_sigmas"}:
            _refuse("params", "the bytes do not hold the evaluation parameters")
        params = Params.__new__(Params)
        params.__dict__.update(stored)
        params.useSegm = None
        for name in ("iouThrs", "recThrs", "kpt_oks_sigmas"):
            if name in stored:
                setattr(params, name, _vector(params, name).astype(np.float64))
        if "image_ids" not in arrays:
            _refuse("image_ids", "missing from the bytes")
        image_ids = arrays.pop("image_ids")
        state = cls(params, image_ids, arrays)
        params.imgIds = list(state.image_ids)
        return state

    def __repr__(self) -> str:
        return (
            f"DetectionState(iouType={self.params.iouType!r}, images={len(self.image_ids)}, "
            f"categories={self.n_categories}, detections={int(self._arrays['row_offsets'][-1])})"
        )
