"""The confusion matrix of label maps: the segmentation area's primitive.

The maps are read in place where their layout allows: every axis that can
be merged with the next one in both maps is, and the rest must fit the
kernel's (images, rows, columns) view; any other layout is copied once.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral
from typing import Any

import numpy as np

from .. import _core
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, Constraint, validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import as_array

#: The largest ``num_classes``: the kernel's cell indices fit in 32 bits.
MAX_CLASSES = 65535

_KERNEL_DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.int32), np.dtype(np.int64))

_CONSTRAINTS = {
    "y_true": [ARRAY_LIKE],
    "y_pred": [ARRAY_LIKE],
    "num_classes": [
        Constraint(
            f"an int in the range [1, {MAX_CLASSES}]",
            lambda value: isinstance(value, Integral) and not isinstance(value, bool) and 0 < int(value) <= MAX_CLASSES,
        )
    ],
    "ignore_index": [
        NONE,
        Constraint("an int", lambda value: isinstance(value, Integral) and not isinstance(value, (bool, np.bool_))),
    ],
    "per_image": [BOOLEAN],
    "reduce_zero_label": [BOOLEAN],
    "label_map": [NONE, Constraint("a dict of int to int", lambda value: isinstance(value, Mapping))],
    "n_threads": [NONE, Constraint("an int", lambda value: isinstance(value, Integral))],
}


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    per_image: bool = False,
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> np.ndarray:
    """Confusion counts of two label maps: ``C[i, j]`` is the number of
    pixels whose true label is ``i`` and predicted label is ``j``.

    Parameters
    ----------
    y_true, y_pred : array-like of int, same shape
        Label maps of any dimension: one 2-D map, a 3-D volume, a batch.
        uint8 (and bool), uint16, int32 and int64 maps are read in place,
        strided and read-only ones included, as are torch CPU tensors; int8
        and int16 maps are read as int32, uint32 and uint64 maps as int64
        (one copy). Other dtypes raise TypeError.
    num_classes : int
        K, the number of classes: labels are 0 .. K - 1 (at most 65535).
    ignore_index : int, default=None
        Pixels whose true label is this value are skipped, whatever their
        prediction (as mmsegmentation, torchmetrics and MONAI mask them).
    per_image : bool, default=False
        One table per image, the first axis being the image (``y_true``
        must then have at least two dimensions).
    reduce_zero_label : bool, default=False
        mmsegmentation's option for datasets whose label 0 is background:
        true label 0 becomes 255 and every other true label ``k`` becomes
        ``k - 1`` (255 stays 255), applied to ``y_true`` before
        ``label_map``, in mmsegmentation 1.x's order (``LoadAnnotations``).
        Usually paired with ``ignore_index=255``.
    label_map : dict of int to int, default=None
        mmsegmentation's relabelling of the true labels (old to new, all at
        once, on the labels after ``reduce_zero_label``).
    n_threads : int, default=None
        Threads for the counting pass. The counts are integers, the same
        for every thread count.

    Returns
    -------
    ndarray of int64, shape (K, K), or (n_images, K, K) with ``per_image``
        Rows are true labels, columns predicted ones.

    Raises
    ------
    ValueError
        When the shapes differ, or when a pixel that is not ignored holds a
        true or predicted label outside [0, K): the message names the first
        such pixel in C order, and no counts are returned.
    TypeError
        For maps that are not integer (or bool) arrays.

    Notes
    -----
    One pass over the maps, at about a nanosecond per pixel and core or
    less (docs/guide/segmentation.md has the measurements). Peak memory
    beyond the output: per thread, K^2 + 1 32-bit cells (four copies up to
    256 classes, two up to 1,000), K^2 + 1 16-bit cells from 91 to 1,000
    classes, and K^2 + 1 int64 totals (for 150 classes 585 KB);
    ``reduce_zero_label`` and ``label_map`` make one relabelled copy of
    ``y_true``, as mmsegmentation does.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([[0, 0, 1], [1, 2, 255]], dtype=np.uint8)
    >>> y_pred = np.array([[0, 1, 1], [1, 2, 0]], dtype=np.uint8)
    >>> tm.segmentation.confusion_matrix(y_true, y_pred, num_classes=3, ignore_index=255)
    array([[1, 1, 0],
           [0, 2, 0],
           [0, 0, 1]])
    """
    true_map, pred_map = _label_map(y_true, "y_true"), _label_map(y_pred, "y_pred")
    if true_map.shape != pred_map.shape:
        raise ValueError(f"y_true and y_pred have different shapes: {true_map.shape} and {pred_map.shape}.")
    if per_image and true_map.ndim < 2:
        raise ValueError(f"per_image=True needs maps whose first axis is the image; got shape {true_map.shape}.")
    if reduce_zero_label or label_map is not None:
        true_map = _relabelled(true_map, reduce_zero_label, label_map)
    k = int(num_classes)
    shape = (true_map.shape[0], k, k) if per_image else (k, k)
    if true_map.size == 0:
        return np.zeros(shape, dtype=np.int64)
    true_view, pred_view = _kernel_views(_kernel_dtype(true_map), _kernel_dtype(pred_map), per_image)
    ignore = None if ignore_index is None else int(ignore_index)
    threads = threads_for(resolve_threads(n_threads), true_map.size)
    valid, counts = _core.segmentation.confusion_counts(
        true_view, pred_view, k, _kernel_ignore(ignore, true_map.dtype), bool(per_image), threads
    )
    if not valid:
        raise _first_invalid_label(true_map, pred_map, k, ignore)
    return counts


def _label_map(values: Any, name: str) -> np.ndarray:
    array = as_array(values)
    if array.size == 0 and array.dtype.kind == "f":
        return array.astype(np.int64)  # an empty list: nothing to count
    if array.dtype.kind not in "biu":
        raise TypeError(f"{name} must be a map of integer labels, got dtype {array.dtype}.")
    if array.ndim == 0:
        raise ValueError(f"{name} must be a label map of at least one dimension, got a scalar.")
    return array


def _kernel_dtype(array: np.ndarray) -> np.ndarray:
    """The map in a dtype the kernel reads, native-endian: itself (bool as
    uint8), int8 and int16 as int32, uint32 as int64, uint64 as int64 by
    two's complement (values past int64's range become negative, outside
    [0, K) either way, and stay distinct; the error names the original
    value)."""
    if array.dtype.kind == "b":
        return array.view(np.uint8)
    if array.dtype in _KERNEL_DTYPES:
        return array
    native = array.dtype.newbyteorder("=")
    if native in _KERNEL_DTYPES:
        return array.astype(native)
    return array.astype(np.int32 if native.kind == "i" and native.itemsize <= 2 else np.int64)


def _kernel_ignore(ignore: int | None, dtype: np.dtype) -> int | None:
    """The ignore value as the kernel compares it with the true labels read
    by :func:`_kernel_dtype`: for uint64 maps a value past int64's range is
    its two's complement (as the labels are), and a value no int64 holds
    skips nothing."""
    if ignore is None:
        return None
    if dtype.kind == "u" and dtype.itemsize == 8 and 2**63 <= ignore < 2**64:
        return ignore - 2**64
    return ignore if -(2**63) <= ignore < 2**63 else None


def _relabelled(y_true: np.ndarray, reduce_zero_label: bool, label_map: Mapping[int, int] | None) -> np.ndarray:
    """mmsegmentation 1.x's ``LoadAnnotations``: ``reduce_zero_label`` (0 to
    255, k to k - 1, then 254 back to 255), then ``label_map`` (every old
    label at once), on a copy of the true labels (int64)."""
    labels = y_true.astype(np.int64)
    if reduce_zero_label:
        labels[labels == 0] = 255
        labels -= 1
        labels[labels == 254] = 255
    if label_map:
        before = labels.copy()
        for old, new in label_map_pairs(label_map):
            labels[before == old] = new
    return labels


def label_map_pairs(label_map: Mapping[int, int]) -> list[tuple[int, int]]:
    """The label map as sorted (old, new) int pairs, checked (TypeError for
    labels that are not ints)."""
    pairs: list[tuple[int, int]] = []
    for old, new in label_map.items():
        if not isinstance(old, Integral) or not isinstance(new, Integral):
            raise TypeError(f"label_map must map int labels to int labels; got {old!r}: {new!r}.")
        pairs.append((int(old), int(new)))
    return sorted(pairs)


def _merged_axes(shape: tuple[int, ...], strides: list[tuple[int, ...]]) -> list[tuple[int, tuple[int, ...]]]:
    """(size, strides per map) of the axes of ``shape`` after merging every
    axis with the next one where both maps allow it (size-1 axes dropped)."""
    axes = [(size, tuple(s[axis] for s in strides)) for axis, size in enumerate(shape) if size != 1]
    merged: list[tuple[int, tuple[int, ...]]] = []
    for size, step in axes:
        if merged:
            outer_size, outer_step = merged[-1]
            if all(o == i * size for o, i in zip(outer_step, step)):
                merged[-1] = (outer_size * size, step)
                continue
        merged.append((size, step))
    return merged


def _kernel_views(y_true: np.ndarray, y_pred: np.ndarray, per_image: bool) -> tuple[np.ndarray, np.ndarray]:
    """Both maps as read-only (images, rows, columns) views of their data
    (images: the first axis with ``per_image``); maps whose layout has more
    than that many unmergeable axes are copied to C order first."""
    for _ in range(2):
        maps = (y_true, y_pred)
        strides = [m.strides for m in maps]
        if per_image:
            rest = _merged_axes(y_true.shape[1:], [s[1:] for s in strides])
            head: list[tuple[int, tuple[int, ...]]] = [(y_true.shape[0], tuple(s[0] for s in strides))]
        else:
            rest = _merged_axes(y_true.shape, strides)
            head = []
        if len(head) + len(rest) <= 3:
            padding: list[tuple[int, tuple[int, ...]]] = [(1, (0, 0))] * (3 - len(head) - len(rest))
            axes = head + padding + rest
            shape = tuple(size for size, _ in axes)
            return tuple(  # type: ignore[return-value]
                np.lib.stride_tricks.as_strided(m, shape=shape, strides=[step[i] for _, step in axes], writeable=False)
                for i, m in enumerate(maps)
            )
        y_true, y_pred = np.ascontiguousarray(y_true), np.ascontiguousarray(y_pred)
    raise AssertionError("C-ordered maps always merge")  # pragma: no cover


def _first_invalid_label(y_true: np.ndarray, y_pred: np.ndarray, k: int, ignore: int | None) -> ValueError:
    """The ValueError naming the first pixel (C order) not ignored whose
    true or predicted label is outside [0, k)."""
    kept = np.ones(y_true.shape, dtype=bool) if ignore is None else y_true != ignore
    bad_true = kept & ((y_true < 0) | (y_true >= k))
    bad_pred = kept & ((y_pred < 0) | (y_pred >= k))
    first = int(np.argmax((bad_true | bad_pred).ravel()))
    where = tuple(int(i) for i in np.unravel_index(first, y_true.shape))
    name, value = ("y_true", int(y_true[where])) if bad_true[where] else ("y_pred", int(y_pred[where]))
    skipped = "" if ignore is None else f" and is not ignore_index={ignore}"
    return ValueError(f"{name} holds label {value} at index {where}, which is outside [0, {k}){skipped}.")
