"""torchmetrics' calibration error classes over
:class:`~turbometrics.CalibrationState` (exact per-bin sums)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import torch

from ..calibration import CalibrationState
from ._inputs import binary_batch, multiclass_batch, sigmoid_if_logits
from ._metric import ExactMetric
from ._ranking import _check_ignore_index, _check_num_classes

_NORMS = {"l1": "ece", "max": "mce", "l2": "rmsce"}


class _Calibration(ExactMetric):
    norm: str
    higher_is_better: bool | None = False
    _ADDS_AT_ONCE: ClassVar[bool] = True  # CalibrationState.update checks the whole batch before adding

    def _configure(self, n_bins: Any, norm: Any, ignore_index: Any, validate_args: Any) -> None:
        """Check and keep the arguments both classes take, then make the state."""
        if not isinstance(n_bins, int) or isinstance(n_bins, bool) or n_bins < 1:
            raise ValueError(f"Expected argument `n_bins` to be an integer larger than 0, but got {n_bins}")
        if norm not in _NORMS:
            raise ValueError(f"Expected argument `norm` to be one of ('l1', 'l2', 'max'), but got {norm}.")
        _check_ignore_index(ignore_index)
        self.n_bins, self.norm, self.ignore_index, self.validate_args = n_bins, norm, ignore_index, bool(validate_args)
        self._init_states()

    def _value(self, states: list[Any]) -> torch.Tensor:
        return self._tensor(getattr(states[0], _NORMS[self.norm])())


class BinaryCalibrationError(_Calibration):
    """torchmetrics' ``BinaryCalibrationError`` on exact per-bin sums.

    Parameters
    ----------
    n_bins : int, default=15
        Uniform bins ``[i / n, (i + 1) / n)``, the last one closed.
    norm : {"l1", "l2", "max"}, default="l1"
        The expected (``ece``), root-mean-square (``rmsce``) or maximum
        (``mce``) calibration error of :class:`~turbometrics.CalibrationState`.
    ignore_index : int, optional
    validate_args : bool, default=True
        torchmetrics' checks of the tensors, with its messages.
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    A batch with a score outside [0, 1] is read as logits (sigmoid in
    float64), as torchmetrics reads it. The value is the state's: each
    bin's sums exact, the result rounded once, whatever the batches and
    merges. torchmetrics sums in float32 and gives a probability of
    exactly 1.0 a bin of its own; the values agree otherwise to float32
    rounding.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import BinaryCalibrationError
    >>> metric = BinaryCalibrationError(n_bins=2)
    >>> metric(torch.tensor([0.25, 0.75, 0.75, 0.25]), torch.tensor([0, 1, 0, 0]))
    tensor(0.2500, dtype=torch.float64)
    """

    _CONFIG: ClassVar[tuple[str, ...]] = ("n_bins", "norm", "ignore_index", "validate_args")

    def __init__(
        self,
        n_bins: int = 15,
        norm: str = "l1",
        ignore_index: int | None = None,
        validate_args: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._configure(n_bins, norm, ignore_index, validate_args)

    def _new_states(self) -> list[Any]:
        return [CalibrationState(self.n_bins, mode="binary")]

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:
        p, t = binary_batch(preds, target, self.ignore_index, self.validate_args)
        states[0].update(t, sigmoid_if_logits(p))


class MulticlassCalibrationError(_Calibration):
    """torchmetrics' ``MulticlassCalibrationError`` (top-label) on exact
    per-bin sums: the confidence is each row's largest probability, correct
    when its class (the first of equal ones) is the target.

    Parameters
    ----------
    num_classes : int
    n_bins, norm, ignore_index, validate_args, **kwargs
        As :class:`BinaryCalibrationError`.

    Notes
    -----
    ``preds`` is (N, C, ...) and ``target`` (N, ...); a batch with a
    score outside [0, 1] is read as logits (the softmax of each row, in
    float64).

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import MulticlassCalibrationError
    >>> preds = torch.tensor([[0.75, 0.25], [0.25, 0.75], [0.75, 0.25]])
    >>> MulticlassCalibrationError(num_classes=2, n_bins=2)(preds, torch.tensor([0, 1, 1]))
    tensor(0.0833, dtype=torch.float64)
    """

    _CONFIG: ClassVar[tuple[str, ...]] = ("num_classes", "n_bins", "norm", "ignore_index", "validate_args")

    def __init__(
        self,
        num_classes: int,
        n_bins: int = 15,
        norm: str = "l1",
        ignore_index: int | None = None,
        validate_args: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_num_classes(num_classes)
        self.num_classes = num_classes
        self._configure(n_bins, norm, ignore_index, validate_args)

    def _new_states(self) -> list[Any]:
        return [CalibrationState(self.n_bins, mode="top_label")]

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:
        rows, labels = multiclass_batch(preds, target, self.num_classes, self.ignore_index)
        states[0].update(labels.astype(np.int64), rows)
