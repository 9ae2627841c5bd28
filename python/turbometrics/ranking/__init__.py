"""Ranking: binary scores against labels.

ROC, precision-recall and DET curves, ROC AUC and average precision
(``_scores``), multiclass averaging (``_multiclass``, ``_averaging``), top-k
accuracy, AUC intervals and the DeLong test (``_intervals``), threshold
selection (``_thresholds``), the input preparation they share
(``_binary_input``) and the mergeable states (``_state``,
``_binned_state``).
"""

from ._binary_input import positive_mask
from ._binned_state import BinnedRankingState, BinnedValue
from ._intervals import ConfidenceInterval, DeLongTest, bootstrap_ci, delong_test, roc_auc_ci
from ._scores import (
    average_precision_score,
    check_probability_rows,
    confusion_matrix_at_thresholds,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from ._state import RankingState
from ._thresholds import BestThreshold, best_threshold, metrics_at_thresholds
from ._top_k import top_k_accuracy_score

__all__ = [
    "BestThreshold",
    "BinnedRankingState",
    "BinnedValue",
    "ConfidenceInterval",
    "DeLongTest",
    "RankingState",
    "average_precision_score",
    "best_threshold",
    "bootstrap_ci",
    "confusion_matrix_at_thresholds",
    "delong_test",
    "det_curve",
    "metrics_at_thresholds",
    "precision_recall_curve",
    "roc_auc_ci",
    "roc_auc_score",
    "roc_curve",
    "top_k_accuracy_score",
]
