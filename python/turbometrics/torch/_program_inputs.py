"""Which calls the on-device program computes, and its inputs.

The program takes binary input that scikit-learn accepts without a warning:
1-D tensors on one device, finite scores of a dtype it sorts as
scikit-learn does, exactly two distinct labels and a positive class
scikit-learn would choose, no weights or non-negative integer-valued weights
whose total is below 2**52 and that leave weight in both classes. The
checks that read values are a few reductions on the device (the labels'
minimum and maximum, whether any other label, any non-finite score or any
fractional weight is present), each read back as one small value.

Everything else (multiclass and multilabel input, ``max_fpr``, fractional or
negative weights, one class, NaN or infinite scores, invalid parameters)
returns None: the caller then computes on a host copy with the CPU
functions, which raise scikit-learn's errors and warnings.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, NamedTuple

import numpy as np
import torch

_SCORES = {torch.float32, torch.float64, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8}
_LABELS = {torch.bool, torch.float32, torch.float64, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8}
_WEIGHTS = {torch.float32, torch.float64, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8}
_HALF = {torch.float16, torch.bfloat16}
# The weights' total below which every partial sum is exact in float64 (with
# a margin for the float64 total itself).
_EXACT_TOTAL = 2.0**52


class DeviceInput(NamedTuple):
    """The program's input: scores, the positive mask, int64 weights or None."""

    scores: torch.Tensor
    positive: torch.Tensor
    weights: torch.Tensor | None


def common_device(*values: Any) -> torch.device:
    """The device of the tensors among ``values`` (the CPU when none is a
    tensor); ValueError when they are on different devices."""
    devices = {value.device for value in values if isinstance(value, torch.Tensor)}
    if len(devices) > 1:
        names = ", ".join(sorted(str(device) for device in devices))
        raise ValueError(f"y_true, y_score and sample_weight must be on one device; got tensors on {names}.")
    return devices.pop() if devices else torch.device("cpu")


def check_score_dtype(y_score: Any) -> None:
    """TypeError for float16 and bfloat16 scores, which the program does not
    sort as scikit-learn (float16) or NumPy (bfloat16) would."""
    if isinstance(y_score, torch.Tensor) and y_score.dtype in _HALF:
        raise TypeError(
            f"y_score of dtype {y_score.dtype} is not supported on the device: pass float32 or float64 scores."
        )


def is_boolean(value: Any) -> bool:
    """scikit-learn's "boolean" constraint."""
    return isinstance(value, (bool, np.bool_))


def _label_pair(y_true: torch.Tensor) -> tuple[Any, Any] | None:
    """The two labels of ``y_true`` (Python numbers of its dtype) when it has
    exactly two, both finite and integral (scikit-learn's "binary" target),
    else None."""
    low, high = torch.stack(torch.aminmax(y_true)).tolist()
    if not (math.isfinite(low) and math.isfinite(high)) or low == high:
        return None
    if low != math.floor(low) or high != math.floor(high):
        return None
    if bool(((y_true != low) & (y_true != high)).any()):
        return None
    return low, high


def _positive_label(labels: tuple[Any, Any], pos_label: Any, rule: str) -> Any:
    """Which of two labels is positive: the greater (``rule="greater"``,
    roc_auc_score's), the one equal to ``pos_label`` (``"given"``,
    average_precision_score's, and the curves' when ``pos_label`` is not
    None), or 1 of {0, 1} and {-1, 1} (``"consistent"``, the curves' when
    ``pos_label`` is None); None when scikit-learn would raise or warn."""
    if rule == "greater":
        return labels[1]
    if pos_label is None and rule == "consistent":
        return labels[1] if labels in ((0, 1), (-1, 1)) else None
    if isinstance(pos_label, numbers.Real):
        for label in labels:
            if label == pos_label:
                return label
    return None


def _int_weights(weights: torch.Tensor, positive: torch.Tensor) -> torch.Tensor | None:
    """``weights`` as int64 when they are non-negative integers with a total
    below 2**52 that leave weight in both classes, else None."""
    as_float = weights.to(torch.float64)
    total = as_float.sum()
    positive_total = torch.where(positive, as_float, torch.zeros_like(as_float)).sum()
    checks = torch.stack(
        (
            (as_float >= 0).all().to(torch.float64),
            (as_float == torch.trunc(as_float)).all().to(torch.float64),
            total,
            positive_total,
        )
    ).tolist()
    non_negative, integral, total_value, positive_value = checks
    if not (non_negative and integral and total_value < _EXACT_TOTAL):
        return None
    if positive_value <= 0 or positive_value >= total_value:
        return None
    return weights.to(torch.int64)


def device_input(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any, rule: str) -> DeviceInput | None:
    """The program's input for this call, or None when it is computed on the
    host (see the module's description). ``rule`` chooses the positive class
    (:func:`_positive_label`)."""
    arrays = (y_true, y_score) if sample_weight is None else (y_true, y_score, sample_weight)
    if not all(isinstance(value, torch.Tensor) and value.ndim == 1 for value in arrays):
        return None
    n = y_score.numel()
    if y_true.numel() != n or n == 0 or y_score.dtype not in _SCORES or y_true.dtype not in _LABELS:
        return None
    if sample_weight is not None and (sample_weight.numel() != n or sample_weight.dtype not in _WEIGHTS):
        return None
    y_true, y_score = y_true.detach(), y_score.detach()
    labels = _label_pair(y_true)
    positive_label = None if labels is None else _positive_label(labels, pos_label, rule)
    if positive_label is None:
        return None
    if y_score.is_floating_point() and not bool(torch.isfinite(y_score).all()):
        return None
    positive = y_true == positive_label
    if sample_weight is None:
        return DeviceInput(y_score, positive, None)
    weights = _int_weights(sample_weight.detach(), positive)
    if weights is None:
        return None
    kept = weights != 0
    if not bool(kept.all()):
        y_score, positive, weights = y_score[kept], positive[kept], weights[kept]
    return DeviceInput(y_score, positive, weights)
