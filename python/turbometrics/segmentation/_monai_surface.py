"""Drop-ins for the surface distances of MONAI 1.6.1's ``monai.metrics``:
``compute_hausdorff_distance``, ``compute_average_surface_distance`` and
``compute_surface_dice``, with MONAI's signatures, one-hot (B, C, spatial)
inputs and (B, C) float32 torch tensor results.

MONAI's conventions, reproduced: an object is the pixels equal to 1 (bool
True included); its boundary is the object minus its erosion by the cross,
the image border counting as background; distances are cast to float32
before any statistic (percentiles by ``torch.quantile``, means in float32);
an empty boundary makes the distances of a direction +inf, one per pixel of
the other boundary, and a direction with no distances gives nan; MONAI's
UserWarnings name the classes whose prediction or ground truth is empty. Only the
"euclidean" distance and ``use_subvoxels=False`` are provided. torch is
imported when a function is called.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._surface_kernel import Directed, binary_distances, check_spacing
from ._torch_inputs import as_numpy

__all__ = ["compute_average_surface_distance", "compute_hausdorff_distance", "compute_surface_dice"]


def _check_metric(distance_metric: str, use_subvoxels: bool = False) -> None:
    if distance_metric != "euclidean":
        raise ValueError(f"turbometrics provides distance_metric='euclidean' only, got {distance_metric!r}.")
    if use_subvoxels:
        raise ValueError("turbometrics does not provide use_subvoxels=True.")


def _prepared(y_pred: Any, y: Any, include_background: bool) -> tuple[np.ndarray, np.ndarray]:
    """The inputs as (B, C, spatial) bool arrays (value == 1), without the
    first channel unless include_background (when there are several)."""
    pred, truth = as_numpy(y_pred, "y_pred"), as_numpy(y, "y")
    if pred.ndim < 3 or truth.ndim < 3:
        raise ValueError("y_pred and y should have at least three dimensions (batch, channel, spatial).")
    if not include_background:
        pred = pred[:, 1:] if pred.shape[1] > 1 else pred
        truth = truth[:, 1:] if truth.shape[1] > 1 else truth
    if pred.shape != truth.shape:
        raise ValueError(f"y_pred and y should have same shapes, got {pred.shape} and {truth.shape}.")
    if not 1 <= pred.ndim - 2 <= 3:
        raise ValueError(f"turbometrics provides 1 to 3 spatial dimensions, got {pred.ndim - 2}.")
    return pred == 1, truth == 1


def _spacings(spacing: Any, batch: int, img_dim: int) -> list[tuple[float, ...]]:
    """MONAI's prepare_spacing: None or a number for every image, one
    sequence of img_dim numbers for every image, or one per image."""
    if spacing is None or isinstance(spacing, (int, float)):
        return [check_spacing(spacing, img_dim)] * batch
    items = list(spacing)
    if items and isinstance(items[0], (Sequence, np.ndarray)):
        if len(items) != batch:
            raise ValueError(
                "if `spacing` is a sequence of sequences, the outer sequence should have same length as batch size "
                f"({batch}), got {spacing}."
            )
        return [check_spacing(s, img_dim) for s in items]
    return [check_spacing(items, img_dim)] * batch


def _warn_empty(d: Directed, class_index: int, warn: bool) -> None:
    """MONAI's UserWarnings for an empty ground truth or prediction."""
    if not warn:
        return
    if d.b_boundary == 0:
        warnings.warn(
            f"the ground truth of class {class_index} is all 0, this may result in nan/inf distance.", stacklevel=3
        )
    if d.a_boundary == 0:
        warnings.warn(
            f"the prediction of class {class_index} is all 0, this may result in nan/inf distance.", stacklevel=3
        )


def _sides(d: Directed, symmetric: bool) -> list[np.ndarray]:
    """MONAI's directed distance arrays (float32), its empty rules."""

    def one(n_from: int, n_to: int, values: np.ndarray) -> np.ndarray:
        if n_to == 0:
            return np.full(n_from, np.inf, dtype=np.float32)
        if n_from == 0:
            return np.full(n_to, np.inf, dtype=np.float32)
        return values.astype(np.float32)

    out = [one(d.a_boundary, d.b_boundary, d.a_to_b)]
    if symmetric:
        out.append(one(d.b_boundary, d.a_boundary, d.b_to_a))
    return out


def compute_hausdorff_distance(
    y_pred: Any,
    y: Any,
    include_background: bool = False,
    distance_metric: str = "euclidean",
    percentile: float | None = None,
    directed: bool = False,
    spacing: Any = None,
    ignore_index: int | None = None,
) -> Any:
    """MONAI's ``compute_hausdorff_distance``: per image and channel, the
    larger of the two directed Hausdorff distances (or their percentiles).

    Parameters
    ----------
    y_pred, y : torch.Tensor or ndarray, shape (B, C, spatial...)
        One-hot predictions and references (1 to 3 spatial axes).
    include_background : bool, default=False
        Keep channel 0 (dropped otherwise when there are several).
    distance_metric : {"euclidean"}
    percentile : float in [0, 100], default=None
        None or 0: the largest distance; else each direction's
        ``torch.quantile`` (linear) and the larger of the two.
    directed : bool, default=False
        Only the distances from ``y_pred``'s boundary to ``y``'s.
    spacing : float, sequence of float, or one sequence per image
        As MONAI's ``prepare_spacing``.
    ignore_index : int, default=None
        The channel (index before dropping the background) whose value is nan.

    Returns
    -------
    torch.Tensor of float32, shape (B, C)
        nan when both objects are empty, inf when one is.
    """
    import torch

    _check_metric(distance_metric)
    if percentile is not None and not 0 <= percentile <= 100:
        raise ValueError(f"percentile should be a value between 0 and 100, get {percentile}.")
    pred, truth = _prepared(y_pred, y, include_background)
    batch, n_class = pred.shape[:2]
    offset = 0 if include_background else 1
    spacings = _spacings(spacing, batch, pred.ndim - 2)
    hd = torch.empty((batch, n_class), dtype=torch.float)
    for b, c in np.ndindex(batch, n_class):
        if ignore_index is not None and c + offset == ignore_index:
            hd[b, c] = float("nan")
            continue
        d = binary_distances(pred[b, c], truth[b, c], spacings[b], 1)
        _warn_empty(d, c + offset, True)
        values = []
        for side in _sides(d, not directed):
            t = torch.from_numpy(side)
            if t.numel() == 0:
                values.append(torch.tensor(float("nan")))
            elif not percentile:
                values.append(t.max())
            else:
                values.append(torch.quantile(t, percentile / 100))
        hd[b, c] = torch.max(torch.stack(values))
    return hd


def compute_average_surface_distance(
    y_pred: Any,
    y: Any,
    include_background: bool = False,
    symmetric: bool = False,
    distance_metric: str = "euclidean",
    spacing: Any = None,
    ignore_index: int | None = None,
) -> Any:
    """MONAI's ``compute_average_surface_distance``: per image and channel,
    the float32 mean of the directed distances from ``y_pred``'s boundary
    to ``y``'s, or with ``symmetric`` of both directions pooled.

    Parameters are those of :func:`compute_hausdorff_distance`
    (``ignore_index`` only silences MONAI's warning for that class here).

    Returns
    -------
    torch.Tensor of float32, shape (B, C)
        nan when both objects are empty, inf when one is.
    """
    import torch

    _check_metric(distance_metric)
    pred, truth = _prepared(y_pred, y, include_background)
    offset = 0 if include_background else 1
    batch, n_class = pred.shape[:2]
    spacings = _spacings(spacing, batch, pred.ndim - 2)
    asd = torch.empty((batch, n_class), dtype=torch.float)
    for b, c in np.ndindex(batch, n_class):
        d = binary_distances(pred[b, c], truth[b, c], spacings[b], 1)
        _warn_empty(d, c, ignore_index is None or c + offset != ignore_index)  # MONAI names channel c here
        pooled = torch.cat([torch.from_numpy(s) for s in _sides(d, bool(symmetric))])
        asd[b, c] = float("nan") if pooled.numel() == 0 else pooled.mean()
    return asd


def compute_surface_dice(
    y_pred: Any,
    y: Any,
    class_thresholds: list[float],
    include_background: bool = False,
    distance_metric: str = "euclidean",
    spacing: Any = None,
    use_subvoxels: bool = False,
    ignore_index: int | None = None,
) -> Any:
    """MONAI's ``compute_surface_dice`` (without subvoxels): per image and
    channel, the boundary pixels of both objects within the channel's
    threshold of the other boundary (float32 distances ``<=`` the
    threshold), over all boundary pixels.

    Parameters
    ----------
    y_pred, y : torch.Tensor, shape (B, C, H, W) or (B, C, H, W, D)
    class_thresholds : list of float
        One finite threshold >= 0 per channel (after dropping background).
    ignore_index : int, default=None
        MONAI's masking: a channel index masks the pixels of that channel of
        ``y`` out of every channel; another value masks the pixels where
        ``y`` has no channel set; with one channel, the pixels equal to it.
    include_background, distance_metric, spacing
        As in :func:`compute_hausdorff_distance`.
    use_subvoxels : {False}

    Returns
    -------
    torch.Tensor of float32, shape (B, C)
        nan when both objects are empty, 0 when one is.
    """
    import torch

    _check_metric(distance_metric, use_subvoxels)
    if not isinstance(y_pred, torch.Tensor) or not isinstance(y, torch.Tensor):
        raise ValueError("y_pred and y must be PyTorch Tensor.")
    if ignore_index is not None:
        truth_all = y.float()
        if truth_all.shape[1] == 1:
            mask = (truth_all != ignore_index).float()
        elif 0 <= ignore_index < truth_all.shape[1]:
            mask = 1.0 - truth_all[:, ignore_index : ignore_index + 1]
        else:
            mask = (truth_all.sum(dim=1, keepdim=True) > 0).float()
        y_pred, y = y_pred * mask, y * mask
    if y_pred.ndimension() not in (4, 5) or y.ndimension() not in (4, 5):
        raise ValueError("y_pred and y should be one-hot encoded: [B,C,H,W] or [B,C,H,W,D].")
    pred, truth = _prepared(y_pred, y, include_background)
    batch, n_class = pred.shape[:2]
    if n_class != len(class_thresholds):
        raise ValueError(
            f"number of classes ({n_class}) does not match number of class thresholds ({len(class_thresholds)})."
        )
    thresholds = np.asarray(class_thresholds, dtype=np.float64)
    if not np.all(np.isfinite(thresholds)):
        raise ValueError("All class thresholds need to be finite.")
    if np.any(thresholds < 0):
        raise ValueError("All class thresholds need to be >= 0.")
    spacings = _spacings(spacing, batch, pred.ndim - 2)
    offset = 0 if include_background else 1
    nsd = torch.empty((batch, n_class), dtype=torch.float)
    for b, c in np.ndindex(batch, n_class):
        d = binary_distances(pred[b, c], truth[b, c], spacings[b], 1)
        _warn_empty(d, c + offset, ignore_index is None or c + offset != ignore_index)
        sides = [torch.from_numpy(s) for s in _sides(d, True)]
        complete = sum(len(s) for s in sides)
        correct = sum(int(torch.sum(s <= class_thresholds[c])) for s in sides)
        nsd[b, c] = float("nan") if complete == 0 else torch.tensor(correct) / complete
    return nsd
