"""Binned calibration error over dask collections: one CalibrationState
(per-bin weight, sum of confidence, sum of correctness) per block,
tree-merged."""

from __future__ import annotations

from functools import partial
from typing import Any

import dask
import numpy as np

from .._common.params import str_options, validate_params
from ._classification import evaluate
from ._graph import block_states, check_split_every, tree_reduce
from ._results import finish
from ._signature import mirroring

# CalibrationState's method for each norm
_METHODS = {"l1": "ece", "l2": "rmsce", "max": "mce"}


def _block_state(
    y_true: np.ndarray,
    y_prob: np.ndarray,
    sample_weight: np.ndarray | None = None,
    *,
    n_bins: int,
    mode: str,
    pos_label: Any,
    n_threads: int | None,
) -> Any:
    from ..states import CalibrationState

    return CalibrationState.from_arrays(
        y_true, y_prob, n_bins=n_bins, mode=mode, pos_label=pos_label, sample_weight=sample_weight, n_threads=n_threads
    )


@mirroring("calibration_error", "compute", "split_every")
@validate_params({"norm": [str_options({"l1", "l2", "max"})]}, bind_like_scikit_learn=False)
def calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int,
    strategy: str,
    norm: str,
    mode: str,
    pos_label: Any,
    sample_weight: Any,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
) -> Any:
    """As :func:`turbometrics.calibration_error`, with uniform bins only.

    ``y_prob`` may be 2-D (n_samples, K) (its blocks span all K columns).

    Raises
    ------
    ValueError
        If ``strategy="quantile"``: quantile bin edges depend on every
        confidence of the data set, so they cannot come from merged
        per-block states.
    """
    if strategy != "uniform":
        raise ValueError(
            f"turbometrics.dask.calibration_error supports strategy='uniform' only, got {strategy!r}: "
            "quantile bin edges depend on the whole data set and cannot be merged from blocks"
        )
    every = check_split_every(split_every)
    build = partial(_block_state, n_bins=n_bins, mode=mode, pos_label=pos_label, n_threads=n_threads)
    blocks = block_states(build, y_true=y_true, y_prob=y_prob, sample_weight=sample_weight)
    merged = tree_reduce(blocks, every)
    return finish(dask.delayed(evaluate, pure=True)(merged, _METHODS[norm], {}), compute)
