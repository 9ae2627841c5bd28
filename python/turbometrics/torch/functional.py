"""scikit-learn 1.9.1's binary ranking metrics on torch tensors, computed on
the tensors' device with scikit-learn's bits.

:func:`roc_auc_score`, :func:`average_precision_score`, :func:`roc_curve`
and :func:`precision_recall_curve` take the signatures of turbometrics'
functions of the same names and return tensors on the inputs' device: a
0-dimensional float64 tensor for a score, three 1-D tensors for a curve.
The program (a stable sort, int64 cumulative counts, float64 element-wise
operations and NumPy's pairwise sums, described in the torch guide) runs on
binary input with no weights or non-negative integer weights. Other calls
are computed on a host copy by the CPU functions, whose result is copied
back to the device:

- fractional or negative ``sample_weight`` (scikit-learn sums them with a
  sequential float64 ``cumsum``, whose rounding a parallel scan on a device
  cannot reproduce), or integer weights totalling 2**52 or more;
- multiclass and multilabel input, ``max_fpr``, ``labels``;
- one class, NaN or infinite scores or labels, inconsistent lengths, labels
  scikit-learn refuses, invalid parameters: these raise or warn as the CPU
  functions do (scikit-learn's types and messages);
- inputs that are not 1-D tensors (lists, NumPy arrays).

Tensors on different devices raise ValueError; float16 and bfloat16 scores
raise TypeError. Tensors that require grad are read detached.

``turbometrics.roc_auc_score`` and the other three route calls with a
tensor on a device other than the CPU here, and return the result as they
do for host input (a float, NumPy arrays).
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral
from typing import Any

import numpy as np
import torch

from ..ranking import (
    average_precision_score as host_average_precision_score,
    precision_recall_curve as host_precision_recall_curve,
    roc_auc_score as host_roc_auc_score,
    roc_curve as host_roc_curve,
)
from ._program import (
    area_under_curve,
    average_precision,
    precision_recall,
    precision_recall_points,
    ranked_counts,
    rates,
    roc_points,
    roc_thresholds,
    with_final_point,
)
from ._program_inputs import DeviceInput, check_score_dtype, common_device, device_input, is_boolean

__all__ = ["average_precision_score", "precision_recall_curve", "roc_auc_score", "roc_curve"]

_AVERAGES = {"micro", "macro", "samples", "weighted", None}


def _valid_threads(n_threads: Any) -> bool:
    if n_threads is None:
        return True
    return isinstance(n_threads, Integral) and not isinstance(n_threads, bool) and int(n_threads) >= 1


def _valid_average(average: Any) -> bool:
    return average is None or (isinstance(average, str) and average in _AVERAGES)


def _to_device(result: Any, device: torch.device) -> Any:
    if isinstance(result, tuple):
        return tuple(_to_device(part, device) for part in result)
    return torch.from_numpy(np.array(result)).to(device)


def _routed(
    host_function: Callable[..., Any],
    program: Callable[[DeviceInput], Any],
    y_true: Any,
    y_score: Any,
    *,
    program_pos_label: Any,
    rule: str,
    computed: Callable[[], bool],
    **options: Any,
) -> Any:
    """One call of a function of this module: ``program`` of the device
    input where the options are those it computes (``computed()``, asked
    after the inputs' device and scores' dtype are checked), ``n_threads``
    is valid and ``device_input`` takes the input (``program_pos_label``,
    ``rule``); otherwise ``host_function`` of host copies with ``options``,
    its result on the inputs' device."""
    device = common_device(y_true, y_score, options["sample_weight"])
    check_score_dtype(y_score)
    data = None
    if computed() and _valid_threads(options["n_threads"]):
        data = device_input(y_true, y_score, options["sample_weight"], program_pos_label, rule)
    if data is None:
        return _on_host(host_function, device, y_true, y_score, **options)
    return program(data)


def _on_host(function: Any, device: torch.device, y_true: Any, y_score: Any, **kwargs: Any) -> Any:
    """``function`` of host copies of the tensors, its result on ``device``."""

    def host(value: Any) -> Any:
        return value.detach().cpu() if isinstance(value, torch.Tensor) else value

    kwargs = {key: host(value) for key, value in kwargs.items()}
    return _to_device(function(host(y_true), host(y_score), **kwargs), device)


def _roc_auc(data: DeviceInput) -> torch.Tensor:
    fpr, tpr = rates(roc_points(ranked_counts(*data, thresholds=False), drop_intermediate=True))
    return area_under_curve(fpr, tpr)


def _roc(data: DeviceInput, drop_intermediate: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    counts = roc_points(ranked_counts(*data), drop_intermediate)
    fpr, tpr = rates(counts)
    return fpr, tpr, roc_thresholds(data.scores, counts)


def _precision_recall(data: DeviceInput, drop_intermediate: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    counts = precision_recall_points(ranked_counts(*data), drop_intermediate)
    precision, recall = with_final_point(*precision_recall(counts))
    return precision, recall, data.scores[counts.order].flip(0)


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
    n_threads: int | None = None,
) -> torch.Tensor:
    """Area under the ROC curve, on the inputs' device.

    :func:`turbometrics.roc_auc_score` (scikit-learn's) of tensors: binary
    input is computed on the device, bit for bit; other input on a host copy
    (see the module's description).

    Parameters
    ----------
    y_true : Tensor of shape (n_samples,)
        Labels (bool, integer or float): two classes, the greater positive.
    y_score : Tensor of shape (n_samples,)
        Scores (float32, float64 or integer; float16 and bfloat16 raise).
    average, max_fpr, multi_class, labels, n_threads
        As in :func:`turbometrics.roc_auc_score`; ``n_threads`` is used only
        on the host.
    sample_weight : Tensor of shape (n_samples,), optional
        Non-negative integer-valued weights are summed exactly on the
        device; fractional ones on the host.

    Returns
    -------
    Tensor
        A 0-dimensional float64 tensor on the inputs' device (an array of
        float64 for multilabel input with ``average=None``).

    Raises
    ------
    ValueError
        Tensors on different devices; otherwise scikit-learn's errors.
    TypeError
        float16 or bfloat16 scores.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch.functional import roc_auc_score
    >>> roc_auc_score(torch.tensor([0, 0, 1, 1]), torch.tensor([0.1, 0.4, 0.35, 0.8]))
    tensor(0.7500, dtype=torch.float64)
    """
    return _routed(
        host_roc_auc_score,
        _roc_auc,
        y_true,
        y_score,
        program_pos_label=None,
        rule="greater",
        computed=lambda: (
            _valid_average(average) and multi_class in ("raise", "ovr", "ovo") and max_fpr is None and labels is None
        ),
        average=average,
        sample_weight=sample_weight,
        max_fpr=max_fpr,
        multi_class=multi_class,
        labels=labels,
        n_threads=n_threads,
    )


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
    n_threads: int | None = None,
) -> torch.Tensor:
    """Average precision, on the inputs' device.

    :func:`turbometrics.average_precision_score` (scikit-learn's) of
    tensors: binary input is computed on the device, bit for bit; other
    input on a host copy (see the module's description).

    Parameters
    ----------
    y_true : Tensor of shape (n_samples,)
        Labels (bool, integer or float), ``pos_label`` one of them.
    y_score : Tensor of shape (n_samples,)
        Scores (float32, float64 or integer; float16 and bfloat16 raise).
    average, pos_label, n_threads
        As in :func:`turbometrics.average_precision_score`; ``n_threads``
        is used only on the host.
    sample_weight : Tensor of shape (n_samples,), optional
        Non-negative integer-valued weights are summed exactly on the
        device; fractional ones on the host.

    Returns
    -------
    Tensor
        A 0-dimensional float64 tensor on the inputs' device (an array of
        float64 for multilabel input with ``average=None``).

    Raises
    ------
    ValueError
        Tensors on different devices; otherwise scikit-learn's errors.
    TypeError
        float16 or bfloat16 scores.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch.functional import average_precision_score
    >>> average_precision_score(torch.tensor([0, 0, 1, 1]), torch.tensor([0.1, 0.4, 0.35, 0.8]))
    tensor(0.8333, dtype=torch.float64)
    """
    return _routed(
        host_average_precision_score,
        lambda data: average_precision(ranked_counts(*data, thresholds=False)),
        y_true,
        y_score,
        program_pos_label=pos_label,
        rule="given",
        computed=lambda: _valid_average(average),
        average=average,
        pos_label=pos_label,
        sample_weight=sample_weight,
        n_threads=n_threads,
    )


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
    n_threads: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Receiver operating characteristic curve, on the inputs' device.

    :func:`turbometrics.roc_curve` (scikit-learn's) of tensors: computed on
    the device, bit for bit, for binary input with both classes and no or
    integer weights; other input on a host copy (see the module's
    description).

    Parameters
    ----------
    y_true : Tensor of shape (n_samples,)
        Labels: {0, 1} or {-1, 1}, or any two with ``pos_label``.
    y_score : Tensor of shape (n_samples,)
        Scores (float32, float64 or integer; float16 and bfloat16 raise).
    pos_label, drop_intermediate, n_threads
        As in :func:`turbometrics.roc_curve`; ``n_threads`` is used only on
        the host.
    sample_weight : Tensor of shape (n_samples,), optional
        Non-negative integer-valued weights are summed exactly on the
        device; fractional ones on the host.

    Returns
    -------
    fpr, tpr : Tensor of float64
        False and true positive rates, starting at (0, 0).
    thresholds : Tensor of float64
        Decreasing; ``thresholds[0]`` is ``inf``.

    Raises
    ------
    ValueError
        Tensors on different devices; otherwise scikit-learn's errors.
    TypeError
        float16 or bfloat16 scores.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch.functional import roc_curve
    >>> fpr, tpr, thresholds = roc_curve(torch.tensor([0, 0, 1, 1]), torch.tensor([0.1, 0.4, 0.35, 0.8]))
    >>> fpr
    tensor([0.0000, 0.0000, 0.5000, 0.5000, 1.0000], dtype=torch.float64)
    >>> thresholds
    tensor([   inf, 0.8000, 0.4000, 0.3500, 0.1000], dtype=torch.float64)
    """
    return _routed(
        host_roc_curve,
        lambda data: _roc(data, bool(drop_intermediate)),
        y_true,
        y_score,
        program_pos_label=pos_label,
        rule="consistent",
        computed=lambda: is_boolean(drop_intermediate),
        pos_label=pos_label,
        sample_weight=sample_weight,
        drop_intermediate=drop_intermediate,
        n_threads=n_threads,
    )


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
    n_threads: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Precision-recall curve, on the inputs' device.

    :func:`turbometrics.precision_recall_curve` (scikit-learn's) of
    tensors: computed on the device, bit for bit, for binary input with both
    classes and no or integer weights; other input on a host copy (see the
    module's description).

    Parameters
    ----------
    y_true : Tensor of shape (n_samples,)
        Labels: {0, 1} or {-1, 1}, or any two with ``pos_label``.
    y_score : Tensor of shape (n_samples,)
        Scores (float32, float64 or integer; float16 and bfloat16 raise).
    pos_label, drop_intermediate, n_threads
        As in :func:`turbometrics.precision_recall_curve`; ``n_threads`` is
        used only on the host.
    sample_weight : Tensor of shape (n_samples,), optional
        Non-negative integer-valued weights are summed exactly on the
        device; fractional ones on the host.

    Returns
    -------
    precision, recall : Tensor of float64
        By increasing threshold, ending with the point (1, 0).
    thresholds : Tensor
        Increasing, in the dtype of ``y_score``.

    Raises
    ------
    ValueError
        Tensors on different devices; otherwise scikit-learn's errors.
    TypeError
        float16 or bfloat16 scores.

    Examples
    --------
    >>> import torch
    >>> from turbometrics.torch.functional import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve(
    ...     torch.tensor([0, 0, 1, 1]), torch.tensor([0.1, 0.4, 0.35, 0.8], dtype=torch.float64)
    ... )
    >>> recall
    tensor([1.0000, 1.0000, 0.5000, 0.5000, 0.0000], dtype=torch.float64)
    >>> thresholds
    tensor([0.1000, 0.3500, 0.4000, 0.8000], dtype=torch.float64)
    """
    return _routed(
        host_precision_recall_curve,
        lambda data: _precision_recall(data, bool(drop_intermediate)),
        y_true,
        y_score,
        program_pos_label=pos_label,
        rule="consistent",
        computed=lambda: is_boolean(drop_intermediate),
        pos_label=pos_label,
        sample_weight=sample_weight,
        drop_intermediate=drop_intermediate,
        n_threads=n_threads,
    )
