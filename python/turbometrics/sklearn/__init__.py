"""turbometrics as scikit-learn's metrics backend.

The functions here are turbometrics' implementations of scikit-learn 1.9.1
metrics with scikit-learn's exact signatures (no ``n_threads``; the global
:func:`turbometrics.set_num_threads` applies). Importing this module does not
import scikit-learn.

:func:`patch` makes scikit-learn itself use them: ``sklearn.metrics``, the
modules that imported the functions, and the predefined scorers (so
``cross_val_score(..., scoring="roc_auc")`` runs turbometrics). Calls that
turbometrics does not handle (sparse matrices; non-NumPy arrays under
scikit-learn's ``array_api_dispatch``; arguments that do not fit the
signature) go to scikit-learn's own function. :func:`unpatch` restores the
originals::

    import turbometrics.sklearn

    with turbometrics.sklearn.patch():
        cross_val_score(model, X, y, scoring="roc_auc")
"""

from ._functions import FUNCTIONS as _FUNCTIONS
from ._names import METRIC_NAMES
from ._patch import Patched, is_patched, patch, patched, skipped, unpatch

average_precision_score = _FUNCTIONS["average_precision_score"]
confusion_matrix_at_thresholds = _FUNCTIONS["confusion_matrix_at_thresholds"]
det_curve = _FUNCTIONS["det_curve"]
precision_recall_curve = _FUNCTIONS["precision_recall_curve"]
roc_auc_score = _FUNCTIONS["roc_auc_score"]
roc_curve = _FUNCTIONS["roc_curve"]
top_k_accuracy_score = _FUNCTIONS["top_k_accuracy_score"]
accuracy_score = _FUNCTIONS["accuracy_score"]
balanced_accuracy_score = _FUNCTIONS["balanced_accuracy_score"]
cohen_kappa_score = _FUNCTIONS["cohen_kappa_score"]
confusion_matrix = _FUNCTIONS["confusion_matrix"]
f1_score = _FUNCTIONS["f1_score"]
fbeta_score = _FUNCTIONS["fbeta_score"]
jaccard_score = _FUNCTIONS["jaccard_score"]
matthews_corrcoef = _FUNCTIONS["matthews_corrcoef"]
multilabel_confusion_matrix = _FUNCTIONS["multilabel_confusion_matrix"]
precision_recall_fscore_support = _FUNCTIONS["precision_recall_fscore_support"]
precision_score = _FUNCTIONS["precision_score"]
recall_score = _FUNCTIONS["recall_score"]
brier_score_loss = _FUNCTIONS["brier_score_loss"]
log_loss = _FUNCTIONS["log_loss"]

__all__ = ["METRIC_NAMES", "Patched", "is_patched", "patch", "patched", "skipped", "unpatch", *METRIC_NAMES]
