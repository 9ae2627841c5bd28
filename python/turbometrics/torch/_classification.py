"""torchmetrics' ``MulticlassConfusionMatrix`` over
:class:`~turbometrics.ConfusionState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import torch

from ..classification import ConfusionState
from ._inputs import check_class_indices, host_pair, kept
from ._metric import ExactMetric
from ._ranking import _check_ignore_index, _check_num_classes

_NORMALIZE = ("true", "pred", "all", "none", None)


class MulticlassConfusionMatrix(ExactMetric):
    """torchmetrics' ``MulticlassConfusionMatrix``: scikit-learn's
    ``confusion_matrix(target, preds, labels=range(num_classes),
    normalize=...)`` of every sample added.

    Parameters
    ----------
    num_classes : int
    ignore_index : int, optional
    normalize : {"true", "pred", "all", "none", None}, default=None
        None / "none": int64 counts; otherwise float64 rates over the rows,
        columns or all counts, 0 where a row or column is empty (as both
        scikit-learn and torchmetrics give).
    validate_args : bool, default=True
        Predicted labels must be class indices too (the target's always
        are checked).
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    ``preds`` is (N, ...) class indices, or (N, C, ...) scores whose argmax
    over dimension 1 is the prediction (the first of equal scores).

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import MulticlassConfusionMatrix
    >>> MulticlassConfusionMatrix(num_classes=3)(torch.tensor([2, 1, 0, 1]), torch.tensor([2, 1, 0, 0]))
    tensor([[1, 1, 0],
            [0, 1, 0],
            [0, 0, 1]])
    """

    higher_is_better: bool | None = None
    _CONFIG: ClassVar[tuple[str, ...]] = ("num_classes", "ignore_index", "normalize", "validate_args")
    _ADDS_AT_ONCE: ClassVar[bool] = True  # ConfusionState.update merges a whole batch state into itself

    def __init__(
        self,
        num_classes: int,
        ignore_index: int | None = None,
        normalize: str | None = None,
        validate_args: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_num_classes(num_classes)
        _check_ignore_index(ignore_index)
        if normalize not in _NORMALIZE:
            raise ValueError(f"Expected argument `normalize` to be one of {_NORMALIZE}, but got {normalize}.")
        self.num_classes, self.ignore_index, self.normalize = num_classes, ignore_index, normalize
        self.validate_args = bool(validate_args)
        self._init_states()

    def _new_states(self) -> list[Any]:
        return [ConfusionState(labels=np.arange(self.num_classes))]

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:
        p, t = host_pair(preds, target)
        if p.ndim == t.ndim + 1:
            if p.dtype.kind != "f":
                raise ValueError("If `preds` have one dimension more than `target`, `preds` should be a float tensor.")
            if p.shape[1] != self.num_classes or p.shape[2:] != t.shape[1:]:
                raise ValueError(
                    "If `preds` have one dimension more than `target`, the shape of `preds` should be"
                    " (N, C, ...), and the shape of `target` should be (N, ...)."
                )
            p = p.argmax(axis=1)
        elif p.shape != t.shape:
            raise ValueError(
                f"The `preds` and `target` should have the same shape, got `preds` with shape={tuple(p.shape)} and "
                f"`target` with shape={tuple(t.shape)}."
            )
        p, t = p.reshape(-1), t.reshape(-1)
        check_class_indices(t, self.num_classes, self.ignore_index)
        mask = kept(t, self.ignore_index)
        if mask is not None:
            p, t = p[mask], t[mask]
        if self.validate_args:
            check_class_indices(p, self.num_classes, None)
        states[0].update(t, p)

    def _value(self, states: list[Any]) -> torch.Tensor:
        normalize = None if self.normalize == "none" else self.normalize
        matrix = states[0].confusion_matrix(labels=np.arange(self.num_classes), normalize=normalize)
        if normalize is None:
            return torch.from_numpy(np.asarray(matrix, dtype=np.int64)).to(self.device)
        return self._tensor(matrix)
