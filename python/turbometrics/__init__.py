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

from . import (
    segmentation as segmentation,
    stability as stability,
    states as states,
)
from ._common.exceptions import (
    InvalidParameterError as InvalidParameterError,
    UndefinedMetricWarning as UndefinedMetricWarning,
)
from ._common.threads import (
    get_num_threads as get_num_threads,
    set_num_threads as set_num_threads,
)
from ._registry import top_level_names as _top_level_names
from .calibration import (
    CalibrationState as CalibrationState,
    ReliabilityDiagram as ReliabilityDiagram,
    brier_score_loss as brier_score_loss,
    calibration_error as calibration_error,
    hellinger_distance as hellinger_distance,
    log_loss as log_loss,
    mean_max_confidence as mean_max_confidence,
    reliability_diagram as reliability_diagram,
    smooth_calibration_error as smooth_calibration_error,
)
from .classification import (
    ConfusionState as ConfusionState,
    accuracy_score as accuracy_score,
    balanced_accuracy_score as balanced_accuracy_score,
    cohen_kappa_score as cohen_kappa_score,
    confusion_matrix as confusion_matrix,
    f1_score as f1_score,
    fbeta_score as fbeta_score,
    jaccard_score as jaccard_score,
    matthews_corrcoef as matthews_corrcoef,
    multilabel_confusion_matrix as multilabel_confusion_matrix,
    precision_recall_fscore_support as precision_recall_fscore_support,
    precision_score as precision_score,
    recall_score as recall_score,
)
from .density import (
    gaussian_kde as gaussian_kde,
    kde as kde,
)
from .evaluator import (
    Evaluator as Evaluator,
    SegmentationEvaluator as SegmentationEvaluator,
)
from .io import (
    evaluate_parquet as evaluate_parquet,
)
from .ranking import (
    BestThreshold as BestThreshold,
    BinnedRankingState as BinnedRankingState,
    ConfidenceInterval as ConfidenceInterval,
    DeLongTest as DeLongTest,
    RankingState as RankingState,
    average_precision_score as average_precision_score,
    best_threshold as best_threshold,
    bootstrap_ci as bootstrap_ci,
    confusion_matrix_at_thresholds as confusion_matrix_at_thresholds,
    delong_test as delong_test,
    det_curve as det_curve,
    metrics_at_thresholds as metrics_at_thresholds,
    precision_recall_curve as precision_recall_curve,
    roc_auc_ci as roc_auc_ci,
    roc_auc_score as roc_auc_score,
    roc_curve as roc_curve,
    top_k_accuracy_score as top_k_accuracy_score,
)

__version__ = "0.2.0.dev0"

# The metric functions of the registry and the other public names, sorted
# (turbometrics._registry.top_level_names).
__all__ = _top_level_names()

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
