"""Tensors of ``update`` read on the host: checks that torchmetrics makes
(with its messages), ``ignore_index`` removal, and its automatic sigmoid or
softmax of scores outside [0, 1], computed in float64 by NumPy (one
element, or one row, at a time: a value's result never depends on its
position in the batch)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

_WIDENED = (torch.float16, torch.bfloat16)  # NumPy lacks bfloat16; both widen to float32 exactly


def host(tensor: Any, name: str) -> np.ndarray:
    """A tensor's values as a NumPy array on the host (detached; a view of
    a CPU tensor's memory; float16 and bfloat16 widened to float32)."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"Expected `{name}` to be a torch.Tensor, but got {type(tensor).__name__}.")
    tensor = tensor.detach()
    if tensor.dtype in _WIDENED:
        tensor = tensor.float()
    return np.asarray(tensor.cpu().resolve_conj().resolve_neg().numpy())


def host_pair(preds: Any, target: Any) -> tuple[np.ndarray, np.ndarray]:
    """``preds`` and ``target`` on the host; they must be on one device."""
    for value, name in ((preds, "preds"), (target, "target")):
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"Expected `{name}` to be a torch.Tensor, but got {type(value).__name__}.")
    if preds.device != target.device:
        raise ValueError(f"`preds` and `target` must be on one device, got {preds.device} and {target.device}.")
    return host(preds, "preds"), host(target, "target")


def check_binary(preds: np.ndarray, target: np.ndarray, ignore_index: int | None) -> None:
    """torchmetrics' checks of binary scores (``validate_args=True``)."""
    if preds.shape != target.shape:
        raise RuntimeError(
            f"Predictions and targets are expected to have the same shape, but got {tuple(preds.shape)} and "
            f"{tuple(target.shape)}."
        )
    check_target_dtype(target)
    check_float_preds(preds)
    if target.size == 0 or (target.min() >= 0 and target.max() <= 1):  # integer labels: all 0 or 1
        return
    values = np.unique(target)  # the error's list (or ignore_index's samples)
    allowed = [0, 1] if ignore_index is None else [0, 1, ignore_index]
    if np.isin(values, allowed, invert=True).any():
        raise RuntimeError(
            f"Detected the following values in `target`: {values.tolist()} but expected only the following values "
            f"{[0, 1] if ignore_index is None else [ignore_index]}."
        )


def check_target_dtype(target: np.ndarray) -> None:
    if target.dtype.kind not in "biu":
        raise ValueError(
            "Expected argument `target` to be an int or long tensor with ground truth labels but got tensor with "
            f"dtype {target.dtype}"
        )


def check_float_preds(preds: np.ndarray) -> None:
    if preds.dtype.kind != "f":
        raise ValueError(
            "Expected argument `preds` to be an floating tensor with probability/logit scores, but got tensor "
            f"with dtype {preds.dtype}"
        )


def check_class_indices(target: np.ndarray, num_classes: int, ignore_index: int | None) -> None:
    """Class indices 0 .. num_classes - 1 (or ``ignore_index``)."""
    check_target_dtype(target)
    kept = target if ignore_index is None else target[target != ignore_index]
    if kept.size and (kept.min() < 0 or kept.max() >= num_classes):
        bad = kept[(kept < 0) | (kept >= num_classes)][0]
        raise RuntimeError(f"`target` holds {bad}, which is not a class index 0 .. {num_classes - 1}.")


def kept(target: np.ndarray, ignore_index: int | None) -> np.ndarray | None:
    """The mask of the samples kept (None: all)."""
    return None if ignore_index is None else target != ignore_index


def sigmoid_if_logits(scores: np.ndarray) -> np.ndarray:
    """Scores outside [0, 1] (NaN included) are logits: ``1 / (1 + exp(-x))``
    in float64 (distinct logits stay distinct up to about +36.7, where it
    rounds to 1.0); scores in [0, 1] are kept as they are."""
    if scores.size == 0 or (scores.min() >= 0 and scores.max() <= 1):  # False for NaN
        return scores
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-scores.astype(np.float64)))


def softmax_if_logits(scores: np.ndarray) -> np.ndarray:
    """(n, C) scores with a value outside [0, 1] are logits: the softmax of
    each row in float64 (the row's maximum subtracted first)."""
    if scores.size == 0 or (scores.min() >= 0 and scores.max() <= 1):  # False for NaN
        return scores
    shifted = scores.astype(np.float64) - scores.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def class_columns(preds: np.ndarray, num_classes: int) -> np.ndarray:
    """(N, C, ...) scores as (N * ..., C) rows, as torchmetrics flattens them."""
    if preds.ndim < 2 or preds.shape[1] != num_classes:
        raise ValueError(
            f"Expected `preds` of shape (N, {num_classes}, ...) (one score per class), got {tuple(preds.shape)}."
        )
    return np.moveaxis(preds, 1, -1).reshape(-1, num_classes)


def binary_batch(
    preds: Any, target: Any, ignore_index: int | None, validate_args: bool
) -> tuple[np.ndarray, np.ndarray]:
    """A batch of binary scores and labels on the host, flattened, its
    ``ignore_index`` samples removed; torchmetrics' checks when
    ``validate_args`` (without them, shapes that differ keep every sample,
    and the state refuses them)."""
    p, t = host_pair(preds, target)
    if validate_args:
        check_binary(p, t, ignore_index)
    p, t = p.reshape(-1), t.reshape(-1)
    mask = kept(t, ignore_index)
    if mask is not None and p.shape == t.shape:
        p, t = p[mask], t[mask]
    return p, t


def multiclass_batch(
    preds: Any, target: Any, num_classes: int, ignore_index: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """A batch of (N, C, ...) class scores and (N, ...) class indices on
    the host as (rows, labels): one row of C probabilities per sample (the
    softmax of each row when a score is outside [0, 1]), its
    ``ignore_index`` samples removed.

    Raises
    ------
    ValueError
        For scores that are not floats, or shapes that do not match.
    RuntimeError
        For a label that is not a class index (nor ``ignore_index``).
    """
    p, t = host_pair(preds, target)
    check_float_preds(p)
    rows = class_columns(p, num_classes)
    labels = t.reshape(-1)
    if rows.shape[0] != labels.shape[0]:
        raise ValueError(
            f"Expected `preds` (N, C, ...) and `target` (N, ...) of one sample count, got {tuple(p.shape)} and "
            f"{tuple(t.shape)}."
        )
    check_class_indices(labels, num_classes, ignore_index)
    mask = kept(labels, ignore_index)
    if mask is not None:
        rows, labels = rows[mask], labels[mask]
    return softmax_if_logits(rows), labels
