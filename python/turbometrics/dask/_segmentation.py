"""Segmentation over dask arrays: one SegmentationState per block of the
label maps, tree-merged (exact integer counts)."""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from functools import partial
from typing import Any

import dask
import dask.array as da
import numpy as np

from .._common.signatures import signed
from ._graph import check_split_every, tree_reduce
from ._signature import dask_signature

# NumPy maps are cut along their first axis into blocks of about this many pixels.
NUMPY_BLOCK_PIXELS = 1 << 22


def _block_state(y_true: np.ndarray, y_pred: np.ndarray, **parameters: Any) -> Any:
    from ..segmentation import SegmentationState

    n_threads = parameters.pop("n_threads")
    return SegmentationState.from_arrays(y_true, y_pred, **parameters, n_threads=n_threads)


def _as_dask_map(value: Any, name: str) -> Any:
    if isinstance(value, da.Array):
        if value.ndim == 0:
            raise ValueError(f"{name} must be a label map of at least one dimension, got a scalar.")
        return value
    array = np.asarray(value)
    if array.ndim == 0:
        raise ValueError(f"{name} must be a label map of at least one dimension, got a scalar.")
    image = math.prod(array.shape[1:])
    rows = max(1, NUMPY_BLOCK_PIXELS // max(1, image))
    return da.from_array(array, chunks=(rows,) + tuple(-1 for _ in array.shape[1:]))


def _state_signature() -> Any:
    """``SegmentationState.from_arrays``'s parameters, then ``compute`` and
    ``split_every``."""
    from ..segmentation import SegmentationState

    parameters = list(inspect.signature(SegmentationState.from_arrays).parameters.values())
    return dask_signature(parameters, "compute", "split_every")


@signed(_state_signature(), "turbometrics.dask.segmentation_state")
def segmentation_state(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None,
    per_image: bool,
    reduce_zero_label: bool,
    label_map: Mapping[int, int] | None,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
) -> Any:
    """The :class:`turbometrics.segmentation.SegmentationState` of label
    maps held in dask arrays (or NumPy arrays), built block by block and
    tree-merged: its counts equal
    :func:`turbometrics.segmentation.confusion_matrix` of the whole maps.
    The parameters and defaults are ``SegmentationState.from_arrays``'s,
    then ``compute`` and ``split_every``.

    Parameters
    ----------
    y_true, y_pred : dask array or array-like of int, same shape
        Label maps; ``y_pred`` is rechunked to ``y_true``'s blocks. NumPy
        maps are cut along the first axis into blocks of about 4M pixels.
    num_classes, ignore_index, per_image, reduce_zero_label, label_map
        As for :class:`~turbometrics.segmentation.SegmentationState`. With
        ``per_image`` the first axis is the image: blocks are made to span
        whole images (rechunked along the other axes), and the per-image
        sums come in the images' order.
    n_threads : int, default=None
        Threads per task for the counting kernel.
    compute : bool, default=True
        False returns a :class:`dask.delayed.Delayed` of the state.
    split_every : int, default=None (8)
        How many states one merge task combines.

    Raises
    ------
    ValueError
        If the maps' shapes differ, or as the state raises for a block
        (labels outside ``[0, num_classes)``, which the error names by
        their index within the block).
    """
    from ..segmentation import SegmentationState

    # the parameters are checked here, before any task runs
    SegmentationState(
        num_classes,
        ignore_index=ignore_index,
        per_image=per_image,
        reduce_zero_label=reduce_zero_label,
        label_map=label_map,
    )
    every = check_split_every(split_every)
    maps = _as_dask_map(y_true, "y_true")
    predictions = _as_dask_map(y_pred, "y_pred")
    if maps.shape != predictions.shape:
        raise ValueError(f"y_true and y_pred have different shapes: {maps.shape} and {predictions.shape}.")
    if per_image:
        if maps.ndim < 2:
            raise ValueError(f"per_image=True needs maps whose first axis is the image; got shape {maps.shape}.")
        maps = maps.rechunk({axis: -1 for axis in range(1, maps.ndim)})
    predictions = predictions.rechunk(maps.chunks)
    build = partial(
        _block_state,
        num_classes=num_classes,
        ignore_index=ignore_index,
        per_image=per_image,
        reduce_zero_label=reduce_zero_label,
        label_map=label_map,
        n_threads=n_threads,
    )
    parts = [
        dask.delayed(build, pure=True)(block, predicted)
        for block, predicted in zip(maps.to_delayed().ravel(), predictions.to_delayed().ravel())
    ]
    merged = tree_reduce(parts, every)
    return merged.compute() if compute else merged
