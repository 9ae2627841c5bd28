"""The scikit-learn metric functions that turbometrics implements, by name.

Each name is both a public function of ``sklearn.metrics`` and one of
``turbometrics`` with the same parameters (turbometrics adds a keyword-only
``n_threads``).
"""

from __future__ import annotations

METRIC_NAMES: tuple[str, ...] = (
    # ranking
    "average_precision_score",
    "confusion_matrix_at_thresholds",
    "det_curve",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    "top_k_accuracy_score",
    # classification
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
    # probabilistic
    "brier_score_loss",
    "log_loss",
)

# scikit-learn's scorer check, patched so that it still refuses the wrapped
# metric functions passed as scorers.
SCORING_CHECK = "check_scoring"

# Every name of ``sklearn.metrics`` that the patch replaces.
PATCHED_NAMES: tuple[str, ...] = (*METRIC_NAMES, SCORING_CHECK)
