"""``turbometrics evaluate FILE``: metrics of a table of predictions.

Reads Parquet, CSV, NPY or JSON Lines in chunks (``_table_reader``), turns
each chunk's columns into labels, scores, weights and groups, and feeds
them to one :class:`~turbometrics.Evaluator` (overall and per group,
``--group``), whose values are reported as a table, JSON or Markdown
(``_report``), with the largest gap between groups. The rows themselves are
kept only for ``--plots DIR``.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import math
import os
import re
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._common.input_error import InputError, finite_float, first_line, positive_int, shown
from .._registry import canonical
from ..evaluator import (
    BINARY_METRICS,
    DEFAULT_BINARY,
    DEFAULT_MULTICLASS,
    MULTICLASS_METRICS,
    PROBABILITY_METRICS,
    Evaluator,
)
from ..io import FORMATS, Coded, Table, labels_array, missing, numeric, open_table
from ._labels import as_text, binary_labels, class_indices, classes_from_columns, positive_label
from ._progress import Progress, add_progress_arguments, progress_reporter

DEFAULT_CHUNK_ROWS = 1_000_000
MAX_CHUNK_ROWS = 1_000_000_000
MAX_BINS = 1_000_000  # more ece bins than this leaves nearly every bin empty
MAX_LISTED = 5  # labels named in a message


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``evaluate FILE`` (the file is the positional argument)."""
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="predictions: .parquet, .csv, .npy or .jsonl (default: the built-in example)",
    )
    parser.add_argument(
        "--format", choices=sorted(set(FORMATS.values())), help="file format (default: from the extension)"
    )
    parser.add_argument("--label", default="label", metavar="COL", help="column of true labels (default: label)")
    parser.add_argument(
        "--score",
        action="extend",
        nargs="+",
        metavar="COL",
        help="score column (binary), or several class-probability columns (multiclass); "
        "shell-style patterns such as 'p*' match columns in file order (default: score)",
    )
    parser.add_argument("--weight", metavar="COL", help="column of sample weights")
    parser.add_argument("--group", metavar="COL", help="report every metric per value of this column, and the gaps")
    parser.add_argument(
        "--metrics",
        metavar="LIST",
        help="comma-separated metrics (binary: %s; multiclass: %s)"
        % (", ".join(BINARY_METRICS), ", ".join(MULTICLASS_METRICS)),
    )
    parser.add_argument("--pos-label", metavar="VALUE", help="positive label (binary; default 1 or True)")
    parser.add_argument(
        "--classes", metavar="LIST", help="comma-separated class of each score column (multiclass; default 0,1,...)"
    )
    parser.add_argument(
        "--threshold",
        type=finite_float,
        default=0.5,
        metavar="T",
        help="score at or above which a sample is predicted positive (default: 0.5)",
    )
    parser.add_argument(
        "--n-bins",
        type=functools.partial(positive_int, maximum=MAX_BINS),
        default=15,
        metavar="N",
        help=f"bins of ece, 1 to {MAX_BINS:,} (default: 15)",
    )
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--plots",
        metavar="DIR",
        help="write roc.png, precision_recall.png, reliability.png, thresholds.png (needs matplotlib)",
    )
    parser.add_argument(
        "--chunk-rows",
        type=functools.partial(positive_int, maximum=MAX_CHUNK_ROWS),
        default=DEFAULT_CHUNK_ROWS,
        metavar="N",
        help=f"rows read at a time, 1 to {MAX_CHUNK_ROWS:,} (default: {DEFAULT_CHUNK_ROWS:,})",
    )
    add_progress_arguments(parser, "show progress also when stderr is not a terminal")


# Options that only make sense with a FILE (checked by the caller).
FILE_OPTIONS = ("format", "score", "weight", "group", "metrics", "pos_label", "classes", "markdown", "plots")


def file_from_scores(args: argparse.Namespace) -> None:
    """Options before FILE: ``--score COL [COL ...]`` takes every word up
    to the next option, so in ``evaluate --score p churn.parquet`` it took
    the file. Without a FILE, the last word of ``--score`` is the file when
    it has a table extension (``.parquet``, ``.csv``...) or names an
    existing file."""
    if args.file is not None or not args.score:
        return
    last = args.score[-1]
    if Path(last).suffix.lower() in FORMATS or os.path.isfile(last):
        args.file = last
        args.score = args.score[:-1] or None


# --------------------------------------------------------------------------
# Columns and metric names
# --------------------------------------------------------------------------


def _column(table: Table, name: str) -> str:
    """``name``, a column of ``table`` that appears once in its header."""
    if name not in table.columns:
        raise InputError(f"unknown column {name!r} (columns: {', '.join(table.columns)})")
    _single(table, name)
    return name


def _single(table: Table, name: str) -> None:
    """InputError when the header names column ``name`` more than once
    (which one would be read is a guess)."""
    count = table.columns.count(name)
    if count > 1:
        raise InputError(f"{table.path}: the header names column {name!r} {count} times; rename the copies")


def score_columns(table: Table, patterns: Sequence[str] | None) -> list[str]:
    """The score columns: each pattern's matches, in file order."""
    chosen: list[str] = []
    for pattern in patterns or ["score"]:
        if any(ch in pattern for ch in "*?["):
            matches = [c for c in table.columns if fnmatch.fnmatchcase(c, pattern)]
            if not matches:
                raise InputError(f"no column matches {pattern!r} (columns: {', '.join(table.columns)})")
            for match in matches:
                _single(table, match)
        else:
            matches = [_column(table, pattern)]
        chosen += [m for m in matches if m not in chosen]
    return chosen


def metric_names(text: str | None, multiclass: bool, weighted: bool) -> tuple[list[str], bool]:
    """The metrics to compute, and whether they are the default set (which
    has no DeLong interval for weighted data)."""
    known = MULTICLASS_METRICS if multiclass else BINARY_METRICS
    if text is None:
        defaults = DEFAULT_MULTICLASS if multiclass else DEFAULT_BINARY
        return [n for n in defaults if not (weighted and n == "roc_auc_ci")], True
    names = list(dict.fromkeys(canonical(n.strip()) for n in text.split(",") if n.strip()))
    for name in names:
        if name not in known:
            task = "multiclass" if multiclass else "binary"
            raise InputError(f"unknown {task} metric {name!r} (known: {', '.join(known)})")
    if not names:
        raise InputError("--metrics is empty")
    return names, False


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------


class Rows:
    """The rows of the file or of one group, kept for the plots only."""

    def __init__(self) -> None:
        self._chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] = []
        self.n_samples = 0

    def add(self, y: np.ndarray, score: np.ndarray, weight: np.ndarray | None) -> None:
        self._chunks.append((y, score, weight))
        self.n_samples += y.shape[0]

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Labels, scores, weights (or None), concatenated."""
        ys, scores, weights = zip(*self._chunks) if self._chunks else ((), (), ())
        weight = None if not weights or weights[0] is None else np.concatenate(weights)
        return (
            np.concatenate(ys) if ys else np.zeros(0, np.int8),
            np.concatenate(scores) if scores else np.zeros(0),
            weight,
        )


class Evaluation:
    """The columns of the file turned into labels, scores, weights and
    groups, chunk by chunk, and fed to one :class:`~turbometrics.Evaluator`.

    With the default metric set, probability metrics (ece, brier, log_loss)
    are dropped, with a warning, at the first chunk whose scores are not in
    [0, 1]; asked for explicitly, such a chunk is an error.

    Rows whose group is null (None, NaN) count in the whole file but in no
    group, as with pandas' ``groupby(dropna=True)``; :meth:`finish` warns
    how many. With ``keep_rows`` (plots) the rows are kept too.
    ``seconds_metrics`` is the time spent in the evaluator.
    """

    def __init__(
        self,
        label: str,
        scores: list[str],
        weight: str | None,
        group: str | None,
        pos_label: Any,
        classes: tuple[str, ...] | None,
        evaluator: Evaluator,
        default: bool,
        keep_rows: bool,
    ) -> None:
        self.label, self.scores, self.weight, self.group = label, scores, weight, group
        self.evaluator = evaluator
        self.multiclass = evaluator.multiclass
        self.given_pos_label = pos_label
        self.pos_label: Any = None
        self.labels_seen: set[Any] = set()  # binary labels of the chunks so far (without --pos-label)
        self.classes = classes
        self.default = default
        self.probabilities = True  # every score so far in [0, 1]
        self.overall_rows = Rows() if keep_rows else None
        self.group_rows: dict[str, Rows] = {}
        self.positives = 0
        self.rows_read = 0
        self.null_groups = 0
        self.group_codes: dict[str, int] = {}  # group name -> code (the Evaluator's group)
        self.seconds_metrics = 0.0

    @property
    def metrics(self) -> tuple[str, ...]:
        return self.evaluator.metrics

    def columns(self) -> list[str]:
        extra = [c for c in (self.weight, self.group) if c is not None]
        return list(dict.fromkeys([self.label, *self.scores, *extra]))

    def update(self, chunk: dict[str, np.ndarray]) -> None:
        """Convert one chunk's columns and add it to the evaluator."""
        first = self.rows_read + 1
        raw = labels_array(self.label, chunk[self.label], first)
        if self.multiclass:
            score = np.column_stack([numeric(c, chunk[c], first).astype(np.float64, copy=False) for c in self.scores])
            if self.classes is None:  # decided by the first chunk
                self.classes = classes_from_columns(raw, self.scores)
            y = class_indices(raw, self.classes, len(self.scores))
        else:
            score = numeric(self.scores[0], chunk[self.scores[0]], first)
            if raw.shape[0]:
                pos = positive_label(raw, self.given_pos_label, self.labels_seen)
                if self.pos_label is not None and pos != self.pos_label:
                    raise InputError(f"the positive label changed from {self.pos_label!r} to {pos!r}")
                self.pos_label = pos
            y = binary_labels(raw, self.pos_label)
            self.positives += int(y.sum())
            if self.given_pos_label is not None and self.positives == 0:  # for finish()'s message
                self.labels_seen.update(np.unique(raw)[:MAX_LISTED].tolist())
        weight = None if self.weight is None else numeric(self.weight, chunk[self.weight], first)
        self._check_probabilities(score)
        groups = None if self.group is None else self._group_codes(chunk[self.group])
        self.rows_read += y.shape[0]
        start = time.perf_counter()
        try:
            self.evaluator.update(y, score, sample_weight=weight, groups=groups)
        except ValueError as exc:  # rejected as the metric functions reject it
            raise InputError(f"rows {first:,}-{self.rows_read:,}: {first_line(exc)}") from None
        self.seconds_metrics += time.perf_counter() - start
        if self.overall_rows is not None:
            self._keep_rows(y, score, weight, groups)

    def finish(self) -> None:
        """The checks that need the whole file: a ``--pos-label`` that is
        none of the labels is refused (as scikit-learn refuses it); rows
        with a null group are counted in a warning.

        Raises
        ------
        InputError
            When ``--pos-label`` matched no row.
        """
        if self.given_pos_label is not None and not self.multiclass and self.rows_read and not self.positives:
            labels = sorted(self.labels_seen, key=lambda v: (isinstance(v, str), v))
            listed = ", ".join(map(str, labels[:MAX_LISTED])) + (", ..." if len(labels) > MAX_LISTED else "")
            raise InputError(f"--pos-label {shown(self.given_pos_label)} is not a label (labels are {{{listed}}})")
        if self.null_groups:
            warnings.warn(
                f"{self.null_groups:,} rows with a null {self.group!r} are in no group (they count in 'overall')"
            )

    def _check_probabilities(self, score: np.ndarray) -> None:
        wanted = [m for m in self.metrics if m in PROBABILITY_METRICS]
        if not wanted or not self.probabilities:
            return
        outside = (score < 0) | (score > 1)
        if not outside.any():
            return
        value = float(score[outside][0])
        if not self.default:
            verb = "needs" if len(wanted) == 1 else "need"
            raise InputError(f"{', '.join(wanted)} {verb} probabilities in [0, 1]; found a score of {value:.6g}")
        warnings.warn(f"scores outside [0, 1] (such as {value:.6g}): skipping {', '.join(wanted)}")
        self.evaluator._drop_metrics(PROBABILITY_METRICS)
        self.probabilities = False

    def _group_codes(self, values: np.ndarray | Coded) -> np.ndarray:
        """Each row's group as its code in ``group_names`` (float64, NaN
        for a null group): the Evaluator's groups are these codes, which
        it factorizes by sorting numbers, not by looking up a Python
        object per row."""
        if isinstance(values, Coded):
            names, local = as_text(values.values).tolist(), values.codes
        else:
            absent = missing(values)
            try:
                names, codes = _factorize(values[~absent] if absent.any() else values)
            except TypeError:  # unhashable: a JSON list or object
                odd = next(v for v in values.tolist() if isinstance(v, (list, dict)))
                raise InputError(f"column {self.group!r}: a group must be text or a number, not {shown(odd)}") from None
            local = np.full(values.shape[0], -1, dtype=np.int64)
            local[~absent] = codes
        table = np.array([self.group_codes.setdefault(name, len(self.group_codes)) for name in names] + [np.nan])
        codes_of_rows = table[local]  # -1: the NaN at the end
        self.null_groups += int(np.count_nonzero(local < 0))
        return codes_of_rows

    @property
    def group_names(self) -> list[str]:
        """The groups' names, by code."""
        return list(self.group_codes)

    def _keep_rows(self, y: np.ndarray, score: np.ndarray, weight: np.ndarray | None, groups: Any) -> None:
        assert self.overall_rows is not None
        self.overall_rows.add(y, score, weight)
        if groups is None:
            return
        names = self.group_names
        for code in np.unique(groups[~np.isnan(groups)]).tolist():
            rows = groups == code
            self.group_rows.setdefault(names[int(code)], Rows()).add(
                y[rows], score[rows], None if weight is None else weight[rows]
            )


def _factorize(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Group names (as text) and each row's code, the smallest unsigned
    dtype that holds them. Numbers are sorted by NumPy; text and other
    objects are looked up in a dict (sorting Python objects is slow)."""
    if values.dtype.kind in "biuf":
        unique, codes = np.unique(values, return_inverse=True)
        names = as_text(unique).tolist()
    else:
        lookup: dict[Any, int] = {}
        codes = np.fromiter(
            (lookup.setdefault(v, len(lookup)) for v in values.tolist()), dtype=np.int64, count=values.shape[0]
        )
        names = as_text(np.asarray(list(lookup), dtype=object)).tolist()
    return names, codes.astype(np.min_scalar_type(max(len(names) - 1, 0)), copy=False)


def read(table: Table, evaluation: Evaluation, chunk_rows: int, advance: Progress) -> None:
    """Feed every chunk of ``table`` to ``evaluation``, reporting progress."""
    done = 0
    coded = () if evaluation.group is None else (evaluation.group,)
    for chunk, units in table.chunks(evaluation.columns(), chunk_rows, coded):
        evaluation.update(chunk)
        done += units
        advance(units, evaluation.rows_read, False)
    advance(max((table.total or 0) - done, 0), evaluation.rows_read, True)


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def _natural(key: str) -> tuple[int, float, str]:
    try:
        return (0, float(key), key)
    except ValueError:
        return (1, 0.0, key)


def gaps(groups: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per scalar metric: the largest minus the smallest group value, and
    those groups (groups where the metric is undefined are left out).
    Thresholds (``best_f1_threshold``) are no measure of quality: no gap."""
    out: dict[str, dict[str, Any]] = {}
    names = dict.fromkeys(n for g in groups.values() for n in g["metrics"] if not n.endswith("threshold"))
    for name in names:
        values = [(g["metrics"].get(name), key) for key, g in groups.items()]
        values = [(v, k) for v, k in values if isinstance(v, float)]
        if len(values) < 2:
            continue
        high = max(values, key=lambda item: item[0])
        low = min(values, key=lambda item: item[0])
        out[name] = {"gap": high[0] - low[0], "max_group": high[1], "max": high[0], "min_group": low[1], "min": low[0]}
    return out


def _scalar(value: Any) -> Any:
    """A metric value for the report: a float (None when NaN or
    infinite), or a list of them."""
    if value is None:
        return None
    if isinstance(value, list):
        return [_scalar(v) for v in value]
    return value if math.isfinite(value) else None


def _reported(values: dict[str, Any]) -> dict[str, Any]:
    return {name: _scalar(value) for name, value in values.items()}


_GROUP_CODE = re.compile(r"^group ([0-9]+(?:\.0)?): ")


def build_report(table: Table, fmt: str, evaluation: Evaluation) -> dict[str, Any]:
    """The JSON-ready report of an evaluation (without its "seconds")."""
    evaluator = evaluation.evaluator
    if evaluator.n_samples == 0:
        raise InputError(f"{table.path}: no rows")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = evaluator.compute()
    except ValueError as exc:  # a metric that rejects the whole file
        raise InputError(first_line(exc)) from None
    names = evaluation.group_names  # the Evaluator's groups are their codes
    for warning in caught:  # "group 2.0: roc_auc: ..." names the group
        text = _GROUP_CODE.sub(lambda match: f"group {names[int(float(match[1]))]}: ", str(warning.message), count=1)
        warnings.warn(text, warning.category, stacklevel=2)
    out: dict[str, Any] = {
        "source": str(table.path),
        "format": fmt,
        "task": "multiclass" if evaluation.multiclass else "binary",
        "columns": {
            "label": evaluation.label,
            "score": evaluation.scores,
            "weight": evaluation.weight,
            "group": evaluation.group,
        },
        "n_samples": evaluator.n_samples,
    }
    if evaluation.multiclass:
        out["classes"] = list(evaluation.classes or range(len(evaluation.scores)))
    else:
        out["pos_label"] = evaluation.pos_label
        out["n_positive"] = evaluation.positives
        out["threshold"] = evaluator.threshold
    out["metrics"] = _reported(result["overall"])
    if evaluation.group is not None:
        sizes = {names[int(code)]: n for code, n in evaluator.n_samples_by_group.items()}
        by_group = {names[int(code)]: values for code, values in result["by_group"].items()}
        groups: dict[str, dict[str, Any]] = {}
        for key in sorted(by_group, key=_natural):
            groups[key] = {"n_samples": sizes[key], "metrics": _reported(by_group[key])}
        out["groups"] = groups
        out["gaps"] = gaps(groups)
        out["n_group_null"] = evaluation.null_groups
    return out


# --------------------------------------------------------------------------
# Command
# --------------------------------------------------------------------------


def _require_matplotlib() -> None:
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plots needs matplotlib: pip install 'turbometrics[plot]'") from None
    matplotlib.use("Agg")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Evaluate ``args.file``: returns the report, and writes the plots.

    The report's "seconds" are wall times: "read" (reading and converting
    the chunks), "metrics" (the states and the report), "plots" (0 without
    --plots) and "total" (all of this run, opening the file included; not
    Python's start-up).

    Raises
    ------
    InputError
        For unusable input, with a one-line message.
    """
    start = time.perf_counter()
    if args.plots is not None:
        _require_matplotlib()
    table = open_table(args.file, args.format)
    fmt = args.format or FORMATS[Path(args.file).suffix.lower()]
    label = _column(table, args.label)
    scores = score_columns(table, args.score)
    weight = None if args.weight is None else _column(table, args.weight)
    group = None if args.group is None else _column(table, args.group)
    multiclass = len(scores) > 1
    metrics, default = metric_names(args.metrics, multiclass, weight is not None)
    classes = None
    if args.classes is not None:
        classes = tuple(c.strip() for c in args.classes.split(","))
        if not multiclass or len(classes) != len(scores):
            raise InputError(f"--classes names {len(classes)} classes for {len(scores)} score columns")
        if len(set(classes)) != len(classes):
            twice = next(c for c in classes if classes.count(c) > 1)
            raise InputError(f"--classes names {twice!r} twice")
    evaluator = Evaluator(
        metrics,
        classes=len(scores) if multiclass else None,
        threshold=args.threshold,
        n_bins=args.n_bins,
        by=group,
        n_threads=args.n_threads,
    )
    evaluation = Evaluation(
        label,
        scores,
        weight,
        group,
        args.pos_label,
        classes,
        evaluator,
        default,
        keep_rows=args.plots is not None,
    )
    reading = time.perf_counter()
    progress = progress_reporter(
        table.path.name, table.total, table.unit, args.progress, args.no_progress, args.progress_every
    )
    read(table, evaluation, args.chunk_rows, progress)
    evaluation.finish()
    reporting = time.perf_counter()
    result = build_report(table, fmt, evaluation)
    plotting = time.perf_counter()
    if args.plots is not None:
        from ._plots import write_plots

        result["plots"] = write_plots(Path(args.plots), evaluation, args)
    end = time.perf_counter()
    result["seconds"] = {
        "read": reporting - reading - evaluation.seconds_metrics,
        "metrics": evaluation.seconds_metrics + plotting - reporting,
        "plots": end - plotting if args.plots is not None else 0.0,
        "total": end - start,
    }
    return result
