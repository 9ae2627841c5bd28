"""The public metric functions (:data:`FUNCTIONS`) and what each one is:
its inputs, whether it is a drop-in for ``sklearn.metrics``, and whether
``turbometrics.dask`` computes it (and from which state method)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..calibration import (
    brier_score_loss,
    calibration_error,
    hellinger_distance,
    log_loss,
    mean_max_confidence,
    reliability_diagram,
    smooth_calibration_error,
)
from ..classification import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    jaccard_score,
    matthews_corrcoef,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from ..density import kde
from ..ranking import (
    average_precision_score,
    best_threshold,
    bootstrap_ci,
    confusion_matrix_at_thresholds,
    delong_test,
    det_curve,
    metrics_at_thresholds,
    precision_recall_curve,
    roc_auc_ci,
    roc_auc_score,
    roc_curve,
    top_k_accuracy_score,
)
from ..segmentation import (
    average_surface_distance,
    class_accuracy as label_map_class_accuracy,
    confusion_matrix as label_map_confusion_matrix,
    dice as label_map_dice,
    fbeta as label_map_fbeta,
    generalized_dice as label_map_generalized_dice,
    hausdorff_distance,
    instance_iou,
    iou as label_map_iou,
    pixel_accuracy as label_map_pixel_accuracy,
    precision as label_map_precision,
    recall as label_map_recall,
    surface_dice,
)
from ..stability import aleatoric_uncertainty, epistemic_uncertainty, iqr, jitter, label_stability, selection_rate, std

# What a function reads, so that generic tests can build its arguments:
Inputs = Literal[
    "binary scores",  # (y_true, y_score): binary labels, scores
    "two binary scores",  # (y_true, y_score_a, y_score_b)
    "scored metric",  # (metric, y_true, y_pred_or_score)
    "class scores",  # (y_true, y_score): class labels, (n, K) scores
    "labels",  # (y_true, y_pred): class labels twice
    "binary probabilities",  # (y_true, y_prob): binary labels, probabilities
    "probability rows",  # (y_prob,): (n, K) rows summing to one
    "two distributions",  # (p, q): (n, K) rows summing to one
    "samples and points",  # (data, points): (n, d) samples, (m, d) points
    "ensemble",  # (P,): (members, n) or (members, n, K) probabilities
    "predictions",  # (y_pred,): labels
    "label maps",  # (y_true, y_pred): integer label maps of one shape, and num_classes
    "label maps and tolerance",  # label maps, num_classes and tolerance (surface_dice)
    "instance maps",  # (y_true_instances, y_pred): an instance map, a label map, and the classes' average sizes
]


@dataclass(frozen=True)
class Metric:
    """One public metric function.

    Attributes
    ----------
    function : callable
        The in-memory function (``turbometrics.<area>.<name>``).
    inputs : str
        What it reads (:data:`Inputs`).
    sklearn : bool
        A drop-in for ``sklearn.metrics.<name>``: same parameters (plus a
        keyword-only ``n_threads``), numbers, warnings and errors;
        ``turbometrics.sklearn.patch()`` replaces it.
    dask : bool
        ``turbometrics.dask.<name>`` exists, with this function's
        parameters and defaults plus ``compute`` and ``split_every``.
    state_method : str or None
        The method of the area's mergeable state (:class:`RankingState`,
        :class:`ConfusionState`) that computes the same value from merged
        counts (``ConfusionState.f1`` for ``f1_score``), with the function's
        parameters other than the arrays and the weights; ``dask`` builds
        the classification functions from it.
    top_level : bool
        Also ``turbometrics.<name>``.
    """

    function: Callable[..., Any]
    inputs: Inputs
    sklearn: bool = False
    dask: bool = False
    state_method: str | None = None
    top_level: bool = True

    @property
    def name(self) -> str:
        return self.function.__name__

    @property
    def area(self) -> str:
        """The area subpackage: ``ranking``, ``classification``..."""
        return self.function.__module__.split(".")[1]


def _classification(function: Callable[..., Any], state_method: str) -> Metric:
    return Metric(function, "labels", sklearn=True, dask=True, state_method=state_method)


FUNCTIONS: tuple[Metric, ...] = (
    # ranking
    Metric(average_precision_score, "binary scores", sklearn=True, dask=True, state_method="average_precision"),
    Metric(best_threshold, "binary scores", dask=True, state_method="best_threshold"),
    Metric(bootstrap_ci, "scored metric"),
    Metric(confusion_matrix_at_thresholds, "binary scores", sklearn=True),
    Metric(delong_test, "two binary scores"),
    Metric(det_curve, "binary scores", sklearn=True),
    Metric(metrics_at_thresholds, "binary scores"),
    Metric(precision_recall_curve, "binary scores", sklearn=True, dask=True, state_method="precision_recall_curve"),
    Metric(roc_auc_ci, "binary scores", state_method="roc_auc_ci"),
    Metric(roc_auc_score, "binary scores", sklearn=True, dask=True, state_method="roc_auc"),
    Metric(roc_curve, "binary scores", sklearn=True, dask=True, state_method="roc_curve"),
    Metric(top_k_accuracy_score, "class scores", sklearn=True),
    # classification
    _classification(accuracy_score, "accuracy"),
    _classification(balanced_accuracy_score, "balanced_accuracy"),
    _classification(cohen_kappa_score, "cohen_kappa"),
    _classification(confusion_matrix, "confusion_matrix"),
    _classification(f1_score, "f1"),
    _classification(fbeta_score, "fbeta"),
    _classification(jaccard_score, "jaccard"),
    _classification(matthews_corrcoef, "matthews_corrcoef"),
    Metric(multilabel_confusion_matrix, "labels", sklearn=True),
    _classification(precision_recall_fscore_support, "precision_recall_fscore_support"),
    _classification(precision_score, "precision"),
    _classification(recall_score, "recall"),
    # calibration
    Metric(brier_score_loss, "binary probabilities", sklearn=True),
    Metric(calibration_error, "binary probabilities", dask=True),
    Metric(hellinger_distance, "two distributions"),
    Metric(log_loss, "binary probabilities", sklearn=True),
    Metric(mean_max_confidence, "probability rows"),
    Metric(reliability_diagram, "binary probabilities"),
    Metric(smooth_calibration_error, "binary probabilities"),
    # density
    Metric(kde, "samples and points"),
    # segmentation (turbometrics.segmentation only)
    Metric(label_map_class_accuracy, "label maps", top_level=False),
    Metric(label_map_confusion_matrix, "label maps", top_level=False),
    Metric(label_map_dice, "label maps", top_level=False),
    Metric(label_map_fbeta, "label maps", top_level=False),
    Metric(label_map_generalized_dice, "label maps", top_level=False),
    Metric(label_map_iou, "label maps", top_level=False),
    Metric(label_map_pixel_accuracy, "label maps", top_level=False),
    Metric(label_map_precision, "label maps", top_level=False),
    Metric(label_map_recall, "label maps", top_level=False),
    Metric(hausdorff_distance, "label maps", top_level=False),
    Metric(average_surface_distance, "label maps", top_level=False),
    Metric(surface_dice, "label maps and tolerance", top_level=False),
    Metric(instance_iou, "instance maps", top_level=False),
    # stability (turbometrics.stability only)
    Metric(aleatoric_uncertainty, "ensemble", top_level=False),
    Metric(epistemic_uncertainty, "ensemble", top_level=False),
    Metric(iqr, "ensemble", top_level=False),
    Metric(jitter, "ensemble", top_level=False),
    Metric(label_stability, "ensemble", top_level=False),
    Metric(selection_rate, "predictions", top_level=False),
    Metric(std, "ensemble", top_level=False),
)

# The top level's names that are not metric functions: the classes of the
# results and states, the tools built on the states, the settings, the
# warning and error classes and the subpackages that are not re-exported.
_OTHER_TOP_LEVEL = (
    "BestThreshold",
    "BinnedRankingState",
    "CalibrationState",
    "ConfidenceInterval",
    "ConfusionState",
    "DeLongTest",
    "Evaluator",
    "InvalidParameterError",
    "RankingState",
    "ReliabilityDiagram",
    "SegmentationEvaluator",
    "UndefinedMetricWarning",
    "evaluate_parquet",
    "gaussian_kde",
    "get_num_threads",
    "set_num_threads",
    "segmentation",
    "stability",
    "states",
)


def top_level_names() -> list[str]:
    """``turbometrics.__all__``: the top-level metric functions and the
    other public names, sorted."""
    return sorted([*(metric.name for metric in FUNCTIONS if metric.top_level), *_OTHER_TOP_LEVEL])


def by_name(name: str) -> Metric:
    """The registry's entry of the function ``name``: the top-level one
    where an area's function has the name of a top-level one
    (``turbometrics.segmentation.confusion_matrix`` is not
    ``turbometrics.confusion_matrix``).

    Raises
    ------
    KeyError
        For a name that is not a registered metric function.
    """
    for metric in FUNCTIONS:
        if metric.name == name:
            return metric
    raise KeyError(name)
