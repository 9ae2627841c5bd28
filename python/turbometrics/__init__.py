"""turbometrics: fast, exact evaluation metrics.

Drop-in replacements for scikit-learn 1.9.1's ranking metrics, computed by a
parallel sort-and-sweep in C++. Every function takes a keyword-only
``n_threads``; :func:`set_num_threads` sets the default.
"""

from ._exceptions import InvalidParameterError, UndefinedMetricWarning
from ._ranking import (
    average_precision_score,
    confusion_matrix_at_thresholds,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from ._threads import get_num_threads, set_num_threads

__version__ = "0.1.0"

__all__ = [
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
]
