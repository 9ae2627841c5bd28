"""Several metrics of a Spark DataFrame at once, optionally per group: one
``turbometrics.Evaluator`` per partition, fed through Arrow
(``mapInArrow``), serialised with ``to_bytes()`` and merged on the driver."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .._common.signatures import signed
from ..evaluator import Evaluator, option_parameters
from ._plan import merged_state

# Arrow batches are buffered up to this many rows before an update (Spark's
# batches hold 10,000 rows by default; fewer, larger updates are faster).
ROWS_PER_UPDATE = 1 << 20

# Spark SQL type names (DataType.typeName()) each column may have.
_NUMBERS = frozenset({"byte", "short", "integer", "long", "float", "double"})
_KINDS = {
    "label": _NUMBERS | {"boolean", "string"},
    "score": _NUMBERS,
    "weight": _NUMBERS,
    "group": _NUMBERS | {"boolean", "string"},
    "map": frozenset({"binary"}),  # the bytes of a PNG or .npy label map
}


def _checked_columns(frame: Any, named: dict[str, tuple[str, list[str]]]) -> None:
    """Each column of ``named`` (role -> (argument, column names)) is in
    ``frame`` once, with a type its role accepts. Names are compared
    exactly; when the session resolves names case-insensitively
    (``spark.sql.caseSensitive`` false, Spark's default), another column
    whose name differs only in case counts as a second copy.

    Raises
    ------
    ValueError
        For a column that is not in the DataFrame, or is in it twice.
    TypeError
        For a column name that is not a str, or a column whose type the
        role refuses.
    """
    fields = frame.schema.fields
    names = [field.name for field in fields]
    case_sensitive = _case_sensitive(frame)
    for role, (argument, columns) in named.items():
        for column in columns:
            if not isinstance(column, str):
                raise TypeError(f"{argument} must name columns as str, got {column!r}")
            count = names.count(column)
            if count == 0:
                raise ValueError(f"{argument}: no column {column!r} in the DataFrame (columns: {', '.join(names)})")
            if count > 1:
                raise ValueError(f"{argument}: the DataFrame has {count} columns named {column!r}; rename the copies")
            if not case_sensitive:
                alike = [name for name in names if name.lower() == column.lower()]
                if len(alike) > 1:
                    raise ValueError(
                        f"{argument}: the DataFrame has columns {', '.join(map(repr, alike))}, which Spark does not "
                        "tell apart (spark.sql.caseSensitive is false); rename the copies"
                    )
            kind = fields[names.index(column)].dataType
            if kind.typeName() not in _KINDS[role]:
                raise TypeError(
                    f"{argument}: column {column!r} is {kind.simpleString()}; a {role} column must be one of "
                    f"{', '.join(sorted(_KINDS[role]))} (cast it)"
                )


def _case_sensitive(frame: Any) -> bool:
    """Whether ``frame``'s session tells column names apart by case."""
    return str(frame.sparkSession.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"


def _selected(frame: Any, columns: list[str]) -> Any:
    """``frame``'s columns named ``columns`` (each in it once), in that
    order, under the names ``_0``, ``_1``... Columns are renamed by
    position (``toDF``), never looked up by name in Spark: a name with dots
    or backticks is not read as a struct field or quotes, and no name is
    resolved against another that differs only in case."""
    positions = [frame.columns.index(column) for column in columns]
    renamed = frame.toDF(*(f"_{i}" for i in range(len(frame.columns))))
    return renamed.select(*(f"_{i}" for i in positions))


def _score_columns(score: str | Sequence[str]) -> list[str]:
    if isinstance(score, str):
        return [score]
    if isinstance(score, Sequence) and len(score) >= 2:
        return list(score)
    raise TypeError(
        f"score must be a column name (binary) or a list of two or more columns (multiclass), got {score!r}"
    )


def _array(table: Any, column: str) -> np.ndarray:
    """A label, score or weight column as NumPy (nulls refused)."""
    values = table.column(column)
    if values.null_count:
        raise ValueError(f"column {column!r} holds missing values (null); drop or fill them before evaluating")
    return values.to_numpy()


def _groups(table: Any, column: str) -> np.ndarray:
    """The group column as NumPy, nulls as None (or NaN in a float column):
    the Evaluator counts those rows overall only. Integers with nulls stay
    integers (an object array), not floats."""
    import pyarrow as pa

    values = table.column(column)
    if values.null_count and pa.types.is_integer(values.type):
        groups = values.fill_null(0).to_numpy().astype(object)
        groups[values.is_null().to_numpy()] = None
        return groups
    return values.to_numpy()


def _partition_evaluator(
    options: dict[str, Any],
    columns: list[str],
    label: str,
    scores: list[str],
    weight: str | None,
    group: str | None,
    multiclass: bool,
) -> Callable[[Iterator[Any]], Iterator[bytes]]:
    """What each partition runs: its Arrow batches (whose columns are
    ``columns``, renamed by :func:`_selected`) -> one Evaluator's bytes
    (nothing for an empty partition)."""

    def update(evaluator: Any, batches: list[Any]) -> None:
        import pyarrow as pa

        table = pa.Table.from_batches(batches).rename_columns(columns)
        score = np.column_stack([_array(table, c) for c in scores]) if multiclass else _array(table, scores[0])
        evaluator.update(
            _array(table, label),
            score,
            sample_weight=None if weight is None else _array(table, weight),
            groups=None if group is None else _groups(table, group),
        )

    def build(batches: Iterator[Any]) -> Iterator[bytes]:
        evaluator = Evaluator(**options)
        pending: list[Any] = []
        rows = 0
        for batch in batches:
            pending.append(batch)
            rows += batch.num_rows
            if rows >= ROWS_PER_UPDATE:
                update(evaluator, pending)
                pending, rows = [], 0
        if rows:
            update(evaluator, pending)
        if evaluator.n_samples:
            yield evaluator.to_bytes()

    return build


def _evaluate(**arguments: Any) -> dict[str, Any]:
    """Evaluate the predictions in a Spark DataFrame: ``metrics`` at once,
    overall and per group, as :class:`turbometrics.Evaluator` computes them.

    Each partition's rows become an Evaluator on its executor (Arrow
    batches through ``mapInArrow``, no pandas conversion), which travels to
    the driver as ``Evaluator.to_bytes()``; the driver merges them in a
    balanced tree and computes. Raw rows never reach the driver.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The predictions, one row each.
    metrics : sequence of str, default=None
        Metric names, as ``turbometrics.Evaluator`` (and ``turbometrics
        evaluate``) take them; None: the Evaluator's defaults.
    label : str, default="label"
        The column of true labels: numbers or booleans (binary 0/1, class
        indices), or strings among ``classes``.
    score : str or sequence of str, default="score"
        Binary: the column of scores. Multiclass: two or more columns of
        class probabilities, in the order of the classes.
    weight : str, default=None
        The column of sample weights (numbers); None: unweighted.
    group : str, default=None
        The column of group labels (numbers, booleans or strings); rows
        whose group is null count overall only. None: no groups.
    classes, pos_label, threshold, n_bins, confidence
        As ``turbometrics.Evaluator`` takes them (the signature is the
        Evaluator's, ``by`` being ``group``). ``classes`` defaults to the
        number of score columns when several are given.
    n_threads : int, default=None
        Threads of each task's kernels (see :mod:`turbometrics.spark`).

    Returns
    -------
    dict
        ``{"overall": {...}, "by_group": {...}, "gap": {...}}``: what
        ``Evaluator.compute()`` returns for all the rows. Whatever the
        partitioning it equals, bit for bit, one Evaluator updated with the
        collected rows without weights, or with weights whose sums are
        exact (integers, dyadic fractions); with other float weights
        ``ece``, ``brier`` and ``log_loss`` still do, the ranking and
        confusion metrics to rounding (the Evaluator's promise). Against
        the in-memory functions it is what the Evaluator promises
        (unweighted ranking and confusion metrics bit for bit).

    Raises
    ------
    ValueError
        For a column that is not in ``df`` (or is in it twice, also as a
        name that differs only in case when the session's
        ``spark.sql.caseSensitive`` is false), a null in
        the label, score or weight column, whatever ``Evaluator.update``
        refuses (labels that are not the problem's, NaN scores, invalid
        weights...; its message, raised on the driver), and without rows.
    TypeError
        For a ``df`` that is not a Spark DataFrame, a column name that is
        not a str, or a column of a type its role refuses (e.g. string
        scores).
    """
    df, label, score, weight, group = (arguments.pop(name) for name in _OWN)
    options: dict[str, Any] = {**arguments, "by": group}  # the Evaluator's parameters
    if not (hasattr(df, "mapInArrow") and hasattr(df, "schema")):
        raise TypeError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    scores = _score_columns(score)
    multiclass = not isinstance(score, str)
    if multiclass and options["classes"] is None:
        options["classes"] = len(scores)
    named = {"label": ("label", [label]), "score": ("score", scores)}
    if weight is not None:
        named["weight"] = ("weight", [weight])
    if group is not None:
        named["group"] = ("group", [group])
    _checked_columns(df, named)
    empty = Evaluator(**options)  # checks the options on the driver before any task runs
    if empty.user_metrics:
        raise TypeError("turbometrics.spark.evaluate ships Evaluators as bytes, which hold no user-defined metrics")
    columns = list(dict.fromkeys(column for _, names in named.values() for column in names))
    build = _partition_evaluator(options, columns, label, scores, weight, group, multiclass)
    merged = merged_state(_selected(df, columns), build, Evaluator.from_bytes)
    return (empty if merged is None else merged).compute()


_KEYWORD = inspect.Parameter.KEYWORD_ONLY
_OWN = ("df", "label", "score", "weight", "group")
# (df, metrics, *, label, score, weight, group, the Evaluator's options but ``by``, which is ``group``)
_PARAMETERS = [
    inspect.Parameter("df", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation="Any"),
    *option_parameters()[:1],
    inspect.Parameter("label", _KEYWORD, default="label", annotation="str"),
    inspect.Parameter("score", _KEYWORD, default="score", annotation="str | Sequence[str]"),
    inspect.Parameter("weight", _KEYWORD, default=None, annotation="str | None"),
    inspect.Parameter("group", _KEYWORD, default=None, annotation="str | None"),
    *(parameter for parameter in option_parameters()[1:] if parameter.name != "by"),
]
evaluate = signed(inspect.Signature(_PARAMETERS, return_annotation="dict[str, Any]"), "turbometrics.spark.evaluate")(
    _evaluate
)
