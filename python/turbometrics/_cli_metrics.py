"""The metrics of ``turbometrics evaluate FILE``: per-chunk updates of an
accumulator, then one report computed by turbometrics' metric functions.

A :class:`Accumulator` holds one set of rows (the whole file, or one group
of ``--group``): :meth:`Accumulator.update` takes a chunk, and
:func:`report` computes the chosen metrics from it, one turbometrics call
per metric. Until the mergeable states of issue 6 (RankingState,
ConfusionState, CalibrationState) are available, the accumulator keeps the
chunks and concatenates them for the report, so its memory is that of the
selected columns (not of the whole file).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._input_error import InputError, first_line, shown

__all__ = ["Accumulator", "BINARY_METRICS", "DEFAULT_BINARY", "DEFAULT_MULTICLASS", "Data", "MULTICLASS_METRICS",
           "PROBABILITY_METRICS", "Problem", "report"]


@dataclass(frozen=True)
class Problem:
    """What is evaluated: labels, and one score column (binary) or K class
    probability columns (multiclass), with the options of the metrics."""

    multiclass: bool
    pos_label: Any = None
    classes: Optional[Tuple[Any, ...]] = None  # multiclass: the class of each score column
    threshold: float = 0.5  # binary decision threshold of accuracy, precision, recall, f1
    n_bins: int = 15  # calibration bins of ece
    confidence: float = 0.95  # of the DeLong interval
    n_threads: Optional[int] = None


@dataclass
class Data:
    """The rows of one accumulator: ``y`` is binary (0/1 int8) or class
    indices (int64), ``score`` 1-D or (n, K), ``weight`` None or 1-D."""

    y: np.ndarray
    score: np.ndarray
    weight: Optional[np.ndarray]


class Accumulator:
    """Rows of one set (the file, or one group), added chunk by chunk."""

    def __init__(self) -> None:
        self._chunks: List[Tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]] = []
        self.n_samples = 0
        self.score_min = math.inf
        self.score_max = -math.inf

    def update(self, y: np.ndarray, score: np.ndarray, weight: Optional[np.ndarray]) -> "Accumulator":
        """Add a chunk (already converted: see :func:`binary_labels`,
        :func:`class_indices`) and return self."""
        if y.shape[0]:
            self.score_min = min(self.score_min, float(np.min(score)))
            self.score_max = max(self.score_max, float(np.max(score)))
        self._chunks.append((y, score, weight))
        self.n_samples += y.shape[0]
        return self

    def data(self) -> Data:
        """All rows added so far."""
        ys, scores, weights = zip(*self._chunks) if self._chunks else ((), (), ())
        weight = None if not weights or weights[0] is None else np.concatenate(weights)
        return Data(np.concatenate(ys) if ys else np.zeros(0, np.int8),
                    np.concatenate(scores) if scores else np.zeros(0), weight)


# --------------------------------------------------------------------------
# Label conversion (per chunk)
# --------------------------------------------------------------------------


def positive_label(values: np.ndarray, given: Any) -> Any:
    """The positive label: ``given`` (converted to the labels' kind), else
    1 (or True) for labels in {0, 1}, {-1, 1} or booleans.

    Raises
    ------
    InputError
        When the labels have no obvious positive class, or more than two
        values are seen.
    """
    seen = np.unique(values)
    if given is not None:
        if values.dtype.kind in "iuf":
            try:
                return float(given) if values.dtype.kind == "f" else int(given)
            except ValueError:
                raise InputError(f"--pos-label {given!r} is not a number, but the labels are") from None
        if values.dtype.kind == "b":
            return str(given).lower() in ("1", "true")
        return str(given)
    if values.dtype.kind == "b" or set(seen.tolist()) <= {0, 1} or set(seen.tolist()) <= {-1, 1}:
        return True if values.dtype.kind == "b" else 1
    listed = ", ".join(map(str, seen[:5].tolist()))
    raise InputError(f"labels are {{{listed}}}: give the positive one with --pos-label")


def binary_labels(values: np.ndarray, pos_label: Any) -> np.ndarray:
    """``values == pos_label`` as int8 (1 positive, 0 negative)."""
    return (values == pos_label).astype(np.int8)


def class_indices(values: np.ndarray, classes: Optional[Sequence[Any]], n_classes: int) -> np.ndarray:
    """Labels as indices of the score columns: the labels themselves when
    ``classes`` is None (they must be integers 0 .. K-1), else the position
    of each label (compared as text) in ``classes``.

    Raises
    ------
    InputError
        Naming the first label that is not a class.
    """
    if classes is None:
        if values.dtype.kind in "iub" or (values.dtype.kind == "f" and np.all(values == np.round(values))):
            indices = values.astype(np.int64)
            bad = (indices < 0) | (indices >= n_classes)
            if not bad.any():
                return indices
            raise InputError(f"label {shown(values[np.argmax(bad)])} is not a class index 0..{n_classes - 1} "
                             "(name the classes with --classes)")
        raise InputError(f"labels like {shown(values[0])} are not class indices: name the classes of the score "
                         "columns with --classes")
    text = as_text(values)
    lookup = {str(c): i for i, c in enumerate(classes)}
    indices = np.fromiter((lookup.get(t, -1) for t in text), dtype=np.int64, count=text.shape[0])
    if (indices < 0).any():
        raise InputError(f"label {shown(text[np.argmax(indices < 0)])} is not one of --classes {','.join(map(str, classes))}")
    return indices


def as_text(values: np.ndarray) -> np.ndarray:
    """Labels as text; integral floats written without '.0'."""
    if values.dtype.kind == "f" and np.all(values == np.round(values)):
        values = values.astype(np.int64)
    return values.astype(str)


# --------------------------------------------------------------------------
# Metrics: one turbometrics call each
# --------------------------------------------------------------------------

Metric = Callable[[Data, Problem], Dict[str, Any]]


def _tm() -> Any:
    import turbometrics

    return turbometrics


def _common(data: Data, problem: Problem) -> Dict[str, Any]:
    return {"sample_weight": data.weight, "n_threads": problem.n_threads}


def _predicted(data: Data, problem: Problem) -> np.ndarray:
    """Predicted labels: score >= threshold (binary), or the column of the
    largest probability (multiclass; the first on ties)."""
    if problem.multiclass:
        return np.argmax(data.score, axis=1)
    return (data.score >= problem.threshold).astype(np.int8)


def _roc_auc(d: Data, p: Problem) -> Dict[str, Any]:
    if p.multiclass:
        return {"roc_auc": _tm().roc_auc_score(d.y, d.score, multi_class="ovr", labels=np.arange(d.score.shape[1]),
                                               **_common(d, p))}
    return {"roc_auc": _tm().roc_auc_score(d.y, d.score, **_common(d, p))}


def _roc_auc_ci(d: Data, p: Problem) -> Dict[str, Any]:
    if d.weight is not None:
        warnings.warn("DeLong's interval is for unweighted data; not computed with --weight")
        return {"roc_auc_ci": None}
    ci = _tm().roc_auc_ci(d.y, d.score, confidence=p.confidence, method="delong", n_threads=p.n_threads)
    return {"roc_auc_ci": [ci.lower, ci.upper]}


def _best_f1(d: Data, p: Problem) -> Dict[str, Any]:
    best = _tm().best_threshold(d.y, d.score, metric="f1", **_common(d, p))
    return {"best_f1": best.value, "best_f1_threshold": best.threshold}


def _labelled(name: str, function: str, **fixed: Any) -> Metric:
    """A metric of the predicted labels: ``turbometrics.<function>``."""

    def metric(d: Data, p: Problem) -> Dict[str, Any]:
        extra = dict(fixed)
        if p.multiclass and "average" in extra:
            extra["labels"] = np.arange(d.score.shape[1])
        return {name: getattr(_tm(), function)(d.y, _predicted(d, p), **extra, **_common(d, p))}

    return metric


def _probabilistic(name: str, function: str) -> Metric:
    """A metric of the scores as probabilities: ``turbometrics.<function>``."""

    def metric(d: Data, p: Problem) -> Dict[str, Any]:
        extra: Dict[str, Any] = {}
        if function == "calibration_error":
            extra["n_bins"] = p.n_bins
        elif p.multiclass:
            extra["labels"] = np.arange(d.score.shape[1])
        elif function == "log_loss":  # both classes, even in a group with one
            extra["labels"] = [0, 1]
        return {name: getattr(_tm(), function)(d.y, d.score, **extra, **_common(d, p))}

    return metric


BINARY_METRICS: Dict[str, Metric] = {
    "roc_auc": _roc_auc,
    "roc_auc_ci": _roc_auc_ci,
    "average_precision": lambda d, p: {"average_precision": _tm().average_precision_score(d.y, d.score,
                                                                                          **_common(d, p))},
    "best_f1": _best_f1,
    "accuracy": _labelled("accuracy", "accuracy_score"),
    "balanced_accuracy": _labelled("balanced_accuracy", "balanced_accuracy_score"),
    "precision": _labelled("precision", "precision_score", zero_division=0.0),
    "recall": _labelled("recall", "recall_score", zero_division=0.0),
    "f1": _labelled("f1", "f1_score", zero_division=0.0),
    "mcc": _labelled("mcc", "matthews_corrcoef"),
    "ece": _probabilistic("ece", "calibration_error"),
    "brier": _probabilistic("brier", "brier_score_loss"),
    "log_loss": _probabilistic("log_loss", "log_loss"),
}

MULTICLASS_METRICS: Dict[str, Metric] = {
    "roc_auc": _roc_auc,
    "accuracy": _labelled("accuracy", "accuracy_score"),
    "balanced_accuracy": _labelled("balanced_accuracy", "balanced_accuracy_score"),
    "f1_macro": _labelled("f1_macro", "f1_score", average="macro", zero_division=0.0),
    "f1_weighted": _labelled("f1_weighted", "f1_score", average="weighted", zero_division=0.0),
    "mcc": _labelled("mcc", "matthews_corrcoef"),
    "ece": _probabilistic("ece", "calibration_error"),
    "brier": _probabilistic("brier", "brier_score_loss"),
    "log_loss": _probabilistic("log_loss", "log_loss"),
}

DEFAULT_BINARY = ("roc_auc", "roc_auc_ci", "average_precision", "best_f1", "accuracy", "precision", "recall", "f1",
                  "ece", "brier", "log_loss")
DEFAULT_MULTICLASS = ("roc_auc", "accuracy", "balanced_accuracy", "f1_macro", "ece", "brier", "log_loss")
PROBABILITY_METRICS = frozenset({"ece", "brier", "log_loss"})


def _scalar(value: Any) -> Any:
    """A metric value for the report: a float (None when NaN or
    infinite), or a list of them."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [_scalar(v) for v in value]
    value = float(value)
    return value if math.isfinite(value) else None


def report(data: Data, problem: Problem, metrics: Sequence[str], strict: bool,
           where: str = "") -> Dict[str, Any]:
    """Compute ``metrics`` on ``data``: ``{name: value}``.

    Parameters
    ----------
    strict : bool
        If true, a metric that rejects the data raises InputError (the
        whole file: the input is bad); else its value is None and a
        warning names the metric and ``where`` (a group).
    """
    table = MULTICLASS_METRICS if problem.multiclass else BINARY_METRICS
    values: Dict[str, Any] = {}
    for name in metrics:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = table[name](data, problem)
            except (ValueError, TypeError) as exc:
                if strict:
                    raise InputError(f"{name}: {first_line(exc)}") from None
                caught.append(warnings.WarningMessage(first_line(exc), UserWarning, "", 0))
                result = {name: None}
        for warning in caught:  # re-issued naming the metric and the group
            warnings.warn(f"{where}{name}: {first_line(warning.message)}")
        values.update({key: _scalar(value) for key, value in result.items()})
    return values

