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
from ._patch import Patched, is_patched, patch, unpatch

globals().update(_FUNCTIONS)

__all__ = ["METRIC_NAMES", "Patched", "is_patched", "patch", "unpatch", *METRIC_NAMES]
