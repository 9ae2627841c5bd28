"""Metrics of label maps held in a Spark DataFrame, one image pair per row
(the bytes of PNG or ``.npy`` files): one
:class:`turbometrics.SegmentationEvaluator` per partition, fed through
Arrow (``mapInArrow``), serialised with ``to_bytes()`` and merged on the
driver."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from .._common.signatures import signed
from ..evaluator import SegmentationEvaluator
from ..io import read_label_map
from ._evaluate import _checked_columns, _groups, _selected
from ._plan import merged_state


def _partition_evaluator(
    options: dict[str, Any], columns: list[str], label: str, prediction: str, group: str | None
) -> Callable[[Iterator[Any]], Iterator[bytes]]:
    """What each partition runs: its Arrow batches (whose columns are
    ``columns``, renamed by ``_selected``) -> one evaluator's bytes
    (nothing for an empty partition). Each row's maps are read and counted
    one at a time, so a task holds one pair of maps at once."""

    def build(batches: Iterator[Any]) -> Iterator[bytes]:
        import pyarrow as pa

        evaluator = SegmentationEvaluator(**options)
        for batch in batches:
            table = pa.Table.from_batches([batch]).rename_columns(columns)
            truths, predictions = table.column(label), table.column(prediction)
            for column, values in ((label, truths), (prediction, predictions)):
                if values.null_count:
                    raise ValueError(f"column {column!r} holds missing values (null); drop them before evaluating")
            groups = None if group is None else _groups(table, group)
            for row, (truth, predicted) in enumerate(zip(truths.to_pylist(), predictions.to_pylist())):
                y_true = read_label_map(truth, f"column {label!r}")
                y_pred = read_label_map(predicted, f"column {prediction!r}")
                evaluator.update(y_true[None], y_pred[None], groups=None if groups is None else groups[row : row + 1])
        if evaluator.n_images:
            yield evaluator.to_bytes()

    return build


def _segmentation_evaluate(**arguments: Any) -> dict[str, Any]:
    """Evaluate label maps held in a Spark DataFrame: ``metrics`` at once,
    overall and per group, as :class:`turbometrics.SegmentationEvaluator`
    computes them.

    Each row holds one image: its true and predicted label maps as the
    bytes of PNG or ``.npy`` files (told apart by their first bytes; maps
    of any size, and any dimension for ``.npy``), as Spark's ``binaryFile``
    source reads files into its ``content`` column. Each partition's rows
    become a SegmentationEvaluator on its executor (Arrow batches through
    ``mapInArrow``), which travels to the driver as its ``to_bytes()``; the
    driver merges them in a balanced tree and computes. Neither maps nor
    rows reach the driver.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per image.
    metrics : sequence of str or dict, default=None
        As :class:`turbometrics.SegmentationEvaluator` takes them (names of
        :mod:`turbometrics.segmentation`'s functions, with options).
    label : str, default="label"
        The binary column of the true maps.
    prediction : str, default="prediction"
        The binary column of the predicted maps.
    group : str, default=None
        The column of group labels (numbers, booleans or strings); images
        whose group is null count overall only. None: no groups.
    num_classes, ignore_index, reduce_zero_label, label_map
        As :class:`turbometrics.SegmentationEvaluator` takes them (the
        signature is the evaluator's, ``by`` being ``group``).
    n_threads : int, default=None
        Threads of each task's kernel (see :mod:`turbometrics.spark`).

    Returns
    -------
    dict
        ``{"overall": {...}, "by_group": {...}, "gap": {...}}``: what
        ``SegmentationEvaluator.compute()`` returns for all the images.
        Whatever the partitioning, each value is the value of its
        :mod:`turbometrics.segmentation` function on the maps, bit for bit
        (averages over images, ``aggregate="image"``, with the images in
        the partitions' order; in another order, to rounding).

    Raises
    ------
    ValueError
        For a column that is not in ``df`` (or is in it twice), a null
        map, bytes that are not a single-channel PNG or an integer
        ``.npy`` map, whatever ``SegmentationEvaluator.update`` refuses
        (maps of different shapes, labels outside ``[0, num_classes)``;
        its message, raised on the driver), and without rows.
    TypeError
        For a ``df`` that is not a Spark DataFrame, a column name that is
        not a str, or a map column that is not binary.
    ImportError
        On the executors, for PNG maps without Pillow.

    Examples
    --------
    Two folders of PNG label maps, paired by file name (needs a Spark
    session, so not run here):

    >>> from pyspark.sql import functions as F  # doctest: +SKIP
    >>> def maps(folder, column):  # doctest: +SKIP
    ...     files = spark.read.format("binaryFile").load(f"{folder}/*.png")
    ...     return files.select(F.element_at(F.split("path", "/"), -1).alias("name"), F.col("content").alias(column))
    >>> frame = maps("gt", "label").join(maps("pred", "prediction"), "name")  # doctest: +SKIP
    >>> result = segmentation_evaluate(frame, ["iou", "dice"], num_classes=19, ignore_index=255)  # doctest: +SKIP
    >>> result["overall"]["iou"]  # doctest: +SKIP
    """
    df, label, prediction, group = (arguments.pop(name) for name in _OWN)
    options: dict[str, Any] = {**arguments, "by": group}  # the evaluator's parameters
    if not (hasattr(df, "mapInArrow") and hasattr(df, "schema")):
        raise TypeError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    _checked_columns(df, {"map": ("label", [label])})
    _checked_columns(df, {"map": ("prediction", [prediction])})
    if group is not None:
        _checked_columns(df, {"group": ("group", [group])})
    empty = SegmentationEvaluator(**options)  # checks the options on the driver before any task runs
    if empty.user_metrics:
        raise TypeError(
            "turbometrics.spark.segmentation_evaluate ships evaluators as bytes, which hold no user-defined metrics"
        )
    columns = list(dict.fromkeys(column for column in (label, prediction, group) if column is not None))
    build = _partition_evaluator(options, columns, label, prediction, group)
    merged = merged_state(_selected(df, columns), build, SegmentationEvaluator.from_bytes)
    return (empty if merged is None else merged).compute()


_KEYWORD = inspect.Parameter.KEYWORD_ONLY
_OWN = ("df", "label", "prediction", "group")
_EVALUATOR = list(inspect.signature(SegmentationEvaluator).parameters.values())
# (df, metrics, *, label, prediction, group, the evaluator's options but ``by``, which is ``group``)
_PARAMETERS = [
    inspect.Parameter("df", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation="Any"),
    _EVALUATOR[0],
    inspect.Parameter("label", _KEYWORD, default="label", annotation="str"),
    inspect.Parameter("prediction", _KEYWORD, default="prediction", annotation="str"),
    inspect.Parameter("group", _KEYWORD, default=None, annotation="str | None"),
    *(parameter for parameter in _EVALUATOR[1:] if parameter.name != "by"),
]
segmentation_evaluate = signed(
    inspect.Signature(_PARAMETERS, return_annotation="dict[str, Any]"), "turbometrics.spark.segmentation_evaluate"
)(_segmentation_evaluate)
