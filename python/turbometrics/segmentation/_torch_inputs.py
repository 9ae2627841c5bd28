"""Per-image class sums of the drop-ins' torch inputs: label maps through
:func:`~turbometrics.segmentation.confusion_matrix`, binary one-hot
(B, C, ...) tensors by counting each channel (a one-hot tensor may set
several channels of a pixel, or none, so it has no confusion matrix).

torch is imported only when a drop-in is called; it is optional.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._confusion import MAX_CLASSES, confusion_matrix
from ._state import _image_sums


def torch_module() -> Any:
    """torch, or an ImportError saying that the drop-ins need it."""
    try:
        import torch
    except ImportError as error:  # pragma: no cover - torch is installed where these are tested
        raise ImportError("the torchmetrics and MONAI drop-ins need torch (pip install torch)") from error
    return torch


def as_numpy(tensor: Any, name: str) -> np.ndarray:
    """A torch tensor (CPU, detached) or array-like as a NumPy array."""
    if hasattr(tensor, "detach"):
        tensor = tensor.detach().cpu()
        if tensor.dtype.is_floating_point and str(tensor.dtype) in ("torch.bfloat16", "torch.float16"):
            tensor = tensor.float()
        return np.asarray(tensor.numpy())
    array = np.asarray(tensor)
    if array.dtype == object:
        raise TypeError(f"{name} must be a tensor of numbers, got {type(tensor).__name__}.")
    return array


def label_sums(target: np.ndarray, preds: np.ndarray, num_classes: int, ignore_index: int | None = None) -> np.ndarray:
    """(B, 3, K) int64 sums of (B, ...) label maps, the first axis the image."""
    counts = confusion_matrix(target, preds, num_classes=num_classes, ignore_index=ignore_index, per_image=True)
    return _image_sums(counts)


def binary(array: np.ndarray, name: str) -> np.ndarray:
    """A one-hot array as bool, or a ValueError if it holds values other
    than 0 and 1 (these drop-ins count binarised channels)."""
    if array.dtype == np.bool_:
        return array
    as_bool = array.astype(bool)
    if not np.array_equal(as_bool, array):
        raise ValueError(f"{name} must be binarised (0 and 1 only): threshold or one-hot it first.")
    return as_bool


def one_hot_sums(target: np.ndarray, preds: np.ndarray) -> np.ndarray:
    """(B, 3, C) int64 sums of two binary (B, C, ...) one-hot arrays: per
    image and channel the pixels set in both, in ``target`` and in
    ``preds``."""
    axes = tuple(range(2, target.ndim))
    both = np.count_nonzero(target & preds, axis=axes)
    return np.stack([both, np.count_nonzero(target, axis=axes), np.count_nonzero(preds, axis=axes)], axis=1).astype(
        np.int64
    )


def one_hot(labels: np.ndarray, num_classes: int) -> np.ndarray:
    """(B, ...) labels as a bool (B, K, ...) one-hot array (labels outside
    [0, K) raise ValueError)."""
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        bad = labels.min() if labels.min() < 0 else labels.max()
        raise ValueError(f"labels must be in [0, {num_classes}); got {bad}.")
    return np.moveaxis(labels[..., None] == np.arange(num_classes), -1, 1)


def exact_one_hot_labels(array: np.ndarray) -> np.ndarray | None:
    """The (B, ...) labels of a (B, C, ...) array that is exactly one-hot
    (non-negative, one channel at 1 and the rest at 0 at every pixel), or
    None: such an input has a confusion matrix, counted in one pass."""
    if array.ndim < 3 or array.size == 0 or array.shape[1] > MAX_CLASSES or array.dtype.kind not in "biuf":
        return None
    if array.dtype.kind != "b" and array.min() < 0:
        return None
    array = np.ascontiguousarray(array)  # channels-last tensors (torch's one_hot().movedim) copied once
    total = np.int64 if array.dtype.kind in "bui" else array.dtype  # C ones sum exactly in float32 (C < 2**24)
    if not np.all(array.sum(axis=1, dtype=total) == 1) or not np.all(array.max(axis=1) == 1):
        return None  # with no negative value: exactly one channel at 1, the others 0
    labels = np.zeros(array.shape[:1] + array.shape[2:], dtype=np.uint8 if array.shape[1] <= 256 else np.int32)
    for channel in range(1, array.shape[1]):  # one pass per channel plane (argmax over axis 1 is slower)
        labels[array[:, channel] == 1] = channel
    return labels
