"""The ``turbometrics`` command line program.

``turbometrics evaluate FILE`` evaluates a table of predictions (Parquet,
CSV, NPY or JSON Lines; see ``_evaluate``): the chosen metrics, per
group with the gaps between groups, as a table, JSON or Markdown, and
optionally plots. Without FILE it scores a built-in example of one million
binary predictions, or with ``--labels FILE --scores FILE`` (``.npy`` or
one-column ``.csv``) those arrays: ROC AUC, average precision and the
threshold that maximises F1. ``turbometrics coco`` evaluates COCO
detections (see ``_coco``), ``turbometrics segmentation`` label maps (see
``_segmentation``).

Exit codes: 0 on success, 2 on a usage error or unusable input (with a
one-line reason on stderr, never a traceback), 141 (128 + SIGPIPE, as Unix
tools) when the reader of the output closed it early (``| head``), 130
(128 + SIGINT, as shells report it) on Ctrl-C, with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from .._common.input_error import InputError, first_line, positive_int
from . import _output
from ._report import threshold_text

__all__ = ["InputError", "load_column", "main"]

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 128 + 13  # as a Unix tool killed by SIGPIPE
EXIT_INTERRUPTED = 128 + 2  # as a shell reports a program stopped by Ctrl-C (SIGINT)
BUILTIN_SOURCE = "built-in example"


@dataclass
class Evaluation:
    """What ``turbometrics evaluate`` reports (also its JSON keys)."""

    n_samples: int
    roc_auc: float | None
    average_precision: float | None
    best_f1_threshold: float | None
    best_f1: float | None
    precision_at_best: float | None
    recall_at_best: float | None
    seconds: float
    source: str | list[str]


# --------------------------------------------------------------------------
# Reading input
# --------------------------------------------------------------------------


def _load_npy(path: Path) -> np.ndarray:
    """Read a ``.npy`` file without allowing pickled objects."""
    try:
        values = np.load(path, allow_pickle=False)
    except ValueError:  # not a .npy file, or one of Python objects
        raise InputError(f"{path}: not a .npy file of numbers") from None
    except EOFError:  # a file of zero bytes, or one cut inside the header
        raise InputError(f"{path}: not a .npy file (it ends before its header)") from None
    if not isinstance(values, np.ndarray):  # an .npz archive under a .npy name
        values.close()
        raise InputError(f"{path}: not a .npy array file")
    return values


def _first_data_row(path: Path) -> int:
    """Number of leading lines to skip in a CSV: blank lines and one header.

    A first non-blank line that does not parse as a number is taken as a
    header. A UTF-8 byte-order mark (as Excel writes) is no part of it.
    """
    with open(path, encoding="utf-8-sig") as handle:
        for index, line in enumerate(handle):
            text = line.strip()
            if not text:
                continue
            try:
                float(text.split(",")[0])
            except ValueError:
                return index + 1
            return index
    return 0


def _load_csv(path: Path) -> np.ndarray:
    """Read a one-column CSV of numbers, with an optional header line."""
    skip = _first_data_row(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data": checked later
            table = np.loadtxt(path, delimiter=",", skiprows=skip, ndmin=2, dtype=np.float64, encoding="utf-8-sig")
    except ValueError as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "cannot parse"
        raise InputError(f"{path}: not a one-column CSV of numbers ({reason})") from None
    if table.shape[1] != 1:
        raise InputError(f"{path}: expected one column, found {table.shape[1]}")
    return table[:, 0]


def load_column(path: str | Path) -> np.ndarray:
    """Load a one-dimensional array from a ``.npy`` or one-column ``.csv`` file.

    Parameters
    ----------
    path : str or Path
        File to read. ``.npy`` files may hold an array of shape ``(n,)`` or
        ``(n, 1)``; ``.csv`` files hold one number per line after an
        optional header line.

    Returns
    -------
    ndarray of shape (n,)

    Raises
    ------
    InputError
        If the file is missing, unreadable, of an unknown type, empty or
        not one column; the message names the file and the reason.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".npy", ".csv"):
        raise InputError(f"{path}: unsupported file type {suffix or '(none)'!r}; use .npy or .csv")
    try:
        values = _load_npy(path) if suffix == ".npy" else _load_csv(path)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise InputError(f"{path}: cannot read ({reason})") from None
    if values.ndim == 2 and values.shape[1] == 1:
        values = values[:, 0]
    if values.ndim != 1:
        raise InputError(f"{path}: expected a one-dimensional array, got shape {values.shape}")
    if values.size == 0:
        raise InputError(f"{path}: no values")
    return values


def _load_pair(labels: str, scores: str) -> tuple[np.ndarray, np.ndarray]:
    """Load labels and scores and check that they pair up."""
    y_true = load_column(labels)
    y_score = load_column(scores)
    if y_true.shape != y_score.shape:
        raise InputError(f"{labels} has {y_true.shape[0]} values but {scores} has {y_score.shape[0]}")
    return y_true, y_score


# --------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------


def _finite_or_none(value: Any) -> float | None:
    """``value`` as a float, or None when it is NaN or infinite (for JSON)."""
    value = float(value)
    return value if math.isfinite(value) else None


def evaluate(
    y_true: np.ndarray,
    y_score: np.ndarray,
    source: str | list[str],
    n_threads: int | None = None,
) -> Evaluation:
    """Compute the reported metrics and time them.

    Parameters
    ----------
    y_true : ndarray of shape (n,)
        Binary labels.
    y_score : ndarray of shape (n,)
        Scores; higher means more likely positive.
    source : str or list of str
        Where the data came from, copied into the result.
    n_threads : int or None, default=None
        Passed to every turbometrics call.

    Returns
    -------
    Evaluation
        The metrics; ``seconds`` is the wall time of the metric
        computations only (not of loading the data). A metric that is
        undefined for the data (NaN) is None.

    Warns
    -----
    UndefinedMetricWarning
        As the metrics do, e.g. when ``y_true`` holds only one class.
    """
    import turbometrics

    start = time.perf_counter()
    auc = turbometrics.roc_auc_score(y_true, y_score, n_threads=n_threads)
    ap = turbometrics.average_precision_score(y_true, y_score, n_threads=n_threads)
    best = turbometrics.best_threshold(y_true, y_score, metric="f1", n_threads=n_threads)
    seconds = time.perf_counter() - start
    return Evaluation(
        n_samples=int(y_true.shape[0]),
        roc_auc=_finite_or_none(auc),
        average_precision=_finite_or_none(ap),
        best_f1_threshold=_finite_or_none(best.threshold),
        best_f1=_finite_or_none(best.value),
        precision_at_best=_finite_or_none(best.precision),
        recall_at_best=_finite_or_none(best.recall),
        seconds=seconds,
        source=source,
    )


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def _fmt(value: float | None) -> str:
    """A number for people, with 6 decimals, or 'undefined'."""
    return "undefined" if value is None else format(value, ".6f")


def _threshold(value: float | None) -> str:
    """A threshold for people (6 significant digits, as the other numbers
    have 6 decimals), or 'undefined'."""
    return "undefined" if value is None else threshold_text(value)


def format_report(result: Evaluation) -> str:
    """The human-readable report of an evaluation."""
    if isinstance(result.source, str):
        source = result.source
    else:
        source = f"labels {result.source[0]}, scores {result.source[1]}"
    lines = [
        f"source:             {source}",
        f"samples:            {result.n_samples:,}",
        f"ROC AUC:            {_fmt(result.roc_auc)}",
        f"average precision:  {_fmt(result.average_precision)}",
        f"best-F1 threshold:  {_threshold(result.best_f1_threshold)}",
        f"  F1:               {_fmt(result.best_f1)}",
        f"  precision:        {_fmt(result.precision_at_best)}",
        f"  recall:           {_fmt(result.recall_at_best)}",
        f"time:               {result.seconds:.3f} s",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


MAX_THREADS = 1024  # a sane bound: 100,000 threads exhaust memory (std::bad_alloc) in the kernels


def _thread_count(text: str) -> int:
    """argparse type for --n-threads: an integer from 1 to MAX_THREADS."""
    return positive_int(text, maximum=MAX_THREADS)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr,
    ``PROG: error: MESSAGE (see PROG --help)``, with exit code 2: batch
    logs want the reason, not the whole usage block. Subcommands' parsers
    are of this class too (argparse makes them of their parent's class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")


def _version() -> str:
    """The installed turbometrics version, or 'unknown'."""
    try:
        from importlib.metadata import version

        return version("turbometrics")
    except Exception:  # not installed as a distribution
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``turbometrics`` program."""
    parser = _Parser(
        prog="turbometrics",
        description="Fast, exact evaluation metrics: binary and multiclass classifiers (evaluate), COCO "
        "detection (coco) and segmentation label maps (segmentation).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    evaluate_parser = commands.add_parser(
        "evaluate",
        help="metrics of scored predictions (a table file, per group with the gaps)",
        description=(
            "Evaluate a file of predictions (Parquet, CSV, NPY or JSON Lines): ROC AUC with "
            "DeLong's interval, average precision, the best-F1 threshold, thresholded "
            "metrics, calibration (ECE), Brier and log loss, or multiclass metrics; per "
            "group with --group. Without FILE, evaluates --labels/--scores arrays or a "
            "built-in example of 1,000,000 binary predictions (ROC AUC, average precision, "
            "best-F1 threshold). Exit code 2 on unusable input."
        ),
    )
    from turbometrics.cli import _evaluate

    _evaluate.add_arguments(evaluate_parser)
    evaluate_parser.add_argument("--labels", metavar="FILE", help="true binary labels (.npy, or one-column .csv)")
    evaluate_parser.add_argument("--scores", metavar="FILE", help="predicted scores (.npy, or one-column .csv)")
    evaluate_parser.add_argument(
        "--n-threads",
        type=_thread_count,
        default=None,
        metavar="N",
        help="threads for the kernels (default: turbometrics.get_num_threads())",
    )
    evaluate_parser.add_argument("--json", action="store_true", help="print one JSON object instead of a report")
    from turbometrics.cli import _coco

    _coco.add_parser(commands, _thread_count)
    from turbometrics.cli import _segmentation

    _segmentation.add_parser(commands, _thread_count)
    for command in commands.choices.values():  # which parser reports an unrecognized argument
        command.set_defaults(command_parser=command)
    return parser


def _warn(message: str) -> None:
    """Print a one-line warning to stderr."""
    print(f"turbometrics: warning: {message}", file=sys.stderr)


def _error(message: str) -> int:
    """Print a one-line error to stderr and return the usage exit code."""
    print(f"turbometrics: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def run_evaluate(args: argparse.Namespace) -> int:
    """Carry out ``turbometrics evaluate`` with parsed arguments."""
    if args.file is not None:
        return _run_evaluate_file(args)
    from turbometrics.cli._evaluate import FILE_OPTIONS

    given = [name for name in FILE_OPTIONS if getattr(args, name) not in (None, False)]
    if given:
        return _error(f"--{given[0].replace('_', '-')} needs a FILE (turbometrics evaluate FILE ...)")
    if (args.labels is None) != (args.scores is None):
        return _error("--labels and --scores must be given together")
    try:
        if args.labels is None:
            from turbometrics._common.example import example_data

            y_true, y_score = example_data()
            source: str | list[str] = BUILTIN_SOURCE
        else:
            y_true, y_score = _load_pair(args.labels, args.scores)
            source = [args.labels, args.scores]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = evaluate(y_true, y_score, source, n_threads=args.n_threads)
    except InputError as exc:
        return _error(str(exc))
    except (ValueError, TypeError) as exc:  # rejected by the metrics
        return _error(first_line(exc))
    for message in dict.fromkeys(first_line(w.message) for w in caught):
        _warn(message)
    _output.write(json.dumps(asdict(result), allow_nan=False) if args.json else format_report(result))
    return EXIT_OK


def _run_evaluate_file(args: argparse.Namespace) -> int:
    """``turbometrics evaluate FILE``: see ``_evaluate``."""
    from turbometrics.cli import _evaluate, _report

    if args.labels is not None or args.scores is not None:
        return _error("give FILE or --labels/--scores, not both")
    if args.json and args.markdown:
        return _error("give --json or --markdown, not both")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = _evaluate.run(args)
    except InputError as exc:
        return _error(str(exc))
    except OSError as exc:  # a file that cannot be read after opening, or plots that cannot be written
        return _error(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else first_line(exc))
    for message in dict.fromkeys(first_line(w.message) for w in caught):
        _warn(message)
    if args.json:
        _output.write(json.dumps(result, allow_nan=False))
    elif args.markdown:
        _output.write(_report.format_markdown(result))
    else:
        _output.write(_report.format_table(result))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``turbometrics`` program.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; defaults to ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit code: 0 on success, 2 on a usage error or unusable input
        (out of memory and output that cannot be written included), 141
        when the output's reader closed it early (quietly, as Unix tools),
        130 on Ctrl-C (with "turbometrics: interrupted" on stderr).
    """
    try:
        code = _parse_and_run(argv)
        _output.flush()  # a closed pipe or a full disk shows here, not at exit
    except BrokenPipeError:
        _detach_stdout()
        return EXIT_BROKEN_PIPE
    except _output.OutputError as exc:  # stdout on a full disk or /dev/full
        _detach_stdout()
        return _error(f"cannot write the output ({exc})")
    except KeyboardInterrupt:
        _detach_stdout()  # what was buffered is not flushed at exit
        print("turbometrics: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError as exc:  # e.g. a file too large for memory with --plots
        return _error(f"out of memory ({first_line(exc)})")
    return code


def _parse_and_run(argv: Sequence[str] | None) -> int:
    """Parse the arguments and carry out the command; its exit code."""
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(unknown)}")
        if args.command is None:
            parser.error("give a command: evaluate, coco or segmentation")
    except SystemExit as exc:  # --help, --version, or a usage error
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command == "evaluate":
        from turbometrics.cli._evaluate import file_from_scores

        file_from_scores(args)
        return run_evaluate(args)
    if args.command == "segmentation":
        from turbometrics.cli import _segmentation

        return _segmentation.run(args, _error)
    from turbometrics.cli import _coco

    return _coco.run(args, _error)


def _detach_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit does not
    report a write that cannot succeed (the reader closed the pipe:
    ``turbometrics ... | head -1``; a full disk) nor print half a report
    after Ctrl-C."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout replaced by an object without a file
        pass


if __name__ == "__main__":
    sys.exit(main())
