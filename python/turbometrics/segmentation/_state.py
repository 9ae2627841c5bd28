"""A mergeable segmentation evaluation: the confusion counts of a stream of
label maps.

``SegmentationState`` keeps the area's primitive, the K x K int64
confusion counts (rows true), and with ``per_image=True`` also, per image in
the order they came, each class's true positives, true pixels and predicted
pixels (3 K counts per image rather than K^2: every per-image IoU, Dice,
accuracy, precision and recall is a function of them). Counts are integers,
so a merge is exact: the state of a dataset is the same whatever its split
into batches, shards and merges.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral
from typing import Any

import numpy as np

from .._common.mergeable import (
    Mergeable,
    Serialisable,
    check_counts_or_weights,
    check_keys,
    check_mergeable,
    check_merged_counts,
    part_array,
    part_bool,
    part_int,
)
from .._common.params import validate_params
from ._confusion import _CONSTRAINTS, MAX_CLASSES, confusion_matrix, label_map_pairs

_PARTS = ("num_classes", "ignore_index", "per_image", "reduce_zero_label", "label_map", "_counts", "_image_sums")
_PARAMETERS = ("num_classes", "ignore_index", "per_image", "reduce_zero_label", "label_map")


class SegmentationState(Mergeable, Serialisable):
    """Mergeable confusion counts of label maps.

    Parameters
    ----------
    num_classes : int
        K; labels are 0 .. K - 1.
    ignore_index, reduce_zero_label, label_map
        As in :func:`turbometrics.segmentation.confusion_matrix`, for every
        batch.
    per_image : bool, default=False
        Also keep each image's per-class sums (:meth:`image_sums`); every
        batch's first axis is then the image.

    Notes
    -----
    ``confusion_matrix()`` equals
    :func:`turbometrics.segmentation.confusion_matrix` of the concatenated
    batches, whatever the split and merge order. Memory: K^2 int64 counts,
    plus 3 K int64 per image with ``per_image``. Parts loaded from bytes or
    a pickle are checked: shapes, non-negative counts totalling less than
    2**62, and per-image sums that add up to the counts.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([[[0, 1], [1, 1]], [[2, 2], [0, 1]]], dtype=np.uint8)
    >>> y_pred = np.array([[[0, 1], [0, 1]], [[2, 1], [0, 1]]], dtype=np.uint8)
    >>> first = tm.segmentation.SegmentationState.from_arrays(y_true[:1], y_pred[:1], num_classes=3)
    >>> second = tm.segmentation.SegmentationState.from_arrays(y_true[1:], y_pred[1:], num_classes=3)
    >>> np.array_equal((first + second).confusion_matrix(),
    ...                tm.segmentation.confusion_matrix(y_true, y_pred, num_classes=3))
    True
    """

    _VERSION = 1

    @validate_params({name: _CONSTRAINTS[name] for name in _PARAMETERS}, bind_like_scikit_learn=False)
    def __init__(
        self,
        num_classes: int,
        *,
        ignore_index: int | None = None,
        per_image: bool = False,
        reduce_zero_label: bool = False,
        label_map: Mapping[int, int] | None = None,
    ) -> None:
        self.num_classes = int(num_classes)
        self.ignore_index = None if ignore_index is None else int(ignore_index)
        self.per_image = bool(per_image)
        self.reduce_zero_label = bool(reduce_zero_label)
        self.label_map = None if label_map is None else label_map_pairs(label_map)
        k = self.num_classes
        self._counts = np.zeros((k, k), dtype=np.int64)
        self._image_sums = np.zeros((0, 3, k), dtype=np.int64)

    # The per-image sums are the first _n_images rows of a buffer that grows
    # geometrically, so that streaming N images one update at a time copies
    # O(N) rows in all, not O(N^2).
    @property
    def _image_sums(self) -> np.ndarray:
        return self._image_buffer[: self._n_images]

    @_image_sums.setter
    def _image_sums(self, sums: np.ndarray) -> None:
        self._image_buffer, self._n_images = sums, len(sums)

    def _append_images(self, sums: np.ndarray) -> None:
        end = self._n_images + len(sums)
        if end > len(self._image_buffer):
            grown = np.empty((max(end, 2 * len(self._image_buffer)), *sums.shape[1:]), dtype=np.int64)
            grown[: self._n_images] = self._image_sums
            self._image_buffer = grown
        self._image_buffer[self._n_images : end] = sums
        self._n_images = end

    @classmethod
    def from_arrays(
        cls,
        y_true: Any,
        y_pred: Any,
        *,
        num_classes: int,
        ignore_index: int | None = None,
        per_image: bool = False,
        reduce_zero_label: bool = False,
        label_map: Mapping[int, int] | None = None,
        n_threads: int | None = None,
    ) -> SegmentationState:
        """The state of one batch (see :meth:`update`)."""
        state = cls(
            num_classes,
            ignore_index=ignore_index,
            per_image=per_image,
            reduce_zero_label=reduce_zero_label,
            label_map=label_map,
        )
        return state.update(y_true, y_pred, n_threads=n_threads)

    @classmethod
    def from_counts(cls, counts: Any) -> SegmentationState:
        """The state of confusion counts computed elsewhere, so that the
        metrics (:meth:`score`) can be taken from a counts array.

        Parameters
        ----------
        counts : array-like of int, shape (K, K) or (n_images, K, K)
            Rows true, columns predicted, as
            :func:`turbometrics.segmentation.confusion_matrix` returns them;
            per-image counts give a state with ``per_image=True``.

        Raises
        ------
        ValueError
            For counts that are not integers, not square tables, negative,
            or totalling 2**62 or more.

        Examples
        --------
        >>> import numpy as np
        >>> from turbometrics.segmentation import SegmentationState
        >>> state = SegmentationState.from_counts(np.array([[3, 1], [0, 4]]))
        >>> state.score("iou", average=None)
        array([0.75, 0.8 ])
        """
        array = np.asarray(counts)
        if array.dtype.kind not in "iu" or array.ndim not in (2, 3) or array.shape[-1] != array.shape[-2]:
            raise ValueError(
                f"counts must be a (K, K) or (n_images, K, K) array of int counts; got {array.dtype} of {array.shape}."
            )
        if array.dtype.kind == "u" and array.size and int(array.max()) >= 2**62:
            raise ValueError("counts must total less than 2**62.")
        if array.dtype.kind == "i" and array.size and int(array.min()) < 0:
            raise ValueError(f"counts must be non-negative; got {int(array.min())}.")
        array = array.astype(np.int64)
        per_image = array.ndim == 3
        k = array.shape[-1]
        parts = {
            "num_classes": k,
            "ignore_index": None,
            "per_image": per_image,
            "reduce_zero_label": False,
            "label_map": None,
            "_counts": array.sum(axis=0) if per_image else array,
            "_image_sums": _image_sums(array) if per_image else np.zeros((0, 3, k), dtype=np.int64),
        }
        return cls._from_parts(parts)

    def update(self, y_true: Any, y_pred: Any, *, n_threads: int | None = None) -> SegmentationState:
        """Add a batch of label maps in place and return self.

        Parameters
        ----------
        y_true, y_pred : array-like of int, same shape
            As :func:`turbometrics.segmentation.confusion_matrix` reads them;
            with ``per_image`` the first axis is the image.
        n_threads : int, default=None
            Threads for the counting pass; the state is the same for every
            count.

        Raises
        ------
        ValueError, TypeError
            As :func:`turbometrics.segmentation.confusion_matrix`; the state
            is then unchanged.
        """
        counts = confusion_matrix(
            y_true,
            y_pred,
            num_classes=self.num_classes,
            ignore_index=self.ignore_index,
            per_image=self.per_image,
            reduce_zero_label=self.reduce_zero_label,
            label_map=None if self.label_map is None else dict(self.label_map),
            n_threads=n_threads,
        )
        if self.per_image:
            sums = _image_sums(counts)
            check_merged_counts("SegmentationState", self._counts, sums[:, 1])
            self._counts = self._counts + counts.sum(axis=0)
            self._append_images(sums)
        else:
            check_merged_counts("SegmentationState", self._counts, counts)
            self._counts = self._counts + counts
        return self

    # -- merging ---------------------------------------------------------------------
    def merge(self, other: SegmentationState) -> SegmentationState:
        """A new state holding the images of both, ``self``'s first (exact).

        Raises
        ------
        TypeError
            If ``other`` is not a SegmentationState.
        ValueError
            If their parameters differ, or the merged counts would total
            2**62 or more.
        """
        check_mergeable(self, other, _PARAMETERS)
        check_merged_counts("SegmentationState", self._counts, other._counts)
        out = SegmentationState.__new__(SegmentationState)
        out.__dict__.update({name: getattr(self, name) for name in _PARAMETERS})
        out._counts = self._counts + other._counts
        out._image_sums = np.concatenate([self._image_sums, other._image_sums])
        return out

    # -- results ---------------------------------------------------------------------
    def confusion_matrix(self) -> np.ndarray:
        """The K x K int64 counts, rows true, columns predicted (a copy)."""
        return self._counts.copy()

    def image_sums(self) -> np.ndarray:
        """Per image and class, shape (n_images, 3, K) int64: the true
        positives (pixels of the class predicted as it), the true pixels of
        the class and the pixels predicted as it (a copy; no images unless
        ``per_image``)."""
        return self._image_sums.copy()

    _METRICS = ("iou", "dice", "precision", "recall", "fbeta", "class_accuracy", "pixel_accuracy", "generalized_dice")

    def score(
        self,
        metric: str,
        *,
        average: str | None = "macro",
        aggregate: str = "dataset",
        empty: Any = "nan",
        beta: float = 1.0,
        weight_type: str = "square",
    ) -> Any:
        """A metric of the state's counts: the number the function of the
        same name (:func:`turbometrics.segmentation.iou`, ...) gives for the
        concatenated batches, bit for bit, whatever the split and merges.

        Parameters
        ----------
        metric : {"iou", "dice", "precision", "recall", "fbeta", \
"class_accuracy", "pixel_accuracy", "generalized_dice"}
            The function's name.
        average, aggregate, empty
            As in the functions (``average`` is not read by
            ``"pixel_accuracy"`` and ``"generalized_dice"``).
            ``aggregate="image"`` and ``"none"`` need ``per_image=True``.
        beta : float, default=1.0
            For ``"fbeta"``.
        weight_type : {"square", "simple", "linear"}, default="square"
            For ``"generalized_dice"``.

        Raises
        ------
        ValueError
            For an unknown metric, or per-image aggregation of a state
            without per-image sums.

        Examples
        --------
        >>> import numpy as np
        >>> from turbometrics.segmentation import SegmentationState, iou
        >>> y_true = np.array([[[0, 1], [1, 1]], [[2, 2], [0, 1]]], dtype=np.uint8)
        >>> y_pred = np.array([[[0, 1], [0, 1]], [[2, 1], [0, 1]]], dtype=np.uint8)
        >>> state = SegmentationState.from_arrays(y_true, y_pred, num_classes=3, per_image=True)
        >>> state.score("iou", aggregate="image") == iou(y_true, y_pred, num_classes=3, aggregate="image")
        True
        """
        from . import _metrics
        from ._conventions import check_scoring

        check_scoring(
            "SegmentationState.score",
            average=average,
            aggregate=aggregate,
            empty=empty,
            beta=beta,
            weight_type=weight_type,
        )
        if metric not in self._METRICS:
            raise ValueError(f"metric must be one of {', '.join(self._METRICS)}; got {metric!r}.")
        if aggregate == "dataset":
            sums = _image_sums(self._counts[None])
        elif not self.per_image:
            raise ValueError(f"aggregate={aggregate!r} needs a state made with per_image=True.")
        elif len(self._image_sums) == 0:
            raise ValueError("aggregate='image' or 'none' needs at least one image; got 0 images.")
        else:
            sums = self._image_sums
        name = "recall" if metric == "class_accuracy" else metric
        return _metrics.score(
            name, sums, aggregate=aggregate, average=average, empty=empty, beta=beta, weight_type=weight_type
        )

    # -- serialisation -------------------------------------------------------------
    def _parts(self) -> dict[str, Any]:
        """The state's parts (see :class:`Serialisable`); ``label_map`` as
        a list of [old, new] pairs."""
        return {
            "num_classes": self.num_classes,
            "ignore_index": self.ignore_index,
            "per_image": self.per_image,
            "reduce_zero_label": self.reduce_zero_label,
            "label_map": None if self.label_map is None else [list(pair) for pair in self.label_map],
            "_counts": self._counts,
            "_image_sums": self._image_sums,
        }

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> SegmentationState:
        """The state of validated parts: the parameters as the constructor
        checks them, K x K non-negative int64 counts totalling less than
        2**62, and per-image sums (none unless ``per_image``) of
        non-negative counts with true positives at most the true and
        predicted pixels, adding up to the counts' diagonal, row sums and
        column sums."""
        check_keys("SegmentationState", parts, _PARTS)
        k = part_int(parts, "num_classes", low=1, high=MAX_CLASSES)
        ignore = parts["ignore_index"]
        if ignore is not None and (isinstance(ignore, (bool, np.bool_)) or not isinstance(ignore, Integral)):
            raise ValueError(f"ignore_index must be None or an int, got {ignore!r}")
        pairs = parts["label_map"]
        if pairs is not None and (
            not isinstance(pairs, list)
            or not all(isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in pairs)
            or not all(isinstance(v, Integral) and not isinstance(v, bool) for pair in pairs for v in pair)
        ):
            raise ValueError(f"label_map must be None or a list of [int, int] pairs, got {pairs!r}")
        state = cls(
            k,
            ignore_index=None if ignore is None else int(ignore),
            per_image=part_bool(parts, "per_image"),
            reduce_zero_label=part_bool(parts, "reduce_zero_label"),
            label_map=None if pairs is None else {int(old): int(new) for old, new in pairs},
        )
        counts = part_array(parts, "_counts", "i", 2)
        if counts.shape != (k, k):
            raise ValueError(f"_counts must have shape ({k}, {k}), got {counts.shape}")
        check_counts_or_weights("_counts", counts)
        sums = part_array(parts, "_image_sums", "i", 3)
        if sums.shape[1:] != (3, k) or (not state.per_image and sums.shape[0]):
            raise ValueError(f"_image_sums must have shape (n_images, 3, {k}), and no images unless per_image")
        if sums.size and (sums.min() < 0 or np.any(sums[:, 0] > np.minimum(sums[:, 1], sums[:, 2]))):
            raise ValueError("_image_sums must be non-negative, true positives at most the true and predicted pixels")
        if state.per_image and not np.array_equal(sums.sum(axis=0), _image_sums(counts[None])[0]):
            raise ValueError("_image_sums must add up to the diagonal, row and column sums of _counts")
        state._counts, state._image_sums = counts, sums
        return state

    def __repr__(self) -> str:
        images = f", n_images={len(self._image_sums)}" if self.per_image else ""
        return f"SegmentationState(num_classes={self.num_classes}, n_pixels={int(self._counts.sum())}{images})"


def _image_sums(counts: np.ndarray) -> np.ndarray:
    """(n, 3, K) int64 of (n, K, K) counts: the diagonal, the row sums (true
    pixels) and the column sums (predicted pixels)."""
    return np.stack([np.diagonal(counts, axis1=1, axis2=2), counts.sum(axis=2), counts.sum(axis=1)], axis=1)
