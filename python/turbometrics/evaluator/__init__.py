"""The Evaluator: several metrics at once, overall and per group, fed batch
by batch and merged across processes, on the mergeable states
(``_evaluator``); the metrics by name and the states each reads
(``_metrics``, ``_part``), whose tables the command line uses too; the
SegmentationEvaluator, its counterpart for label maps (``_segmentation``)."""

from ._evaluator import Evaluator, option_parameters, update_parameters
from ._metrics import (
    BINARY_METRICS,
    DEFAULT_BINARY,
    DEFAULT_MULTICLASS,
    MULTICLASS_METRICS,
    PROBABILITY_METRICS,
    UserMetric,
)
from ._segmentation import DEFAULT_SEGMENTATION, SegmentationEvaluator

__all__ = ["Evaluator", "SegmentationEvaluator", "UserMetric"]
