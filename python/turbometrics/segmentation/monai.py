"""Drop-ins for MONAI 1.6's ``monai.metrics`` functions: the IoU and Dice
family, :func:`compute_iou`, :func:`compute_dice` and
:func:`compute_generalized_dice`, and the surface distances,
:func:`compute_hausdorff_distance`, :func:`compute_average_surface_distance`
and :func:`compute_surface_dice` (each documented with its own rules), with
MONAI's signatures, its one-hot
(B, C, ...) or label (B, 1, ...) torch inputs, its ``include_background``,
``ignore_empty`` and ``ignore_index`` rules, and (B, C) tensor results.

MONAI sums the channels in the inputs' dtype (float32 as a rule), which
stops being exact past 2**24 voxels per class; these count in int64 and
divide in float64, then return MONAI's dtype, so they agree with MONAI to
float32 rounding below that size and are exact above it. Label inputs are
counted by :func:`~turbometrics.segmentation.confusion_matrix` in one pass;
one-hot inputs channel by channel (they must hold 0 and 1 only, except
``compute_dice``'s ``y_pred``, whose non-zero values count as set, as in
MONAI). torch is imported with this module (not with
turbometrics); without torch, importing the module raises ImportError.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _metrics
from ._monai_surface import compute_average_surface_distance, compute_hausdorff_distance, compute_surface_dice
from ._torch_inputs import as_numpy, binary, exact_one_hot_labels, label_sums, torch_module

# These drop-ins take and return torch tensors: importing the module without
# torch installed raises ImportError here (turbometrics itself never imports it).
torch_module()

__all__ = [
    "compute_average_surface_distance",
    "compute_dice",
    "compute_generalized_dice",
    "compute_hausdorff_distance",
    "compute_iou",
    "compute_surface_dice",
    "get_confusion_matrix",
]


def _result(values: np.ndarray, *inputs: Any) -> Any:
    """``values`` as the tensor MONAI returns: the inputs' floating dtype,
    float32 for integer inputs."""
    torch = torch_module()
    dtypes = [x.dtype for x in inputs if hasattr(x, "dtype") and x.dtype.is_floating_point]
    dtype = torch.float32
    if dtypes:
        dtype = dtypes[0]
        for other in dtypes[1:]:
            dtype = torch.promote_types(dtype, other)
    return torch.from_numpy(np.ascontiguousarray(values, dtype=np.float64)).to(dtype)


def _masked_sums(y: np.ndarray, y_pred: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """(B, 3, C) int64: per image and channel, voxels set in both, in ``y``
    and in ``y_pred``, counting only where ``mask`` (B, 1, ...) is set."""
    if mask is not None:
        y, y_pred = y & mask, y_pred & mask
    axes = tuple(range(2, y.ndim))
    return np.stack(
        [np.count_nonzero(y & y_pred, axis=axes), np.count_nonzero(y, axis=axes), np.count_nonzero(y_pred, axis=axes)],
        axis=1,
    ).astype(np.int64)


def _ignore_mask(y: np.ndarray, ignore_index: int | None) -> np.ndarray | None:
    """MONAI's ``create_ignore_mask``: (B, 1, ...) bool of the voxels kept."""
    if ignore_index is None:
        return None
    if y.shape[1] == 1:
        return np.asarray(y != ignore_index)
    if 0 <= ignore_index < y.shape[1]:
        return np.asarray(~y[:, ignore_index : ignore_index + 1].astype(bool))
    return np.asarray(y.any(axis=1, keepdims=True))


def _empty(ignore_empty: bool) -> Any:
    return "no_true" if ignore_empty else 1.0


def _ignore_rule(n_kept: int, include_background: bool, ignore_index: int | None) -> tuple[int | None, bool]:
    """MONAI's ``ignore_index`` rule for one-hot inputs of ``n_kept``
    channels (after ``include_background``): the kept channel zeroed in
    both inputs (an index in range), and whether voxels are masked by
    :func:`_ignore_mask` instead (any other index)."""
    if ignore_index is None:
        return None, False
    if 0 <= ignore_index < n_kept + (0 if include_background else 1):
        channel = ignore_index if include_background else ignore_index - 1
        return (channel if 0 <= channel < n_kept else None), False
    return None, True


def _channel_sums(
    y_pred: Any, y: Any, include_background: bool, ignore_index: int | None
) -> tuple[np.ndarray, np.ndarray, bool]:
    """MONAI's one-hot (B, C, ...) inputs counted by its
    ``include_background`` and ``ignore_index`` rules: (B, 3, C') int64
    sums per image and kept channel, (B,) int64 voxels counted per image,
    and whether MONAI masks voxels. Exactly one-hot inputs are counted as
    label maps in one pass; others must be binarised (ValueError)."""
    pred_array, true_array = as_numpy(y_pred, "y_pred"), as_numpy(y, "y")
    voxels = np.full(true_array.shape[:1], int(np.prod(true_array.shape[2:])), dtype=np.int64)
    if pred_array.shape == true_array.shape:
        labels = exact_one_hot_labels(true_array), exact_one_hot_labels(pred_array)
        if labels[0] is not None and labels[1] is not None:  # one pass over label maps
            sums = label_sums(labels[0], labels[1], true_array.shape[1])
            if not include_background and sums.shape[2] > 1:
                sums = sums[:, :, 1:]
            channel, masked = _ignore_rule(sums.shape[2], include_background, ignore_index)
            # An exact one-hot y sets a channel everywhere, so a mask keeps
            # every voxel; except with one channel, whose values MONAI
            # compares with the index as labels (counted below).
            if not (masked and true_array.shape[1] == 1):
                if channel is not None:
                    sums[:, :, channel] = 0  # MONAI zeroes that channel in both
                return sums, voxels, masked
    original = true_array
    if not include_background:
        pred_array = pred_array[:, 1:] if pred_array.shape[1] > 1 else pred_array
        true_array = true_array[:, 1:] if true_array.shape[1] > 1 else true_array
    if true_array.shape != pred_array.shape:
        raise ValueError(f"y_pred and y should have same shapes, got {pred_array.shape} and {true_array.shape}.")
    pred_bool, true_bool = binary(pred_array, "y_pred"), binary(true_array, "y")
    channel, masked = _ignore_rule(pred_bool.shape[1], include_background, ignore_index)
    if channel is not None:
        pred_bool, true_bool = pred_bool.copy(), true_bool.copy()
        pred_bool[:, channel] = False
        true_bool[:, channel] = False
    mask = _ignore_mask(binary(original, "y"), ignore_index) if masked else None
    if mask is not None:
        voxels = np.count_nonzero(mask.reshape(len(mask), -1), axis=1).astype(np.int64)
    return _masked_sums(true_bool, pred_bool, mask), voxels, masked


def compute_iou(
    y_pred: Any,
    y: Any,
    include_background: bool = True,
    ignore_empty: bool = True,
    ignore_index: int | None = None,
) -> Any:
    """MONAI's ``compute_iou``: per image and channel,
    ``|y & y_pred| / |y | y_pred|``.

    Parameters
    ----------
    y_pred, y : torch.Tensor, shape (B, C, ...)
        Binarised one-hot tensors of one shape.
    include_background : bool, default=True
        Score channel 0 too.
    ignore_empty : bool, default=True
        NaN for a channel whose ``y`` is empty; with False, 1 when
        ``y_pred`` is empty too (else 0).
    ignore_index : int, optional
        MONAI's rule: a channel index in range zeroes that channel in both
        inputs; any other value keeps only the voxels where some channel of
        ``y`` is set.

    Returns
    -------
    torch.Tensor, shape (B, C)
        In the inputs' floating dtype (float32 for integer inputs).

    Examples
    --------
    >>> import torch
    >>> from turbometrics.segmentation.monai import compute_iou
    >>> y = torch.tensor([[[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]])
    >>> y_pred = torch.tensor([[[[1.0, 1.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]]])
    >>> compute_iou(y_pred, y)
    tensor([[0.6667, 0.5000]])
    """
    sums, _, _ = _channel_sums(y_pred, y, include_background, ignore_index)
    scores = _metrics.class_average("iou", sums, average=None, empty=_empty(ignore_empty))
    return _result(scores, y_pred, y)


def compute_dice(
    y_pred: Any,
    y: Any,
    include_background: bool = True,
    ignore_empty: bool = True,
    num_classes: int | None = None,
    per_component: bool = False,
    ignore_index: int | None = None,
) -> Any:
    """MONAI's ``compute_dice``: per image and channel,
    ``2 |y & y_pred| / (|y| + |y_pred|)``.

    Parameters
    ----------
    y_pred, y : torch.Tensor, shape (B, C, ...) or (B, 1, ...)
        One-hot channels, or label maps of one channel (then
        ``num_classes`` gives the channels); a label ``y`` may go with a
        one-hot ``y_pred``.
    include_background : bool, default=True
        Score channel 0 too.
    ignore_empty : bool, default=True
        NaN for a channel whose ``y`` is empty; with False, 1 when
        ``y_pred`` is empty too (else 0).
    num_classes : int, optional
        The channels; default ``y_pred.shape[1]``.
    per_component : bool, default=False
        Not supported here (NotImplementedError): use MONAI's.
    ignore_index : int, optional
        Voxels to leave out, by MONAI's ``create_ignore_mask`` rule: for a
        label ``y`` those holding the value, for a one-hot ``y`` those of
        that channel (an index in range) or those with no channel set.

    Returns
    -------
    torch.Tensor, shape (B, C)
        In ``y``'s floating dtype (float32 for integer ``y``).

    Examples
    --------
    >>> import torch
    >>> from turbometrics.segmentation.monai import compute_dice
    >>> y = torch.tensor([[[[0, 1], [0, 1]]]])
    >>> y_pred = torch.tensor([[[[0, 1], [1, 1]]]])
    >>> compute_dice(y_pred, y, num_classes=2)
    tensor([[0.6667, 0.8000]])
    """
    if per_component:
        raise NotImplementedError("per_component=True is not supported by turbometrics; use MONAI's compute_dice.")
    pred_array, true_array = as_numpy(y_pred, "y_pred"), as_numpy(y, "y")
    if pred_array.ndim < 2 or true_array.ndim < 2:
        raise ValueError(f"y_pred and y must be (B, C, ...) tensors, got {pred_array.shape} and {true_array.shape}.")
    if pred_array.shape == true_array.shape and pred_array.shape[1] > 1 and num_classes in (None, pred_array.shape[1]):
        labels = exact_one_hot_labels(true_array), exact_one_hot_labels(pred_array)
        if labels[0] is not None and labels[1] is not None:  # as label maps: MONAI's mask is the same
            true_array, pred_array = labels[0][:, None], labels[1][:, None]
            num_classes = y.shape[1]
    n_channels = pred_array.shape[1] if num_classes is None else int(num_classes)
    channels = list(range(0 if include_background else 1, n_channels)) if n_channels > 1 else [1]
    mask = _ignore_mask(true_array, ignore_index)
    pred_labels, true_labels = pred_array.shape[1] == 1, true_array.shape[1] == 1
    if pred_labels and true_labels and channels and pred_array.dtype.kind in "iub" and true_array.dtype.kind in "iub":
        k = max(channels) + 1
        t, p = true_array[:, 0], pred_array[:, 0]
        kept = t if mask is None else t[mask[:, 0]]
        if (kept.size == 0 or (kept.min() >= 0 and kept.max() < k)) and (p.size == 0 or (p.min() >= 0)):
            p_in = np.where(p < k, p, k)  # predicted labels past the channels count in no channel
            sums = label_sums(t, p_in, k + 1, ignore_index=None if mask is None else ignore_index)[:, :, channels]
            scores = _metrics.class_average("dice", sums, average=None, empty=_empty(ignore_empty))
            return _result(scores, y)
    pred_bool = np.stack(
        [(pred_array[:, 0] == c) if pred_labels else pred_array[:, c].astype(bool) for c in channels], axis=1
    )
    true_bool = np.stack(
        [(true_array[:, 0] == c) if true_labels else binary(true_array[:, c], "y") for c in channels], axis=1
    )
    sums = _masked_sums(true_bool, pred_bool, mask)
    scores = _metrics.class_average("dice", sums, average=None, empty=_empty(ignore_empty))
    return _result(scores, y)


def compute_generalized_dice(
    y_pred: Any,
    y: Any,
    include_background: bool = True,
    weight_type: str = "square",
    sum_over_classes: bool = False,
    ignore_index: int | None = None,
    epsilon: float = 1e-8,
) -> Any:
    """MONAI's ``compute_generalized_dice``: per image,
    ``2 sum(w tp) / sum(w (t + p))`` over the channels, ``w = 1 / t^2``
    (``"square"``), ``1 / t`` (``"simple"``) or 1 (``"uniform"``).

    A channel without voxels in ``y`` takes the largest finite weight of
    its image (1 if none). A zero denominator scores 1 (MONAI's rule).

    Parameters
    ----------
    y_pred, y : torch.Tensor, shape (B, C, ...)
        Binarised one-hot tensors of one shape (at least 3 dimensions).
    include_background : bool, default=True
    weight_type : {"square", "simple", "uniform"}, default="square"
    sum_over_classes : bool, default=False
        One score per image (B, 1) instead of per-channel terms (B, C).
    ignore_index : int, optional
        MONAI's rule: that channel is left out, and its voxels masked.
    epsilon : float, default=1e-8
        Accepted for MONAI's signature; MONAI 1.6 does not use it.

    Returns
    -------
    torch.Tensor, shape (B, C) or (B, 1)

    Examples
    --------
    >>> import torch
    >>> from turbometrics.segmentation.monai import compute_generalized_dice
    >>> y = torch.tensor([[[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]])
    >>> y_pred = torch.tensor([[[[1.0, 1.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]]])
    >>> compute_generalized_dice(y_pred, y, sum_over_classes=True)
    tensor([[0.7500]])
    """
    del epsilon
    weight = str(getattr(weight_type, "value", weight_type))
    if weight not in ("square", "simple", "uniform"):
        raise ValueError(f"Unsupported option: {weight_type!r}; available options are square, simple, uniform.")
    pred_array, true_array = as_numpy(y_pred, "y_pred"), as_numpy(y, "y")
    if pred_array.ndim < 3:
        raise ValueError(f"y_pred should have at least 3 dimensions (batch, channel, spatial), got {pred_array.ndim}.")
    if true_array.shape != pred_array.shape:
        raise ValueError(f"y_pred - {pred_array.shape} - and y - {true_array.shape} - should have the same shapes.")
    n_channels = true_array.shape[1]
    labels = exact_one_hot_labels(true_array), exact_one_hot_labels(pred_array)
    channels = list(range(n_channels))
    if not include_background:
        channels.pop(0)
    if ignore_index is not None and ignore_index in channels:
        channels.remove(ignore_index)
    if not channels:
        return _result(np.zeros((true_array.shape[0], 1)), y_pred, y)
    if labels[0] is not None and labels[1] is not None:  # one pass; MONAI's mask drops the ignored class's voxels
        ignored = ignore_index if ignore_index is not None and 0 <= ignore_index < n_channels else None
        sums = label_sums(labels[0], labels[1], n_channels, ignore_index=ignored)[:, :, channels]
    else:
        pred_bool, true_bool = binary(pred_array, "y_pred"), binary(true_array, "y")
        mask = _ignore_mask(true_bool, ignore_index)
        sums = _masked_sums(true_bool[:, channels], pred_bool[:, channels], mask)
    tp, t, p = (sums[:, i].astype(np.float64) for i in range(3))
    w = _metrics.generalized_dice_weights(t, weight)
    numerator, denominator = 2.0 * tp * w, (t + p) * w
    if sum_over_classes:
        numerator, denominator = numerator.sum(axis=1, keepdims=True), denominator.sum(axis=1, keepdims=True)
    return _result(_metrics.divide(numerator, denominator, 1.0), y_pred, y)


def get_confusion_matrix(y_pred: Any, y: Any, include_background: bool = True, ignore_index: int | None = None) -> Any:
    """MONAI's ``get_confusion_matrix``: per image and channel, the true
    positives, false positives, true negatives and false negatives of
    binarised one-hot tensors.

    Counted in int64 (exactly one-hot inputs in one pass over their labels,
    others channel by channel), then combined in float32 as MONAI does:
    ``tp``, ``tn`` and the positives ``t`` rounded to float32, the negatives
    ``n = voxels - t``, ``fn = t - tp`` and ``fp = n - tn`` in float32
    arithmetic. Bit for bit MONAI's below 2**24 voxels per image; above,
    the counts are correctly rounded where MONAI's float32 sums of float
    channels may drift.

    Parameters
    ----------
    y_pred, y : torch.Tensor, shape (B, C, ...)
        Binarised one-hot tensors (0 and 1 only: other values raise
        ValueError, where MONAI would count sums of values, not voxels).
    include_background : bool, default=True
        Count channel 0 too (when there is more than one channel).
    ignore_index : int, optional
        MONAI's rule: an index of a kept channel zeroes that channel in
        both inputs (its ``tn`` is then every voxel); any other value
        counts only the voxels where some channel of ``y`` is set (for a
        one-channel ``y``: where ``y`` differs from the value).

    Returns
    -------
    torch.Tensor of float32, shape (B, C, 4)
        ``tp, fp, tn, fn`` along the last axis. As in MONAI, two bool
        tensors without a voxel mask give ``tp = 0`` and ``fn = t`` (torch
        adds bools as a logical or, so MONAI's ``y_pred + y == 2`` never
        holds).

    Raises
    ------
    ValueError
        When the shapes differ (after ``include_background``), or a
        tensor holds values other than 0 and 1.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.segmentation.monai import get_confusion_matrix
    >>> y = torch.tensor([[[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]])
    >>> y_pred = torch.tensor([[[[1.0, 1.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]]])
    >>> get_confusion_matrix(y_pred, y)
    tensor([[[2., 1., 1., 0.],
             [1., 0., 2., 1.]]])
    """
    torch = torch_module()
    sums, voxels, masked = _channel_sums(y_pred, y, include_background, ignore_index)
    tp, t, p = sums[:, 0], sums[:, 1], sums[:, 2]
    tn = voxels[:, None] - t - p + tp
    if not masked and as_numpy(y_pred, "y_pred").dtype == np.bool_ and as_numpy(y, "y").dtype == np.bool_:
        tp = np.zeros_like(tp)
    tp32, tn32, t32 = tp.astype(np.float32), tn.astype(np.float32), t.astype(np.float32)
    n32 = voxels.astype(np.float32)[:, None] - t32
    return torch.from_numpy(np.stack([tp32, n32 - tn32, tn32, t32 - tp32], axis=-1))
