"""Classification: predicted labels against true labels.

The confusion tables (``_targets``, ``_confusion``), precision, recall,
F-scores and Jaccard (``_prf``), accuracy, balanced accuracy, Cohen's kappa
and the Matthews correlation coefficient (``_scores``), the parameter
constraints they share (``_params``) and the mergeable state (``_state``).
"""

from ._scores import (
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
from ._state import ConfusionState

__all__ = [
    "ConfusionState",
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
]
