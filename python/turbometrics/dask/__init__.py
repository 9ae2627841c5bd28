"""Exact metrics over dask collections (``pip install turbometrics[dask]``).

Every function has the signature and the semantics of the in-memory
turbometrics function of the same name (that is, scikit-learn 1.9.1's),
takes binary/label data as dask arrays, dask Series (DataFrame columns) or
NumPy arrays, and adds keyword-only arguments:

compute : bool, default=True
    False returns a :class:`dask.delayed.Delayed` instead of the value.
split_every : int, default=None (8)
    How many states one merge task combines (the fan-in of the reduction
    tree).
n_threads : int, default=None
    Threads per task for the turbometrics kernels. None uses the worker's
    default, which is 1 under ``dask.distributed`` (workers start with
    ``OMP_NUM_THREADS=1``). Keep ``threads per worker x n_threads <= cores
    of the machine``: e.g. on a 32-core machine either 32 single-threaded
    worker threads (the default) or 4 worker threads with ``n_threads=8``.

Blocks of labels, scores and weights must line up: dask arrays are
rechunked to the chunks of the first array, dask Series must have the same
number of partitions (or known divisions, then they are repartitioned).
Each block becomes a mergeable state (``turbometrics.RankingState``,
``ConfusionState``, ``CalibrationState``), and the states are combined by a
tree of merge tasks; data are never shuffled. :func:`segmentation_state`
does the same for label maps of any dimension (blocks along every axis),
returning the merged ``SegmentationState``.
"""

from __future__ import annotations

try:
    import dask as _dask  # noqa: F401
    import dask.array as _dask_array  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised without dask only
    raise ImportError("turbometrics.dask needs dask: pip install 'turbometrics[dask]'") from error

from .._registry import FUNCTIONS as _FUNCTIONS
from ._calibration import (
    calibration_error as calibration_error,
)
from ._classification import (
    accuracy_score as accuracy_score,
    balanced_accuracy_score as balanced_accuracy_score,
    cohen_kappa_score as cohen_kappa_score,
    confusion_matrix as confusion_matrix,
    f1_score as f1_score,
    fbeta_score as fbeta_score,
    jaccard_score as jaccard_score,
    matthews_corrcoef as matthews_corrcoef,
    precision_recall_fscore_support as precision_recall_fscore_support,
    precision_score as precision_score,
    recall_score as recall_score,
)
from ._coco import CocoEvaluation as CocoEvaluation, coco_evaluate as coco_evaluate
from ._evaluator import evaluate as evaluate
from ._ranking import (
    average_precision_score as average_precision_score,
    best_threshold as best_threshold,
    precision_recall_curve as precision_recall_curve,
    roc_auc_score as roc_auc_score,
    roc_curve as roc_curve,
)
from ._segmentation import segmentation_state as segmentation_state

# The registry's metrics that dask computes, and the tools of this package.
__all__ = sorted(
    [
        *(metric.name for metric in _FUNCTIONS if metric.dask),
        "CocoEvaluation",
        "coco_evaluate",
        "evaluate",
        "segmentation_state",
    ]
)
