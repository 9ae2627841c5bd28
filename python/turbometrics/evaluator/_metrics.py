"""The metrics of an :class:`~turbometrics.Evaluator`, by name: the states
each one reads (:class:`Part`) and how it computes its value from them."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._part import Part

__all__ = [
    "BINARY_METRICS",
    "DEFAULT_BINARY",
    "DEFAULT_MULTICLASS",
    "MULTICLASS_METRICS",
    "PROBABILITY_METRICS",
    "Problem",
]


@dataclass(frozen=True)
class Problem:
    """What is evaluated, and the options of the metrics: binary labels
    (0/1) with one score column, or class indices with ``n_classes``
    probability columns. Evaluators merge only with equal problems
    (``n_threads`` aside)."""

    multiclass: bool
    n_classes: int = 2
    threshold: float = 0.5  # binary decision threshold of accuracy, precision, recall, f1, mcc
    n_bins: int = 15  # calibration bins of ece
    confidence: float = 0.95  # of the DeLong interval
    n_threads: int | None = field(default=None, compare=False)


Compute = Callable[[Part, Problem], dict[str, Any]]


def _roc_auc_ci(part: Part, p: Problem) -> dict[str, Any]:
    assert part.ranking is not None
    if part.ranking.weighted:
        warnings.warn("DeLong's interval is for unweighted data; NaN with sample weights")
        return {"roc_auc_ci": [math.nan, math.nan]}
    ci = part.ranking.roc_auc_ci(confidence=p.confidence, method="delong", n_threads=p.n_threads)
    return {"roc_auc_ci": [ci.lower, ci.upper]}


def _best_f1(part: Part, p: Problem) -> dict[str, Any]:
    assert part.ranking is not None
    best = part.ranking.best_threshold("f1", n_threads=p.n_threads)
    return {"best_f1": best.value, "best_f1_threshold": best.threshold}


def _one_vs_rest_roc_auc(part: Part, p: Problem) -> dict[str, Any]:
    """scikit-learn's ``roc_auc_score(multi_class="ovr", average="macro")``:
    the plain mean of the classes' one-vs-rest AUCs."""
    assert part.class_ranking is not None
    if p.n_classes < 3:  # roc_auc_score refuses two probability columns
        raise ValueError(f"y should be a 1d array, got an array of shape ({part.n_samples}, 2) instead.")
    scores = np.array([state.roc_auc(n_threads=p.n_threads) for state in part.class_ranking])
    return {"roc_auc": float(np.average(scores))}


def _ranking(name: str, method: str) -> tuple[tuple[str, ...], Compute]:
    def compute(part: Part, p: Problem) -> dict[str, Any]:
        return {name: getattr(part.ranking, method)(n_threads=p.n_threads)}

    return ("ranking",), compute


def _confusion(name: str, method: str, **fixed: Any) -> tuple[tuple[str, ...], Compute]:
    def compute(part: Part, p: Problem) -> dict[str, Any]:
        extra = dict(fixed)
        if "average" in extra:
            extra["labels"] = np.arange(p.n_classes)
        return {name: getattr(part.confusion, method)(**extra)}

    return ("confusion",), compute


def _proper(name: str, score: str) -> tuple[tuple[str, ...], Compute]:
    def compute(part: Part, p: Problem) -> dict[str, Any]:
        return {name: part.sums[score].value(halve=score == "brier" and p.n_classes < 3)}

    return (score,), compute


def _ece(part: Part, p: Problem) -> dict[str, Any]:
    assert part.calibration is not None
    return {"ece": part.calibration.ece()}


_ECE: tuple[tuple[str, ...], Compute] = (("calibration",), _ece)

# name -> (the states it reads, how it is computed)
BINARY_METRICS: dict[str, tuple[tuple[str, ...], Compute]] = {
    "roc_auc": _ranking("roc_auc", "roc_auc"),
    "roc_auc_ci": (("ranking",), _roc_auc_ci),
    "average_precision": _ranking("average_precision", "average_precision"),
    "best_f1": (("ranking",), _best_f1),
    "accuracy": _confusion("accuracy", "accuracy"),
    "balanced_accuracy": _confusion("balanced_accuracy", "balanced_accuracy"),
    "precision": _confusion("precision", "precision", zero_division=0.0),
    "recall": _confusion("recall", "recall", zero_division=0.0),
    "f1": _confusion("f1", "f1", zero_division=0.0),
    "mcc": _confusion("mcc", "matthews_corrcoef"),
    "ece": _ECE,
    "brier": _proper("brier", "brier"),
    "log_loss": _proper("log_loss", "log"),
}

MULTICLASS_METRICS: dict[str, tuple[tuple[str, ...], Compute]] = {
    "roc_auc": (("class_ranking",), _one_vs_rest_roc_auc),
    "accuracy": _confusion("accuracy", "accuracy"),
    "balanced_accuracy": _confusion("balanced_accuracy", "balanced_accuracy"),
    "f1_macro": _confusion("f1_macro", "f1", average="macro", zero_division=0.0),
    "f1_weighted": _confusion("f1_weighted", "f1", average="weighted", zero_division=0.0),
    "mcc": _confusion("mcc", "matthews_corrcoef"),
    "ece": _ECE,
    "brier": _proper("brier", "brier"),
    "log_loss": _proper("log_loss", "log"),
}

# The binary default streams in memory independent of the rows.
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
