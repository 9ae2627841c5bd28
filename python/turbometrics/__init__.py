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

from ._threads import load_core_with_passive_wait as _load_core_with_passive_wait

# Idle OpenMP threads sleep instead of spinning (see the function); the
# process environment is left as it was.
_load_core_with_passive_wait()

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
from .states import BinnedRankingState, CalibrationState, ConfusionState, RankingState, evaluate_parquet

__version__ = "0.2.0.dev0"

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
    "CalibrationState",
    "ConfusionState",
    "evaluate_parquet",
]

# polars, pyarrow and torch arrays are accepted by every public function.
from ._array_inputs import adapt_public_functions as _adapt_public_functions

_adapt_public_functions(globals(), __all__)
_adapt_public_functions(vars(stability), stability.__all__)
