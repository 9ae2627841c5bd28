"""The metrics of an :class:`~turbometrics.Evaluator`, by name: the states
each one reads (:class:`Part`) and how it computes its value from them,
derived from the streaming vocabulary (``turbometrics._registry.STREAMED``)."""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._registry import STREAMED, Streamed, result_items
from ._part import STATE_KINDS, Part

__all__ = [
    "BINARY_METRICS",
    "DEFAULT_BINARY",
    "DEFAULT_MULTICLASS",
    "MULTICLASS_METRICS",
    "PROBABILITY_METRICS",
    "Problem",
    "UserMetric",
    "checked_options",
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


# (the part's states, the problem, the options of the metric) -> {name: value}
Compute = Callable[[Part, Problem, Mapping[str, Any]], dict[str, Any]]


def _roc_auc_ci(part: Part, p: Problem, options: Mapping[str, Any]) -> dict[str, Any]:
    assert part.ranking is not None
    if part.ranking.weighted:
        warnings.warn("DeLong's interval is for unweighted data; NaN with sample weights")
        return {"roc_auc_ci": [math.nan, math.nan]}
    ci = part.ranking.roc_auc_ci(confidence=p.confidence, method="delong", n_threads=p.n_threads)
    return {"roc_auc_ci": [ci.lower, ci.upper]}


def _one_vs_rest_roc_auc(part: Part, p: Problem, options: Mapping[str, Any]) -> dict[str, Any]:
    """scikit-learn's ``roc_auc_score(multi_class="ovr", average="macro")``:
    the plain mean of the classes' one-vs-rest AUCs."""
    assert part.class_ranking is not None
    if p.n_classes < 3:  # roc_auc_score refuses two probability columns
        raise ValueError(f"y should be a 1d array, got an array of shape ({part.n_samples}, 2) instead.")
    scores = np.array([state.roc_auc(n_threads=p.n_threads) for state in part.class_ranking])
    return {"roc_auc": float(np.average(scores))}


def _state_method(entry: Streamed) -> Compute:
    """The vocabulary's state method on the part's state, with its fixed
    options, the Evaluator's options for that metric and, for the ranking
    methods, ``n_threads``; averaged confusion metrics over every class."""

    def compute(part: Part, p: Problem, options: Mapping[str, Any]) -> dict[str, Any]:
        if entry.state in ("brier", "log"):
            return {entry.name: part.sums[entry.state].value(halve=entry.state == "brier" and p.n_classes < 3)}
        extra = {**entry.options, **options}
        if entry.state == "ranking":
            extra["n_threads"] = p.n_threads
        if "average" in extra:
            extra.setdefault("labels", np.arange(p.n_classes))
        return result_items(entry.name, getattr(getattr(part, entry.state), entry.method)(**extra))

    return compute


# The metrics that are not one state method with options.
_SPECIAL: dict[tuple[str, bool], tuple[tuple[str, ...], Compute]] = {
    ("roc_auc_ci", False): (("ranking",), _roc_auc_ci),
    ("roc_auc", True): (("class_ranking",), _one_vs_rest_roc_auc),
}


def _table(multiclass: bool) -> dict[str, tuple[tuple[str, ...], Compute]]:
    """name -> (the states it reads, how it is computed), for the
    vocabulary's names of a binary or multiclass Evaluator."""
    tool = "multiclass" if multiclass else "binary"
    return {
        name: _SPECIAL.get((name, multiclass), ((entry.state,), _state_method(entry)))
        for name, entry in STREAMED.items()
        if tool in entry.tools
    }


BINARY_METRICS = _table(multiclass=False)
MULTICLASS_METRICS = _table(multiclass=True)

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
PROBABILITY_METRICS = frozenset(
    name for name, entry in STREAMED.items() if entry.state in ("calibration", "brier", "log")
)


_USER_STATES = {False: ("ranking", "confusion", "calibration"), True: ("class_ranking", "confusion", "calibration")}


@dataclass(frozen=True)
class UserMetric:
    """A metric of your own, computed by an :class:`~turbometrics.Evaluator`
    from one of its states, overall and per group.

    Parameters
    ----------
    state : str
        The state ``function`` reads. Binary Evaluators:
        ``"ranking"`` (a :class:`~turbometrics.RankingState` of the scores),
        ``"confusion"`` (a :class:`~turbometrics.ConfusionState` of the
        labels against the predictions at ``threshold``) or ``"calibration"``
        (a :class:`~turbometrics.CalibrationState` of ``n_bins`` bins).
        Multiclass: ``"class_ranking"`` (a list of K one-vs-rest
        RankingStates), ``"confusion"`` (against the argmax) or
        ``"calibration"`` (top label). A
        :class:`~turbometrics.SegmentationEvaluator`: ``"segmentation"``
        (a :class:`~turbometrics.segmentation.SegmentationState` of the
        label maps).
    function : callable
        ``function(state) -> value``: a number, or a list of numbers. A
        ValueError, TypeError or ZeroDivisionError it raises is handled as
        the built-in metrics' are (for a group: NaN and a warning).

    Notes
    -----
    A user metric is code: an Evaluator that has one pickles (with
    ``function`` pickled by reference) but refuses ``to_bytes``, which
    writes no code.

    Examples
    --------
    >>> import turbometrics as tm
    >>> f2 = tm.evaluator.UserMetric("confusion", lambda state: state.fbeta(beta=2.0))
    >>> ev = tm.Evaluator({"f2": f2, "f1": {"zero_division": 1.0}})
    >>> ev.update([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.6]).compute()["overall"]
    {'f2': 0.5, 'f1': 0.5}
    """

    state: str
    function: Callable[[Any], Any]

    def __post_init__(self) -> None:
        if not callable(self.function):
            raise TypeError(f"UserMetric's function must be callable, got {type(self.function).__name__}")
        known = {*_USER_STATES[False], *_USER_STATES[True], "segmentation"}
        if self.state not in known:
            raise ValueError(f"UserMetric's state must be one of {sorted(known)}, got {self.state!r}")

    def entry(self, name: str, multiclass: bool) -> tuple[tuple[str, ...], Compute]:
        """The metric's line of an Evaluator's table.

        Raises
        ------
        ValueError
            For a state that the problem's Evaluators do not hold.
        """
        if self.state not in _USER_STATES[multiclass]:
            task = "multiclass" if multiclass else "binary"
            raise ValueError(
                f"metric {name!r}: a {task} Evaluator has no {self.state!r} state "
                f"(it has {', '.join(_USER_STATES[multiclass])})"
            )
        function = self.function

        def compute(part: Part, p: Problem, options: Mapping[str, Any]) -> dict[str, Any]:
            return {name: function(getattr(part, self.state))}

        return (self.state,), compute


_JSON_TYPES = (str, int, float, bool, type(None))


def checked_options(name: str, options: Any, multiclass: bool) -> dict[str, Any]:
    """The options of the vocabulary's metric ``name``: keyword parameters of
    its state method (its fixed options may be overridden), with JSON values
    (so that ``to_bytes`` can write them).

    Raises
    ------
    TypeError
        For options that are not a mapping of str to numbers, text,
        booleans, None or lists of them.
    ValueError
        For a metric that takes no options, or an option its method does
        not take.
    """
    if not isinstance(options, Mapping):
        raise TypeError(f"metric {name!r}: options must be a dict, got {type(options).__name__}")
    if not options:
        return {}
    entry = STREAMED[name]
    if (name, multiclass) in _SPECIAL or entry.state in ("brier", "log") or name == "best_f1":  # best_f1: F1 only
        raise ValueError(f"metric {name!r} takes no options")
    state_class = STATE_KINDS[entry.state]
    parameters = inspect.signature(getattr(state_class, entry.method)).parameters
    allowed = [
        key
        for key, parameter in parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and key not in ("n_threads", "labels")
    ]
    for key, value in options.items():
        if key not in allowed:
            raise ValueError(f"metric {name!r} has no option {key!r} (options: {', '.join(allowed) or 'none'})")
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, _JSON_TYPES) for v in values):
            raise TypeError(f"metric {name!r}: option {key!r} must be a number, text, boolean, None or a list")
    return dict(options)
