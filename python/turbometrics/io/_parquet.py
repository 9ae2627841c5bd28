"""Evaluate a Parquet file without loading it: row groups stream through
the mergeable states (pyarrow is an optional extra, imported lazily)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .._common.threads import resolve_threads
from .._registry import ALIASES, STREAMED, canonical, result_items
from ..calibration import CalibrationState
from ..classification import ConfusionState
from ..ranking import RankingState

# The vocabulary's names this function takes (turbometrics._registry.STREAMED),
# and their aliases (whose results keep the spelling asked for).
METRICS = tuple(name for name, entry in STREAMED.items() if "parquet" in entry.tools)
_TAKEN = frozenset(METRICS) | {alias for alias, name in ALIASES.items() if name in METRICS}


def _import_pyarrow_parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("evaluate_parquet needs pyarrow: pip install 'turbometrics[parquet]'") from error
    return pq


def _column(batch: Any, name: str) -> np.ndarray:
    """A record batch's column as NumPy, without a copy when Arrow allows
    (primitive type, no nulls)."""
    array = batch.column(name)
    if array.null_count:
        raise ValueError(f"column {name!r} holds {array.null_count} null value(s)")
    try:
        return array.to_numpy(zero_copy_only=True)
    except Exception:  # noqa: BLE001 - pyarrow raises ArrowInvalid for what it cannot share
        return array.to_numpy(zero_copy_only=False)


def _binary_truth(labels: np.ndarray, pos_label: Any, seen: set) -> np.ndarray:
    """``labels == pos_label`` as bool; without pos_label the labels must be
    {0, 1} or {-1, 1} across the whole file (as scikit-learn requires)."""
    if pos_label is not None:
        return labels == pos_label
    if labels.dtype.kind == "b":
        return labels
    if labels.dtype.kind not in "iuf":
        raise ValueError("labels are not numbers: pass pos_label")
    positive = labels == 1
    if np.all(positive | (labels == 0)):
        if not np.all(positive):
            seen.add(0)
    elif np.all(positive | (labels == -1)):
        seen.add(-1)
    else:
        raise ValueError("labels must be {0, 1} or {-1, 1} when pos_label is None")
    if len(seen) > 1:
        raise ValueError("labels hold 0, -1 and 1 across the file: pass pos_label")
    return positive


def _batches(path: Any, columns: Sequence[str], batch_rows: int | None) -> Iterator[Any]:
    pq = _import_pyarrow_parquet()
    # pre_buffer (pyarrow's default) would read every row group's column
    # chunks ahead: the whole file in memory.
    reader = pq.ParquetFile(path, pre_buffer=False)
    metadata = reader.metadata
    if batch_rows is None:
        batch_rows = max([metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)] + [1])
    missing = [name for name in columns if name not in reader.schema_arrow.names]
    if missing:
        raise ValueError(f"columns {missing} are not in {path!r} (columns: {reader.schema_arrow.names})")
    yield from reader.iter_batches(batch_size=int(batch_rows), columns=list(dict.fromkeys(columns)))


def evaluate_parquet(
    path: Any,
    label: str,
    score: str,
    weight: str | None = None,
    metrics: Iterable[str] = ("roc_auc",),
    *,
    prediction: str | None = None,
    threshold: float = 0.5,
    pos_label: Any = None,
    n_bins: int = 15,
    batch_rows: int | None = None,
    n_threads: int | None = None,
) -> dict[str, Any]:
    """Binary-classification metrics of a Parquet file, streamed.

    The file is read a row group (or ``batch_rows`` rows) at a time; each
    batch updates the states the metrics need, so memory is one batch plus
    the states: ``RankingState`` (O(distinct scores)) for ``roc_auc``,
    ``average_precision``, ``best_f1`` (also gives ``best_f1_threshold``),
    ``best_threshold`` (the :class:`~turbometrics.BestThreshold` of F1),
    ``roc_curve`` and ``precision_recall_curve``; ``ConfusionState`` (O(1))
    for ``accuracy``, ``balanced_accuracy``, ``precision``, ``recall``,
    ``f1``, ``jaccard``, ``mcc`` (alias ``matthews_corrcoef``),
    ``cohen_kappa`` and ``confusion_matrix``; ``CalibrationState``
    (O(n_bins)) for ``ece``, ``mce``, ``rmsce`` and ``reliability_diagram``.
    The names are those of :class:`~turbometrics.Evaluator` and the command
    line (one vocabulary); precision, recall, F1 and Jaccard of no
    predicted (or true) positive are 0 without a warning, as there.
    Columns are read without copying where Arrow allows (primitive types
    without nulls).

    Parameters
    ----------
    path : str or file-like
        A Parquet file (anything ``pyarrow.parquet.ParquetFile`` opens).
    label, score : str
        Columns of the true labels and of the positive-class score (a
        probability in [0, 1] for the calibration metrics).
    weight : str, default=None
        Column of sample weights.
    metrics : iterable of str, default=("roc_auc",)
    prediction : str, default=None
        Column of predicted labels for the confusion metrics (compared with
        ``label`` as they are). None: the prediction is
        ``score >= threshold`` against ``label == pos_label``, as 0/1.
    threshold : float, default=0.5
    pos_label : default=None
        The positive label; None: labels must be {0, 1} or {-1, 1}, 1
        positive.
    n_bins : int, default=15
        Uniform bins of the calibration metrics.
    batch_rows : int, default=None
        Rows per batch; None: the largest row group.
    n_threads : int, default=None
        Threads of the state kernels; results do not depend on it.

    Returns
    -------
    dict
        metric name -> value, as the in-memory function on the whole file
        (``roc_auc_score``, ``f1_score``, ``calibration_error`` ...).

    Raises
    ------
    ImportError
        Without pyarrow.
    ValueError
        For an unknown metric or column, or null values.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> import turbometrics as tm
    >>> rng = np.random.default_rng(0)
    >>> y, s = rng.integers(0, 2, 1000), rng.random(1000)
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.parquet")
    >>> pq.write_table(pa.table({"label": y, "score": s}), path, row_group_size=100)
    >>> result = tm.evaluate_parquet(path, label="label", score="score", metrics=["roc_auc", "accuracy"])
    >>> result["roc_auc"] == tm.roc_auc_score(y, s)
    True
    """
    metrics = list(metrics)
    unknown = [name for name in metrics if name not in _TAKEN]
    if unknown:
        raise ValueError(_unknown_metrics(unknown))
    threads = resolve_threads(n_threads)
    states = _empty_states(metrics, n_bins)
    columns = [label, score] + ([weight] if weight else []) + ([prediction] if prediction else [])
    seen: set = set()
    for batch in _batches(path, columns, batch_rows):
        labels, scores = _column(batch, label), _column(batch, score)
        weights = _column(batch, weight) if weight else None
        truth = _binary_truth(labels, pos_label, seen)
        _update(states, truth, labels, scores, weights, batch, prediction, threshold, threads)
    values: dict[str, Any] = {}
    for name in metrics:
        entry = STREAMED[canonical(name)]
        values.update(result_items(name, getattr(states[entry.state], entry.method)(**entry.options)))
    return values


def _unknown_metrics(unknown: list[Any]) -> str:
    """The error for names this function does not take: the names it
    takes, and for the Evaluator's other names, that they need it."""
    evaluator_only = [name for name in unknown if isinstance(name, str) and name in STREAMED]
    hint = f" ({', '.join(map(repr, evaluator_only))}: turbometrics.Evaluator)" if evaluator_only else ""
    return f"unknown metric(s) {unknown}: evaluate_parquet takes {', '.join(METRICS)}{hint}"


def _empty_states(metrics: Sequence[str], n_bins: int) -> dict[str, Any]:
    needed = {STREAMED[canonical(name)].state for name in metrics}
    states: dict[str, Any] = {}
    if "ranking" in needed:
        states["ranking"] = RankingState()
    if "confusion" in needed:
        states["confusion"] = ConfusionState()
    if "calibration" in needed:
        states["calibration"] = CalibrationState(n_bins, mode="binary", pos_label=True)
    return states


def _update(
    states: dict[str, Any],
    truth: np.ndarray,
    labels: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    batch: Any,
    prediction: str | None,
    threshold: float,
    threads: int,
) -> None:
    if "ranking" in states:
        states["ranking"].update(truth, scores, sample_weight=weights, n_threads=threads)
    if "confusion" in states:
        if prediction:
            y_true, y_pred = labels, _column(batch, prediction)
        else:
            y_true, y_pred = truth.view(np.int8), (scores >= threshold).view(np.int8)
        states["confusion"].update(y_true, y_pred, sample_weight=weights, n_threads=threads)
    if "calibration" in states:
        states["calibration"].update(truth, scores, sample_weight=weights, n_threads=threads)
