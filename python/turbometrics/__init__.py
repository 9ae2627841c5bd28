"""turbometrics: fast, exact evaluation metrics.

Drop-in replacements for scikit-learn 1.9.1's ranking metrics, computed by a
parallel sort-and-sweep in C++. Every function takes a keyword-only
``n_threads``; :func:`set_num_threads` sets the default.
"""

import os as _os

# Idle OpenMP threads sleep instead of spinning, so that kernels stay fast
# when other processes share the CPUs. Must be set before the OpenMP runtime
# loads with turbometrics._core; a value the user set is kept.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from ._exceptions import InvalidParameterError, UndefinedMetricWarning
from ._classification import (
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
from ._ranking import (
    average_precision_score,
    confusion_matrix_at_thresholds,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from . import stability
from ._calibration import (
    ReliabilityDiagram,
    calibration_error,
    hellinger_distance,
    mean_max_confidence,
    reliability_diagram,
)
from ._proper_scores import brier_score_loss, log_loss
from ._smooth_calibration import smooth_calibration_error
from ._gaussian_kde import gaussian_kde
from ._kde import kde
from ._intervals import ConfidenceInterval, DeLongTest, bootstrap_ci, delong_test, roc_auc_ci
from ._thresholds import BestThreshold, best_threshold, metrics_at_thresholds
from ._top_k import top_k_accuracy_score
from ._threads import get_num_threads, set_num_threads
from . import states
from .states import BinnedRankingState, RankingState

__version__ = "0.1.0"

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "jaccard_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "InvalidParameterError",
    "UndefinedMetricWarning",
    "average_precision_score",
    "confusion_matrix_at_thresholds",
    "det_curve",
    "get_num_threads",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    "set_num_threads",
    "BestThreshold",
    "ConfidenceInterval",
    "DeLongTest",
    "best_threshold",
    "bootstrap_ci",
    "delong_test",
    "metrics_at_thresholds",
    "roc_auc_ci",
    "BinnedRankingState",
    "RankingState",
    "states",
    "top_k_accuracy_score",
    "gaussian_kde",
    "kde",
    "ReliabilityDiagram",
    "brier_score_loss",
    "calibration_error",
    "hellinger_distance",
    "log_loss",
    "mean_max_confidence",
    "reliability_diagram",
    "smooth_calibration_error",
    "stability",
]
