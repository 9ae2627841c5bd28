"""The metrics of ``turbometrics evaluate FILE``: mergeable states updated
chunk by chunk, then one report.

An :class:`Accumulator` holds one set of rows (the whole file, or one group
of ``--group``) as the mergeable states its metrics need: a
:class:`~turbometrics.RankingState` (ROC AUC, its DeLong interval, average
precision, the best-F1 threshold; binary), a
:class:`~turbometrics.ConfusionState` of the predicted labels (accuracy,
precision, recall, F1, MCC...) and a :class:`~turbometrics.CalibrationState`
(ECE). Their memory does not grow with the rows (the ranking state holds one
row per distinct score). Metrics without a state (Brier score, log loss, and
the multiclass ROC AUC), and plots, need the rows themselves: only then are
the chunks kept, and concatenated for the report.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._common.input_error import InputError, first_line
from .._common.validation import assert_all_finite

__all__ = [
    "BINARY_METRICS",
    "DEFAULT_BINARY",
    "DEFAULT_MULTICLASS",
    "MULTICLASS_METRICS",
    "PROBABILITY_METRICS",
    "Accumulator",
    "Problem",
    "report",
]


@dataclass(frozen=True)
class Problem:
    """What is evaluated, and the options of the metrics: binary labels
    (0/1) with one score column, or class indices with ``n_classes``
    probability columns."""

    multiclass: bool
    n_classes: int = 2
    threshold: float = 0.5  # binary decision threshold of accuracy, precision, recall, f1
    n_bins: int = 15  # calibration bins of ece
    confidence: float = 0.95  # of the DeLong interval
    n_threads: int | None = None


class Accumulator:
    """The states of one set of rows (the file, or one group), fed chunk by
    chunk with :meth:`update`.

    Parameters
    ----------
    problem : Problem
    metrics : sequence of str
        The metrics to be reported: only their states are kept.
    keep_rows : bool
        Keep the rows themselves too (for plots); they are kept anyway when
        a metric without a state is asked for.
    """

    def __init__(self, problem: Problem, metrics: Sequence[str], keep_rows: bool) -> None:
        from ..states import CalibrationState, ConfusionState, RankingState

        table = MULTICLASS_METRICS if problem.multiclass else BINARY_METRICS
        kinds = {table[name][0] for name in metrics}
        self.problem = problem
        self.ranking = RankingState() if "ranking" in kinds else None
        self.confusion = ConfusionState(labels=np.arange(problem.n_classes)) if "confusion" in kinds else None
        self.calibration = CalibrationState(problem.n_bins) if "calibration" in kinds else None
        self._rows: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] | None = (
            [] if keep_rows or "rows" in kinds else None
        )
        self.n_samples = 0

    def update(
        self, y: np.ndarray, score: np.ndarray, weight: np.ndarray | None, probabilities: bool = True
    ) -> Accumulator:
        """Add a chunk: ``y`` binary 0/1 or class indices, ``score`` 1-D or
        (n, K), ``weight`` None or 1-D. ``probabilities=False`` (scores
        outside [0, 1]) leaves the calibration state out. Returns self.

        Raises
        ------
        ValueError
            As the metric functions reject their input (NaN scores, negative
            weights...).
        """
        threads = self.problem.n_threads
        if self.ranking is not None:
            self.ranking.update(y, score, sample_weight=weight, n_threads=threads)
        if self.confusion is not None:
            self.confusion.update(y, predicted(score, self.problem), sample_weight=weight, n_threads=threads)
        if self.calibration is not None and probabilities:
            self.calibration.update(y, score, sample_weight=weight, n_threads=threads)
        if self._rows is not None:
            self._rows.append((y, score, weight))
        self.n_samples += y.shape[0]
        return self

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """All rows added so far: labels, scores, weights (or None). Only
        when the rows are kept."""
        if self._rows is None:
            raise RuntimeError("this accumulator keeps states only")
        ys, scores, weights = zip(*self._rows) if self._rows else ((), (), ())
        weight = None if not weights or weights[0] is None else np.concatenate(weights)
        return (
            np.concatenate(ys) if ys else np.zeros(0, np.int8),
            np.concatenate(scores) if scores else np.zeros(0),
            weight,
        )


def predicted(score: np.ndarray, problem: Problem) -> np.ndarray:
    """Predicted labels: score >= threshold (binary), or the column of the
    largest probability (multiclass; the first on ties).

    Raises
    ------
    ValueError
        For NaN or infinite scores (scikit-learn's message), which would
        otherwise be predicted silently.
    """
    assert_all_finite(score)
    if problem.multiclass:
        return np.argmax(score, axis=1)
    return (score >= problem.threshold).astype(np.int8)


# --------------------------------------------------------------------------
# Metrics: one state method or turbometrics call each
# --------------------------------------------------------------------------

Compute = Callable[[Accumulator, Problem], dict[str, Any]]


def _on_rows(name: str, function: str, **fixed: Any) -> Compute:
    """A metric of the kept rows: ``turbometrics.<function>``."""

    def compute(acc: Accumulator, p: Problem) -> dict[str, Any]:
        import turbometrics

        y, score, weight = acc.rows()
        extra = dict(fixed)
        if p.multiclass or function == "log_loss":  # every class, even in a group that lacks one
            extra["labels"] = np.arange(p.n_classes)
        return {name: getattr(turbometrics, function)(y, score, sample_weight=weight, n_threads=p.n_threads, **extra)}

    return compute


def _roc_auc_ci(acc: Accumulator, p: Problem) -> dict[str, Any]:
    assert acc.ranking is not None
    if acc.ranking.weighted:
        warnings.warn("DeLong's interval is for unweighted data; not computed with --weight")
        return {"roc_auc_ci": None}
    ci = acc.ranking.roc_auc_ci(confidence=p.confidence, method="delong", n_threads=p.n_threads)
    return {"roc_auc_ci": [ci.lower, ci.upper]}


def _best_f1(acc: Accumulator, p: Problem) -> dict[str, Any]:
    assert acc.ranking is not None
    best = acc.ranking.best_threshold("f1", n_threads=p.n_threads)
    return {"best_f1": best.value, "best_f1_threshold": best.threshold}


def _ranking(name: str, method: str) -> tuple[str, Compute]:
    return "ranking", lambda acc, p: {name: getattr(acc.ranking, method)(n_threads=p.n_threads)}


def _confusion(name: str, method: str, **fixed: Any) -> tuple[str, Compute]:
    def compute(acc: Accumulator, p: Problem) -> dict[str, Any]:
        extra = dict(fixed)
        if "average" in extra:
            extra["labels"] = np.arange(p.n_classes)
        return {name: getattr(acc.confusion, method)(**extra)}

    return "confusion", compute


_ECE = ("calibration", lambda acc, p: {"ece": acc.calibration.ece()})

# name -> (what it is computed from: "ranking", "confusion", "calibration" or "rows", how)
BINARY_METRICS: dict[str, tuple[str, Compute]] = {
    "roc_auc": _ranking("roc_auc", "roc_auc"),
    "roc_auc_ci": ("ranking", _roc_auc_ci),
    "average_precision": _ranking("average_precision", "average_precision"),
    "best_f1": ("ranking", _best_f1),
    "accuracy": _confusion("accuracy", "accuracy"),
    "balanced_accuracy": _confusion("balanced_accuracy", "balanced_accuracy"),
    "precision": _confusion("precision", "precision", zero_division=0.0),
    "recall": _confusion("recall", "recall", zero_division=0.0),
    "f1": _confusion("f1", "f1", zero_division=0.0),
    "mcc": _confusion("mcc", "matthews_corrcoef"),
    "ece": _ECE,
    "brier": ("rows", _on_rows("brier", "brier_score_loss")),
    "log_loss": ("rows", _on_rows("log_loss", "log_loss")),
}

MULTICLASS_METRICS: dict[str, tuple[str, Compute]] = {
    "roc_auc": ("rows", _on_rows("roc_auc", "roc_auc_score", multi_class="ovr")),
    "accuracy": _confusion("accuracy", "accuracy"),
    "balanced_accuracy": _confusion("balanced_accuracy", "balanced_accuracy"),
    "f1_macro": _confusion("f1_macro", "f1", average="macro", zero_division=0.0),
    "f1_weighted": _confusion("f1_weighted", "f1", average="weighted", zero_division=0.0),
    "mcc": _confusion("mcc", "matthews_corrcoef"),
    "ece": _ECE,
    "brier": ("rows", _on_rows("brier", "brier_score_loss")),
    "log_loss": ("rows", _on_rows("log_loss", "log_loss")),
}

# The binary default streams in memory independent of the rows (no metric of the rows).
DEFAULT_BINARY = (
    "roc_auc",
    "roc_auc_ci",
    "average_precision",
    "best_f1",
    "accuracy",
    "precision",
    "recall",
    "f1",
    "ece",
)
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


def report(acc: Accumulator, metrics: Sequence[str], strict: bool, where: str = "") -> dict[str, Any]:
    """Compute ``metrics`` from ``acc``: ``{name: value}`` (None when
    undefined).

    Parameters
    ----------
    strict : bool
        If true, a metric that rejects the data raises InputError (the
        whole file: the input is bad); else its value is None and a
        warning names the metric and ``where`` (a group). Warnings of the
        metrics are re-issued naming the metric and ``where``.
    """
    table = MULTICLASS_METRICS if acc.problem.multiclass else BINARY_METRICS
    values: dict[str, Any] = {}
    for name in metrics:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = table[name][1](acc, acc.problem)
            except (ValueError, TypeError) as exc:
                if strict:
                    raise InputError(f"{name}: {first_line(exc)}") from None
                caught.append(warnings.WarningMessage(first_line(exc), UserWarning, "", 0))
                result = {name: None}
        for warning in caught:
            warnings.warn(f"{where}{name}: {first_line(warning.message)}")
        values.update({key: _scalar(value) for key, value in result.items()})
    return values
