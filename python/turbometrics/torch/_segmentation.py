"""torchmetrics' segmentation classes ``MeanIoU`` and ``DiceScore``
(``torchmetrics.segmentation``) over a per-image
:class:`~turbometrics.segmentation.SegmentationState`: each image's
per-class sums are exact int64 counts, the scores are computed from them in
float64 (torchmetrics sums float32 scores)."""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
import torch

from ..segmentation import SegmentationState, check_dice_options, check_format_options, class_average, nanmean
from ._inputs import host_pair
from ._metric import ExactMetric


def _labels_of_one_hot(array: np.ndarray, name: str) -> np.ndarray:
    """The label map of a (N, C, ...) one-hot tensor: the argmax of float
    scores (as torchmetrics reads them), or of integer channels with
    exactly one channel set per pixel."""
    if array.ndim < 2:
        raise ValueError(f"Expected `{name}` in one-hot format (N, C, ...), got shape {tuple(array.shape)}.")
    if array.dtype.kind != "f":
        set_channels = (array != 0).sum(axis=1)
        if array.size and (((array != 0) & (array != 1)).any() or (set_channels != 1).any()):
            raise ValueError(
                f"`{name}` holds integer one-hot channels with a pixel of none or several classes, which a "
                "confusion-count state cannot hold: pass class indices (input_format='index') or scores."
            )
    return array.argmax(axis=1)


def _label_maps(preds: Any, target: Any, input_format: str) -> tuple[np.ndarray, np.ndarray, int | None]:
    """(target, preds) label maps (N, ...) and the one-hot channel count."""
    p, t = host_pair(preds, target)
    if input_format == "index":
        return t, p, None
    if input_format == "one-hot":
        if p.shape != t.shape:
            raise RuntimeError("Predictions and targets are expected to have the same shape")
        return _labels_of_one_hot(t, "target"), _labels_of_one_hot(p, "preds"), p.shape[1]
    if abs(p.ndim - t.ndim) != 1:
        raise ValueError(
            f"Expected one of `preds` and `target` one-hot (one more dimension); got {tuple(p.shape)} and "
            f"{tuple(t.shape)}."
        )
    if p.ndim > t.ndim:
        return t, _labels_of_one_hot(p, "preds"), p.shape[1]
    return _labels_of_one_hot(t, "target"), p, t.shape[1]


def _check_common(num_classes: Any, include_background: Any, input_format: Any, required: bool) -> None:
    if num_classes is not None and (
        not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes <= 0
    ):
        raise ValueError(f"Expected argument `num_classes` must be a positive integer, but got {num_classes}.")
    if required and num_classes is None:
        raise ValueError("Expected argument `num_classes` must be a positive integer, but got None.")
    check_format_options(include_background, input_format)


class _Segmentation(ExactMetric):
    num_classes: int | None
    input_format: str
    include_background: bool

    def _new_states(self) -> list[Any]:
        return [SegmentationState(self.num_classes or 1, per_image=True)]

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:
        truth, predicted, channels = _label_maps(preds, target, self.input_format)
        if self.num_classes is None:
            if channels is None:
                raise ValueError("Argument `num_classes` must be provided when `input_format` is 'index'.")
            self.num_classes = channels
            states[:] = self._new_states()
            self._states = self._new_states()
        if predicted.shape != truth.shape:
            raise RuntimeError("Predictions and targets are expected to have the same shape")
        if self._one_image and truth.ndim <= 2:  # one 2-D map (or 1-D vector) is one image, as in torchmetrics
            truth, predicted = truth.reshape((1, *truth.shape)), predicted.reshape((1, *predicted.shape))
        if truth.ndim < 2:
            raise ValueError(f"Expected (N, ...) label maps, got shape {tuple(truth.shape)}.")
        states[0].update(truth, predicted)

    _one_image: ClassVar[bool] = False

    def _sums(self, states: list[Any]) -> np.ndarray:
        sums = states[0].image_sums()
        return sums if self.include_background or sums.shape[2] <= 1 else sums[:, :, 1:]

    def _result(self, states: list[Any]) -> Any:
        if len(states[0].image_sums()) == 0:
            raise ValueError(
                f"{type(self).__name__} has no images: update was not called with data"
                f"{' on any rank' if self._is_synced else ''} since the last reset."
            )
        return self._value(states)


class MeanIoU(_Segmentation):
    """torchmetrics' ``MeanIoU`` (``torchmetrics.segmentation``): the
    mean over images of each class's IoU, over the images where the class
    is in the target or the prediction.

    Parameters
    ----------
    num_classes : int, optional
        Required for ``input_format="index"``; else the channels of the
        first one-hot batch.
    include_background : bool, default=True
        Score class 0 too.
    per_class : bool, default=False
        A (C,) tensor of per-class means (-1 for a class never present);
        else the mean over every (image, class) present.
    input_format : {"one-hot", "index", "mixed"}, default="one-hot"
        (N, C, ...) one-hot tensors, (N, ...) class indices (a 2-D map is
        one image), or one of each. Float one-hot tensors are read by their
        argmax, as torchmetrics reads them; integer ones must set exactly
        one channel per pixel (else ValueError).
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    The state keeps 3 int64 counts per image and class (true positives,
    target and predicted pixels), exact; the IoUs are computed from them in
    float64 and agree with torchmetrics' float32 ones to its rounding.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import MeanIoU
    >>> metric = MeanIoU(num_classes=3, per_class=True, input_format="index")
    >>> metric(torch.tensor([[[0, 1], [1, 1]]]), torch.tensor([[[0, 1], [0, 1]]]))
    tensor([ 0.5000,  0.6667, -1.0000], dtype=torch.float64)
    """

    _CONFIG: ClassVar[tuple[str, ...]] = ("num_classes", "include_background", "per_class", "input_format")
    _one_image: ClassVar[bool] = True

    def __init__(
        self,
        num_classes: int | None = None,
        include_background: bool = True,
        per_class: bool = False,
        input_format: str = "one-hot",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_common(num_classes, include_background, input_format, required=False)
        if not isinstance(per_class, bool):
            raise ValueError(f"Expected argument `per_class` must be a boolean, but got {per_class}.")
        self.num_classes, self.include_background = num_classes, include_background
        self.per_class, self.input_format = per_class, input_format
        self._init_states()

    def _value(self, states: list[Any]) -> torch.Tensor:
        scores = class_average("iou", self._sums(states), average=None, empty="nan")
        if self.per_class:
            means = nanmean(scores, axis=0)
            return self._tensor(np.where(np.isnan(means), -1.0, means))
        return self._tensor(nanmean(scores.reshape(-1), axis=0))


class DiceScore(_Segmentation):
    """torchmetrics' ``DiceScore`` (``torchmetrics.segmentation``): per
    image (or over all images, ``aggregation_level="global"``) the Dice
    score ``2 tp / (t + p)`` of each class, averaged over the classes, then
    the mean over the images whose score is not NaN.

    Parameters
    ----------
    num_classes : int
    include_background : bool, default=True
    average : {"micro", "macro", "weighted", "none"} or None, default="macro"
        "macro": the mean of the classes' scores that are not NaN (a class
        absent from both is NaN); "micro": pooled counts; "weighted":
        weighted by target pixels; "none" / None: per class.
    aggregation_level : {"samplewise", "global"}, default="samplewise"
    input_format : {"one-hot", "index", "mixed"}, default="one-hot"
        As :class:`MeanIoU`.
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    Each image's value is that of
    :func:`turbometrics.segmentation.torchmetrics.dice_score` (in float64,
    not rounded to float32); the state is :class:`MeanIoU`'s.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import DiceScore
    >>> metric = DiceScore(num_classes=2, average="none", input_format="index")
    >>> metric(torch.tensor([[[0, 1], [1, 1]]]), torch.tensor([[[0, 1], [0, 1]]]))
    tensor([0.6667, 0.8000], dtype=torch.float64)
    """

    _CONFIG: ClassVar[tuple[str, ...]] = (
        "num_classes",
        "include_background",
        "average",
        "aggregation_level",
        "input_format",
    )

    def __init__(
        self,
        num_classes: int,
        include_background: bool = True,
        average: str | None = "macro",
        aggregation_level: str | None = "samplewise",
        input_format: str = "one-hot",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if average == "micro":
            warnings.warn(
                "DiceScore metric currently defaults to `average=micro`, but will change to`average=macro` in the "
                "v1.9 release. If you've explicitly set this parameter, you can ignore this warning.",
                UserWarning,
                stacklevel=2,
            )
        _check_common(num_classes, include_background, input_format, required=True)
        check_dice_options(average, aggregation_level)
        self.num_classes, self.include_background, self.average = num_classes, include_background, average
        self.aggregation_level, self.input_format = aggregation_level, input_format
        self._init_states()

    def _value(self, states: list[Any]) -> torch.Tensor:
        sums = self._sums(states)
        if self.aggregation_level == "global":
            sums = sums.sum(axis=0, keepdims=True)
        average = None if self.average == "none" else self.average
        return self._tensor(nanmean(class_average("dice", sums, average=average, empty="nan"), axis=0))
