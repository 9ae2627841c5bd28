"""Scores from per-class sums: the arithmetic every segmentation metric
shares, in float64 from exact int64 counts.

Every score here is a function of three int64 sums per class (and image):
the true positives ``tp``, the true pixels ``t`` and the predicted pixels
``p`` (``SegmentationState.image_sums``' layout, ``(n, 3, K)``). They come
from the confusion counts of the label maps (or, for one-hot inputs of the
drop-ins, from the channels' sums); nothing here counts pixels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The per-class scores, as (numerator, denominator) of tp, t, p and beta.
RATIO_METRICS = ("iou", "dice", "precision", "recall", "fbeta")


def ratio_terms(metric: str, sums: np.ndarray, beta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Numerator and denominator of ``metric`` per image and class (float64,
    shape (n, K)): IoU ``tp / (t + p - tp)``, Dice ``2 tp / (t + p)``,
    precision ``tp / p``, recall ``tp / t`` and F-beta
    ``(1 + beta^2) tp / (beta^2 t + p)``. The int64 sums are exact; the
    conversion to float64 is exact below 2**53 pixels."""
    tp, t, p = (sums[:, i].astype(np.float64) for i in range(3))
    if metric == "iou":
        return tp, t + p - tp
    if metric == "dice":
        return 2.0 * tp, t + p
    if metric == "precision":
        return tp, p
    if metric == "recall":
        return tp, t
    if metric == "fbeta":
        b2 = float(beta) ** 2
        return (1.0 + b2) * tp, b2 * t + p
    raise AssertionError(metric)  # pragma: no cover


def divide(numerator: np.ndarray, denominator: np.ndarray, empty: Any, no_true: np.ndarray | None = None) -> np.ndarray:
    """``numerator / denominator``, with ``empty`` where the denominator is 0
    (``"nan"``: NaN; a number: that number; ``"no_true"``: NaN where
    ``no_true`` holds, the class having no true pixels, and NaN for any
    other zero denominator)."""
    zero = denominator == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / np.where(zero, 1.0, denominator)
    if empty == "no_true":
        assert no_true is not None
        out[zero | no_true] = np.nan
    else:
        out[zero] = np.nan if empty == "nan" else float(empty)
    return out


def nanmean(values: np.ndarray, axis: int) -> np.ndarray:
    """The mean of the values that are not NaN along ``axis`` (NaN where all
    are), without NumPy's warning."""
    valid = ~np.isnan(values)
    count = valid.sum(axis=axis)
    total = np.where(valid, values, 0.0).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def class_average(metric: str, sums: np.ndarray, *, average: str | None, empty: Any, beta: float = 1.0) -> np.ndarray:
    """Per image, the classes' scores combined by ``average`` (shape (n,)),
    or the per-class scores (``None``: shape (n, K)).

    ``"macro"``: the mean over the classes whose score is not NaN (NaN when
    none is). ``"micro"``: numerators and denominators summed over the
    classes first. ``"weighted"``: the scores weighted by the classes'
    true pixels, NaN scores counting 0 (NaN when every score is NaN), as
    torchmetrics' ``dice_score(average="weighted")``.
    """
    numerator, denominator = ratio_terms(metric, sums, beta)
    no_true = sums[:, 1] == 0
    if average == "micro":
        return divide(numerator.sum(axis=1), denominator.sum(axis=1), empty, no_true.all(axis=1))
    scores = divide(numerator, denominator, empty, no_true)
    if average is None:
        return scores
    if average == "macro":
        return nanmean(scores, axis=1)
    support = sums[:, 1].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        products = scores * (support / support.sum(axis=1, keepdims=True))
    weighted = np.where(np.isnan(products), 0.0, products).sum(axis=1)
    weighted[np.isnan(scores).all(axis=1)] = np.nan
    return weighted


def pixel_accuracy(sums: np.ndarray, empty: Any) -> np.ndarray:
    """Per image, the correctly labelled pixels over the pixels counted
    (those not ignored): ``sum(tp) / sum(t)`` (shape (n,))."""
    tp, t = sums[:, 0].sum(axis=1), sums[:, 1].sum(axis=1)
    return divide(tp.astype(np.float64), t.astype(np.float64), "nan" if empty == "no_true" else empty)


def generalized_dice_weights(true_pixels: np.ndarray, weight_type: str) -> np.ndarray:
    """The class weights of generalised Dice, per image (shape (n, K)):
    ``1 / t^2`` (``"square"``), ``1 / t`` (``"simple"``) or ``1`` (any
    other: torchmetrics' ``"linear"``, MONAI's ``"uniform"``), ``t`` the
    class's true pixels (float64). A class without true pixels would weigh
    infinitely: its weight is the largest finite weight of the image (1 when
    there is none), as MONAI's ``compute_generalized_dice`` does."""
    t = true_pixels
    with np.errstate(divide="ignore"):
        weights = 1.0 / (t * t) if weight_type == "square" else 1.0 / t if weight_type == "simple" else np.ones_like(t)
    infinite = np.isinf(weights)
    finite_max = np.where(infinite, 0.0, weights).max(axis=1, keepdims=True)
    return np.where(infinite, np.where(finite_max > 0, finite_max, 1.0), weights)


def generalized_dice(sums: np.ndarray, weight_type: str, empty: Any) -> np.ndarray:
    """Per image, Sudre et al.'s generalised Dice
    ``2 sum(w tp) / sum(w (t + p))`` with the weights of
    :func:`generalized_dice_weights` (shape (n,))."""
    tp, t, p = (sums[:, i].astype(np.float64) for i in range(3))
    weights = generalized_dice_weights(t, weight_type)
    numerator = 2.0 * (weights * tp).sum(axis=1)
    denominator = (weights * (t + p)).sum(axis=1)
    return divide(numerator, denominator, "nan" if empty == "no_true" else empty)


def aggregated(per_image: np.ndarray, aggregate: str) -> Any:
    """The per-image scores (n,) or (n, K) of ``aggregate="image"`` averaged
    over the images that are not NaN, per class for (n, K); ``"none"``
    returns them as they are; a 0-d result as a float."""
    result = nanmean(per_image, axis=0) if aggregate == "image" else per_image
    return float(result) if np.ndim(result) == 0 else result


def score(
    metric: str,
    sums: np.ndarray,
    *,
    aggregate: str,
    average: str | None = "macro",
    empty: Any = "nan",
    beta: float = 1.0,
    weight_type: str = "square",
) -> Any:
    """The score ``metric`` of per-image sums (n, 3, K) int64: with
    ``aggregate="dataset"`` the images' sums are added first (exact), with
    ``"image"`` the images' scores are averaged, with ``"none"`` they are
    returned. A float for one value, else a float64 array."""
    if aggregate == "dataset":
        sums = sums.sum(axis=0, keepdims=True)
    if metric == "pixel_accuracy":
        per_image = pixel_accuracy(sums, empty)
    elif metric == "generalized_dice":
        per_image = generalized_dice(sums, weight_type, empty)
    else:
        per_image = class_average(metric, sums, average=average, empty=empty, beta=beta)
    if aggregate == "dataset":
        result = per_image[0]
        return float(result) if np.ndim(result) == 0 else result
    return aggregated(per_image, aggregate)
