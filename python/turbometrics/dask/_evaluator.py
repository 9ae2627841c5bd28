"""Several metrics at once over dask collections: one
:class:`~turbometrics.Evaluator` per block, shipped between tasks as its
``to_bytes()`` (arrays and JSON, nothing unpickled) and merged in a tree."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import dask
import numpy as np

from .._common.signatures import signed
from ..evaluator import Evaluator, option_parameters, update_parameters
from ._graph import block_states, check_split_every, merge_balanced, tree_reduce
from ._results import finish, recorded
from ._signature import dask_signature


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


def _evaluate(**arguments: Any) -> Any:
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
    metrics, classes, pos_label, threshold, n_bins, confidence, by, n_threads
        As :class:`~turbometrics.Evaluator` (``n_threads`` per task): the
        signature is the Evaluator's.
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
        the Evaluator raises them; TypeError for user-defined metrics
        (:class:`~turbometrics.evaluator.UserMetric`), which the bytes that
        travel between tasks cannot hold.
    """
    every = check_split_every(arguments.pop("split_every"))
    compute = arguments.pop("compute")
    inputs = {name: arguments.pop(name) for name in _INPUTS}
    options: dict[str, Any] = arguments  # the Evaluator's parameters
    if Evaluator(**options).user_metrics:  # invalid options raise here, not in a task
        raise TypeError("turbometrics.dask.evaluate ships Evaluators as bytes, which hold no user-defined metrics")
    names = [name for name, value in inputs.items() if value is not None]
    build = partial(_block_bytes, options, names)
    blocks = block_states(build, **inputs)
    merged = tree_reduce(blocks, every, combine=_merge_bytes)
    return finish(dask.delayed(_computed, pure=True)(merged), compute)


_INPUTS = [parameter.name for parameter in update_parameters()]
# (y_true, y_score, metrics, *, sample_weight, groups, the Evaluator's options, compute, split_every)
_PARAMETERS = [*update_parameters()[:2], *option_parameters()[:1], *update_parameters()[2:], *option_parameters()[1:]]
evaluate = signed(dask_signature(_PARAMETERS, "compute", "split_every"), "turbometrics.dask.evaluate")(_evaluate)
