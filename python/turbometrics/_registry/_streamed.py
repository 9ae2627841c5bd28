"""The one vocabulary of the streaming tools: the metric names that the
:class:`~turbometrics.Evaluator` (and so the command line,
``turbometrics.dask.evaluate`` and ``turbometrics.spark.evaluate``) and
``evaluate_parquet`` take (:data:`STREAMED`), and those of label maps that
the :class:`~turbometrics.SegmentationEvaluator` takes
(:data:`SEGMENTATION`), each with the in-memory function it equals and the
state method that computes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

Tool = Literal["binary", "multiclass", "parquet", "segmentation"]
StateKind = Literal["ranking", "confusion", "calibration", "brier", "log", "segmentation"]


@dataclass(frozen=True)
class Streamed:
    """A metric name of the streaming tools.

    Attributes
    ----------
    name : str
        The name, and the key of its value in the tools' results.
    function : str
        The public function whose value it is (on all the rows at once).
    state : str
        The state that computes it: ``ranking`` (:class:`RankingState`; the
        multiclass ``roc_auc`` reads one per class), ``confusion``
        (:class:`ConfusionState` of the predicted labels), ``calibration``
        (:class:`CalibrationState`), the exact sums of ``brier`` or
        ``log`` (the Evaluator's), or ``segmentation``
        (:class:`~turbometrics.segmentation.SegmentationState` of label
        maps).
    method : str
        The state's method that computes it.
    options : mapping
        The method's options that the tools fix (``zero_division=0.0``: a
        streamed precision of no predicted positive is 0 without a warning).
        An Evaluator's options per metric are added to these.
    tools : frozenset of str
        Who takes the name: ``binary`` and ``multiclass`` Evaluators,
        ``parquet`` (``evaluate_parquet``), ``segmentation`` (the
        SegmentationEvaluator).
    """

    name: str
    function: str
    state: StateKind
    method: str
    tools: frozenset[Tool]
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


def _entry(name: str, function: str, state: StateKind, method: str, tools: str, **options: Any) -> Streamed:
    chosen = frozenset(tool for tool in ("binary", "multiclass", "parquet", "segmentation") if tool[0] in tools)
    return Streamed(name, function, state, method, chosen, MappingProxyType(options))  # type: ignore[arg-type]


_ZERO = {"zero_division": 0.0}

# tools: b(inary), m(ulticlass) Evaluator, p(arquet)
STREAMED: Mapping[str, Streamed] = MappingProxyType(
    {
        entry.name: entry
        for entry in (
            _entry("roc_auc", "roc_auc_score", "ranking", "roc_auc", "bmp"),
            _entry("roc_auc_ci", "roc_auc_ci", "ranking", "roc_auc_ci", "b"),
            _entry("average_precision", "average_precision_score", "ranking", "average_precision", "bp"),
            _entry("best_f1", "best_threshold", "ranking", "best_threshold", "bp", metric="f1"),
            _entry("best_threshold", "best_threshold", "ranking", "best_threshold", "p"),
            _entry("roc_curve", "roc_curve", "ranking", "roc_curve", "p"),
            _entry("precision_recall_curve", "precision_recall_curve", "ranking", "precision_recall_curve", "p"),
            _entry("accuracy", "accuracy_score", "confusion", "accuracy", "bmp"),
            _entry("balanced_accuracy", "balanced_accuracy_score", "confusion", "balanced_accuracy", "bmp"),
            _entry("precision", "precision_score", "confusion", "precision", "bp", **_ZERO),
            _entry("recall", "recall_score", "confusion", "recall", "bp", **_ZERO),
            _entry("f1", "f1_score", "confusion", "f1", "bp", **_ZERO),
            _entry("f1_macro", "f1_score", "confusion", "f1", "m", average="macro", **_ZERO),
            _entry("f1_weighted", "f1_score", "confusion", "f1", "m", average="weighted", **_ZERO),
            _entry("jaccard", "jaccard_score", "confusion", "jaccard", "bp", **_ZERO),
            _entry("mcc", "matthews_corrcoef", "confusion", "matthews_corrcoef", "bmp"),
            _entry("cohen_kappa", "cohen_kappa_score", "confusion", "cohen_kappa", "bmp"),
            _entry("confusion_matrix", "confusion_matrix", "confusion", "confusion_matrix", "p"),
            _entry("ece", "calibration_error", "calibration", "ece", "bmp"),
            _entry("mce", "calibration_error", "calibration", "mce", "bmp"),
            _entry("rmsce", "calibration_error", "calibration", "rmsce", "bmp"),
            _entry("reliability_diagram", "reliability_diagram", "calibration", "reliability_diagram", "p"),
            _entry("brier", "brier_score_loss", "brier", "value", "bm"),
            _entry("log_loss", "log_loss", "log", "value", "bm"),
        )
    }
)

# The names of label maps (turbometrics.segmentation's functions that a
# SegmentationState scores: SegmentationState.score(metric=name)), in a
# mapping of their own, since "precision" and "recall" name other metrics of
# the binary Evaluator.
SEGMENTATION: Mapping[str, Streamed] = MappingProxyType(
    {
        entry.name: entry
        for entry in (
            _entry(name, name, "segmentation", "score", "s", metric=name)
            for name in (
                "iou",
                "dice",
                "precision",
                "recall",
                "fbeta",
                "class_accuracy",
                "pixel_accuracy",
                "generalized_dice",
            )
        )
    }
)

# Other spellings the tools take, and the name they stand for: an
# Evaluator reports the vocabulary's name, ``evaluate_parquet`` (where the
# alias was the name) the spelling asked for.
ALIASES: Mapping[str, str] = MappingProxyType({"matthews_corrcoef": "mcc"})


def canonical(name: Any) -> Any:
    """The vocabulary's name for ``name`` (itself unless an alias)."""
    return ALIASES.get(name, name) if isinstance(name, str) else name


def result_items(name: str, value: Any) -> dict[str, Any]:
    """The result entries of metric ``name`` of the value its state method
    returned: ``best_f1``'s :class:`~turbometrics.BestThreshold` gives
    ``best_f1`` (the F1) and ``best_f1_threshold``; any other value is
    itself."""
    if canonical(name) == "best_f1":
        return {name: value.value, f"{name}_threshold": value.threshold}
    return {name: value}
