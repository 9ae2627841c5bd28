"""Several metrics at once over dask collections: one
:class:`~turbometrics.Evaluator` per block, shipped between tasks as its
``to_bytes()`` (arrays and JSON, nothing unpickled) and merged in a tree."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import dask
import numpy as np

from ..evaluator import Evaluator
from ._graph import block_states, check_split_every, merge_balanced, tree_reduce
from ._results import finish, recorded


def _block_bytes(options: dict[str, Any], names: Sequence[str], *blocks: np.ndarray) -> bytes:
    """The bytes of an Evaluator of ``options`` fed one block."""
    given = dict(zip(names, blocks))
    evaluator = Evaluator(**options)
    evaluator.update(
        given["y_true"],
        given["y_score"],
        sample_weight=given.get("sample_weight"),
        groups=given.get("groups"),
    )
    return evaluator.to_bytes()


def _merge_bytes(*parts: bytes) -> bytes:
    return merge_balanced([Evaluator.from_bytes(part) for part in parts]).to_bytes()


def _computed(data: bytes) -> Any:
    return recorded(Evaluator.from_bytes(data).compute)


def evaluate(
    y_true: Any,
    y_score: Any,
    metrics: Sequence[str] | None = None,
    *,
    sample_weight: Any = None,
    groups: Any = None,
    classes: int | Sequence[Any] | None = None,
    threshold: float = 0.5,
    n_bins: int = 15,
    confidence: float = 0.95,
    by: str | None = None,
    n_threads: int | None = None,
    compute: bool = True,
    split_every: int | None = None,
) -> Any:
    """:meth:`turbometrics.Evaluator.compute` of dask collections.

    Each block of the inputs (aligned as for every ``turbometrics.dask``
    function) is fed to an :class:`~turbometrics.Evaluator` of ``metrics``
    and the options given (the Evaluator's parameters), in the task that
    reads it; the Evaluators travel between tasks as their ``to_bytes()``
    and are merged ``split_every`` at a time. The result equals the
    in-memory Evaluator's on the concatenated rows, bit for bit, for every
    chunking and ``split_every``.

    Parameters
    ----------
    y_true, y_score, sample_weight, groups : dask arrays, dask Series or NumPy arrays
        As :meth:`turbometrics.Evaluator.update`. Multiclass ``y_score`` is a 2-D dask
        array (for DataFrame columns: ``df[columns].to_dask_array(lengths=True)``,
        with the other inputs as dask arrays too).
    metrics, classes, threshold, n_bins, confidence, by, n_threads
        As :class:`~turbometrics.Evaluator` (``n_threads`` per task).
    compute : bool, default=True
        False returns a :class:`dask.delayed.Delayed` of the result.
    split_every : int, default=None (8)
        Evaluators per merge task.

    Returns
    -------
    dict
        ``{"overall": ..., "by_group": ..., "gap": ...}``; warnings of the
        metrics are issued in the calling process.

    Raises
    ------
    ValueError, TypeError
        For invalid parameters (at once) or input (when the graph runs), as
        the Evaluator raises them.
    """
    every = check_split_every(split_every)
    options: dict[str, Any] = dict(
        metrics=metrics,
        classes=classes,
        threshold=threshold,
        n_bins=n_bins,
        confidence=confidence,
        by=by,
        n_threads=n_threads,
    )
    Evaluator(**options)  # invalid options raise here, not in a task
    inputs = {"y_true": y_true, "y_score": y_score, "sample_weight": sample_weight, "groups": groups}
    names = [name for name, value in inputs.items() if value is not None]
    build = partial(_block_bytes, options, names)
    blocks = block_states(build, **inputs)
    merged = tree_reduce(blocks, every, combine=_merge_bytes)
    return finish(dask.delayed(_computed, pure=True)(merged), compute)
