"""turbometrics: fast, exact evaluation metrics.

Drop-in replacements for scikit-learn 1.9.1's ranking, classification and
probability metrics (same signatures, numbers, warnings and errors), plus
calibration error, kernel density estimation (scipy's ``gaussian_kde``),
threshold selection and AUC intervals, computed by C++ kernels that release
the GIL. :mod:`turbometrics.stability` holds ensemble-stability metrics and
:mod:`turbometrics.coco` a bit-identical drop-in for pycocotools 2.0.11.
Every parallel function takes a keyword-only ``n_threads``;
:func:`set_num_threads` sets the default.

>>> import turbometrics as tm
>>> tm.roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
0.75
"""

from ._common.threads import load_core_with_passive_wait as _load_core_with_passive_wait

# Idle OpenMP threads sleep instead of spinning (see the function); the
# process environment is left as it was.
_load_core_with_passive_wait()

from . import stability, states
from ._common.exceptions import InvalidParameterError, UndefinedMetricWarning
from ._common.threads import get_num_threads, set_num_threads
from .calibration import (
    CalibrationState,
    ReliabilityDiagram,
    brier_score_loss,
    calibration_error,
    hellinger_distance,
    log_loss,
    mean_max_confidence,
    reliability_diagram,
    smooth_calibration_error,
)
from .classification import (
    ConfusionState,
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
from .density import gaussian_kde, kde
from .evaluator import Evaluator
from .io import evaluate_parquet
from .ranking import (
    BestThreshold,
    BinnedRankingState,
    ConfidenceInterval,
    DeLongTest,
    RankingState,
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

__version__ = "0.2.0.dev0"

__all__ = [
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
    "UndefinedMetricWarning",
    "accuracy_score",
    "average_precision_score",
    "balanced_accuracy_score",
    "best_threshold",
    "bootstrap_ci",
    "brier_score_loss",
    "calibration_error",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "delong_test",
    "det_curve",
    "evaluate_parquet",
    "f1_score",
    "fbeta_score",
    "gaussian_kde",
    "get_num_threads",
    "hellinger_distance",
    "jaccard_score",
    "kde",
    "log_loss",
    "matthews_corrcoef",
    "mean_max_confidence",
    "metrics_at_thresholds",
    "multilabel_confusion_matrix",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "reliability_diagram",
    "roc_auc_ci",
    "roc_auc_score",
    "roc_curve",
    "set_num_threads",
    "smooth_calibration_error",
    "stability",
    "states",
    "top_k_accuracy_score",
]

# Pickles written before the area subpackages name the old private modules
# of these public classes: those names resolve to the modules they live in now.
import sys as _sys

for _old, _class in {
    "_calibration": ReliabilityDiagram,
    "_exceptions": UndefinedMetricWarning,
    "_gaussian_kde": gaussian_kde,
    "_intervals": ConfidenceInterval,
    "_params": InvalidParameterError,
    "_thresholds": BestThreshold,
}.items():
    _sys.modules.setdefault(f"{__name__}.{_old}", _sys.modules[_class.__module__])
_sys.modules.setdefault(f"{__name__}._sklearn_classes", _sys.modules[f"{__name__}._common.sklearn_classes"])
del _old, _class
