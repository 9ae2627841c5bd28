"""Classification metrics over dask collections: one ConfusionState per
block, tree-merged; the metric is the merged state's method (which is the
in-memory function's own code on the merged counts), named by the registry,
and the signature the in-memory function's."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import dask
import numpy as np

from .._registry import by_name
from ._graph import block_states, check_split_every, tree_reduce
from ._results import Warned, finish, recorded
from ._signature import mirroring


def _block_state(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None, *, n_threads: int | None
) -> Any:
    from ..states import ConfusionState

    return ConfusionState.from_arrays(y_true, y_pred, sample_weight=sample_weight, n_threads=n_threads)


def evaluate(state: Any, method: str, kwargs: dict[str, Any]) -> Warned:
    """The merged state's ``method`` with its warnings."""
    return recorded(getattr(state, method), **kwargs)


def _metric(
    method: str,
    y_true: Any,
    y_pred: Any,
    sample_weight: Any,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    **kwargs: Any,
) -> Any:
    every = check_split_every(split_every)
    blocks = block_states(
        partial(_block_state, n_threads=n_threads), y_true=y_true, y_pred=y_pred, sample_weight=sample_weight
    )
    merged = tree_reduce(blocks, every)
    return finish(dask.delayed(evaluate, pure=True)(merged, method, kwargs), compute)


def _from_state(name: str) -> Callable[..., Any]:
    """``turbometrics.dask.<name>``: the in-memory function's parameters
    (the first two the arrays), and its registry's state method on the
    merged ConfusionState with the other parameters."""
    method = by_name(name).state_method
    assert method is not None

    def implementation(**arguments: Any) -> Any:
        y_true, y_pred = (arguments.pop(key) for key in list(arguments)[:2])
        sample_weight, n_threads = arguments.pop("sample_weight"), arguments.pop("n_threads")
        compute, split_every = arguments.pop("compute"), arguments.pop("split_every")
        return _metric(method, y_true, y_pred, sample_weight, n_threads, compute, split_every, **arguments)

    implementation.__doc__ = f"As :func:`turbometrics.{name}`."
    return mirroring(name, "compute", "split_every")(implementation)


accuracy_score = _from_state("accuracy_score")
balanced_accuracy_score = _from_state("balanced_accuracy_score")
cohen_kappa_score = _from_state("cohen_kappa_score")
confusion_matrix = _from_state("confusion_matrix")
f1_score = _from_state("f1_score")
fbeta_score = _from_state("fbeta_score")
jaccard_score = _from_state("jaccard_score")
matthews_corrcoef = _from_state("matthews_corrcoef")
precision_recall_fscore_support = _from_state("precision_recall_fscore_support")
precision_score = _from_state("precision_score")
recall_score = _from_state("recall_score")
