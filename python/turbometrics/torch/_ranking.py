"""torchmetrics' exact-mode ranking classes (``thresholds=None``) over
:class:`~turbometrics.RankingState`: scikit-learn's values, bit for bit."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import torch

from ..ranking import RankingState
from ._inputs import binary_batch, multiclass_batch, sigmoid_if_logits
from ._metric import ExactMetric

_NORMALIZATIONS = ("sigmoid", None)
_AVERAGES = ("macro", "weighted", "none", None)


def _check_exact(thresholds: Any) -> None:
    if thresholds is not None:
        raise ValueError(
            "turbometrics.torch computes the exact (thresholds=None) metrics; binned thresholds are not "
            f"supported, got thresholds={thresholds!r}."
        )


def _check_ignore_index(ignore_index: Any) -> None:
    if ignore_index is not None and (not isinstance(ignore_index, int) or isinstance(ignore_index, bool)):
        raise ValueError(f"Expected argument `ignore_index` to either be `None` or an integer, but got {ignore_index}")


def _check_num_classes(num_classes: Any) -> None:
    if not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes < 2:
        raise ValueError(f"Expected argument `num_classes` to be an integer larger than 1, but got {num_classes}")


class _BinaryRanking(ExactMetric):
    """One RankingState of the (flattened) scores against 0/1 targets."""

    _CONFIG: ClassVar[tuple[str, ...]] = ("thresholds", "ignore_index", "validate_args", "normalization")
    _ADDS_AT_ONCE: ClassVar[bool] = True  # RankingState.update merges a whole batch state into itself

    def __init__(
        self,
        thresholds: Any = None,
        ignore_index: int | None = None,
        validate_args: bool = True,
        normalization: str | None = "sigmoid",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_exact(thresholds)
        _check_ignore_index(ignore_index)
        if normalization not in _NORMALIZATIONS:
            raise ValueError(f"Expected argument `normalization` to be 'sigmoid' or None, but got {normalization!r}")
        self.thresholds = thresholds
        self.ignore_index = ignore_index
        self.validate_args = bool(validate_args)
        self.normalization = normalization
        self._init_states()

    def _new_states(self) -> list[Any]:
        return [RankingState()]

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:
        p, t = binary_batch(preds, target, self.ignore_index, self.validate_args)
        if self.normalization == "sigmoid":
            p = sigmoid_if_logits(p)
        states[0].update(t, p)


class BinaryAUROC(_BinaryRanking):
    """torchmetrics' ``BinaryAUROC``, exact: scikit-learn's
    ``roc_auc_score`` of every sample added, bit for bit.

    Parameters
    ----------
    max_fpr : float, optional
        McClish's standardised partial AUC up to this false positive rate
        (scikit-learn's ``max_fpr``).
    thresholds : None
        Only the exact mode: anything else raises ValueError.
    ignore_index : int, optional
        Samples whose target is this value are left out.
    validate_args : bool, default=True
        torchmetrics' checks of the tensors (same shape, integer targets in
        {0, 1}, floating scores), with its messages.
    normalization : {"sigmoid", None}, default="sigmoid"
        As torchmetrics: a batch with a score outside [0, 1] is read as
        logits and passed through the sigmoid (in float64); None keeps
        the scores as they are (logits then rank without ties).
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    The state is a :class:`~turbometrics.RankingState`: one row per
    distinct score (:attr:`states`, ``to_bytes``). ``compute`` returns a
    float64 scalar tensor; under ``torch.distributed`` it merges the
    states of all ranks. torchmetrics keeps every prediction and computes
    in float32; see the guide (docs/guide/torch.md).

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import BinaryAUROC
    >>> metric = BinaryAUROC()
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35]), torch.tensor([0, 0, 1]))
    >>> metric.update(torch.tensor([0.8]), torch.tensor([1]))
    >>> metric.compute()
    tensor(0.7500, dtype=torch.float64)
    """

    _CONFIG: ClassVar[tuple[str, ...]] = ("max_fpr", *_BinaryRanking._CONFIG)

    def __init__(
        self,
        max_fpr: float | None = None,
        thresholds: Any = None,
        ignore_index: int | None = None,
        validate_args: bool = True,
        normalization: str | None = "sigmoid",
        **kwargs: Any,
    ) -> None:
        if max_fpr is not None and (not isinstance(max_fpr, float) or not 0 < max_fpr <= 1):
            raise ValueError(f"Arguments `max_fpr` should be a float in range (0, 1], but got: {max_fpr}")
        self.max_fpr = max_fpr
        super().__init__(thresholds, ignore_index, validate_args, normalization, **kwargs)

    def _value(self, states: list[Any]) -> torch.Tensor:
        return self._tensor(states[0].roc_auc(max_fpr=self.max_fpr))


class BinaryAveragePrecision(_BinaryRanking):
    """torchmetrics' ``BinaryAveragePrecision``, exact: scikit-learn's
    ``average_precision_score`` of every sample added, bit for bit.

    Parameters are those of :class:`BinaryAUROC` without ``max_fpr``.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import BinaryAveragePrecision
    >>> metric = BinaryAveragePrecision()
    >>> metric(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    tensor(0.8333, dtype=torch.float64)
    """

    def _value(self, states: list[Any]) -> torch.Tensor:
        return self._tensor(states[0].average_precision())


class BinaryROC(_BinaryRanking):
    """torchmetrics' ``BinaryROC``, exact: scikit-learn's ``roc_curve``
    (``drop_intermediate=True``, its default; the first threshold +inf)
    of every sample added, as float64 tensors ``(fpr, tpr, thresholds)``.

    Parameters are those of :class:`BinaryAUROC` without ``max_fpr``.
    torchmetrics keeps every threshold and starts them at 1.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import BinaryROC
    >>> fpr, tpr, thresholds = BinaryROC()(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> fpr
    tensor([0.0000, 0.0000, 0.5000, 0.5000, 1.0000], dtype=torch.float64)
    """

    higher_is_better: bool | None = None

    def _value(self, states: list[Any]) -> tuple[torch.Tensor, ...]:
        return tuple(self._tensor(part) for part in states[0].roc_curve())


class BinaryPrecisionRecallCurve(_BinaryRanking):
    """torchmetrics' ``BinaryPrecisionRecallCurve``, exact: scikit-learn's
    ``precision_recall_curve`` of every sample added, as float64 tensors
    ``(precision, recall, thresholds)``.

    Parameters are those of :class:`BinaryAUROC` without ``max_fpr``.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import BinaryPrecisionRecallCurve
    >>> precision, recall, thresholds = BinaryPrecisionRecallCurve()(
    ...     torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> precision
    tensor([0.5000, 0.6667, 0.5000, 1.0000, 1.0000], dtype=torch.float64)
    """

    higher_is_better: bool | None = None

    def _value(self, states: list[Any]) -> tuple[torch.Tensor, ...]:
        return tuple(self._tensor(part) for part in states[0].precision_recall_curve())


class _MulticlassRanking(ExactMetric):
    """One RankingState per class: the class's column against ``target == k``."""

    _CONFIG: ClassVar[tuple[str, ...]] = ("num_classes", "average", "thresholds", "ignore_index", "validate_args")

    def __init__(
        self,
        num_classes: int,
        average: str | None = "macro",
        thresholds: Any = None,
        ignore_index: int | None = None,
        validate_args: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        _check_num_classes(num_classes)
        if average not in _AVERAGES:
            raise ValueError(f"Expected argument `average` to be one of {_AVERAGES}, but got {average}")
        _check_exact(thresholds)
        _check_ignore_index(ignore_index)
        self.num_classes = num_classes
        self.average = average
        self.thresholds = thresholds
        self.ignore_index = ignore_index
        self.validate_args = bool(validate_args)
        self._init_states()

    def _new_states(self) -> list[Any]:
        return [RankingState() for _ in range(self.num_classes)]

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:
        rows, labels = multiclass_batch(preds, target, self.num_classes, self.ignore_index)
        for k, state in enumerate(states):
            state.update((labels == k).view(np.int8), rows[:, k])

    def _averaged(self, states: list[Any], name: str, value: Any) -> torch.Tensor:
        support = np.array([state.total_positive for state in states])
        absent = np.flatnonzero(support == 0)
        if absent.size:
            raise ValueError(
                f"class {absent[0]} has no sample in `target`: scikit-learn's one-vs-rest {name} is undefined "
                "(torchmetrics leaves such classes out of the average)."
            )
        scores = np.array([value(state) for state in states])
        if self.average in ("none", None):
            return self._tensor(scores)
        return self._tensor(np.average(scores, weights=support if self.average == "weighted" else None))


class MulticlassAUROC(_MulticlassRanking):
    """torchmetrics' ``MulticlassAUROC``, exact: scikit-learn's
    one-vs-rest ``roc_auc_score`` of every sample added, bit for bit.

    Parameters
    ----------
    num_classes : int
    average : {"macro", "weighted", "none", None}, default="macro"
        The mean of the classes' AUCs, weighted by their number of samples,
        or the per-class values (a (C,) tensor).
    thresholds : None
        Only the exact mode.
    ignore_index : int, optional
    validate_args : bool, default=True
        Scores must be floating point; the target's class indices are
        always checked.
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    ``preds`` is (N, C, ...) and ``target`` (N, ...). As torchmetrics, a
    batch with a score outside [0, 1] is read as logits: the softmax of
    each row (float64). The value is scikit-learn's
    ``roc_auc_score(target, preds, multi_class="ovr", average=...)``, which
    scikit-learn computes only for rows summing to 1. A class without
    samples raises ValueError, as in scikit-learn. The state is one
    :class:`~turbometrics.RankingState` per class.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import MulticlassAUROC
    >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3]])
    >>> MulticlassAUROC(num_classes=3)(preds, torch.tensor([0, 1, 2, 2]))
    tensor(0.9583, dtype=torch.float64)
    """

    def _value(self, states: list[Any]) -> torch.Tensor:
        return self._averaged(states, "ROC AUC", lambda state: state.roc_auc())


class MulticlassAveragePrecision(_MulticlassRanking):
    """torchmetrics' ``MulticlassAveragePrecision``, exact: scikit-learn's
    one-vs-rest ``average_precision_score`` of every sample added (the
    classes' values averaged as :class:`MulticlassAUROC` averages them).

    Parameters are those of :class:`MulticlassAUROC`.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch import MulticlassAveragePrecision
    >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3]])
    >>> MulticlassAveragePrecision(num_classes=3, average="none")(preds, torch.tensor([0, 1, 2, 2]))
    tensor([1.0000, 1.0000, 0.8333], dtype=torch.float64)
    """

    def _value(self, states: list[Any]) -> torch.Tensor:
        return self._averaged(states, "average precision", lambda state: state.average_precision())
