"""Progress of ``turbometrics evaluate FILE`` (and of ``turbometrics
segmentation`` over folders) on stderr: a bar on a terminal, or periodic
lines for logs (``--progress``)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

from .._common.input_error import finite_float

__all__ = ["DEFAULT_PROGRESS_SECONDS", "Progress", "add_progress_arguments", "progress_reporter"]

DEFAULT_PROGRESS_SECONDS = 10.0

#: ``advance(units, rows, final)``: ``units`` more progress units read
#: (rows, or bytes of a text file), ``rows`` rows read in all; ``final``
#: once, when the whole file is read.
Progress = Callable[[int, int, bool], None]


def _amount(value: int, unit: str) -> str:
    """``value`` of ``unit`` for people: rows with thousands separators,
    bytes in kB/MB/GB."""
    if unit != "B":
        return f"{value:,} {unit}"
    for prefix, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.1f} {prefix}"
    return f"{value} B"


class ProgressLines:
    """Writes ``turbometrics: progress: NAME: P% (DONE of TOTAL), R rows,
    S s`` lines (``rows`` being ``counted``): after the first chunk, then at most one every ``every``
    seconds, and the final one when the whole file is read.

    Parameters
    ----------
    name : str
        The file's name, in every line.
    total : int or None
        Progress units in the whole file (None or 0: no percentage).
    unit : str
        "rows" or "B" (bytes).
    every : float
        Seconds between two lines (the first and the last are always written).
    stream : text file, default sys.stderr
    clock : callable, default time.monotonic
    counted : str, default "rows"
        What the second count counts (``turbometrics segmentation``: pixels).
    """

    def __init__(
        self,
        name: str,
        total: int | None,
        unit: str,
        every: float,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        counted: str = "rows",
    ) -> None:
        self.name, self.total, self.unit, self.every, self.counted = name, total, unit, every, counted
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.last: float | None = None  # when the last line was written
        self.done = 0

    def __call__(self, units: int, rows: int, final: bool) -> None:
        self.done += units
        now = self.clock()
        if not final and self.last is not None and now - self.last < self.every:
            return
        self.last = now
        if self.total:
            done = min(self.done, self.total)
            where = f"{100 * done // self.total}% ({_amount(done, self.unit)} of {_amount(self.total, self.unit)})"
        else:
            where = _amount(self.done, self.unit)
        print(
            f"turbometrics: progress: {self.name}: {where}, {rows:,} {self.counted}, {now - self.start:.1f} s",
            file=self.stream,
            flush=True,
        )


def progress_reporter(
    name: str, total: int | None, unit: str, progress: bool, no_progress: bool, every: float, counted: str = "rows"
) -> Progress:
    """The progress of reading a file (or a folder): a tqdm bar when stderr
    is a terminal (and tqdm is installed), else lines when ``progress`` is
    asked for (``--progress``), else nothing; nothing with ``no_progress``."""
    if no_progress:
        return lambda units, rows, final: None
    if sys.stderr.isatty():
        bar = _bar(name, total, unit)
        if bar is not None:
            return bar
    if progress:
        return ProgressLines(name, total, unit, every, counted=counted)
    return lambda units, rows, final: None


def _bar(name: str, total: int | None, unit: str) -> Progress | None:
    """A tqdm bar, or None without tqdm or a total."""
    from .._common.progress import progress_callback

    callback = progress_callback(bool(total), name, unit=unit, warn=False)
    if callback is None or not total:
        return None
    done = [0]

    def advance(units: int, rows: int, final: bool) -> None:
        done[0] = total if final else min(done[0] + units, total - 1)  # the bar closes at the total
        callback(done[0], total)

    return advance


def add_progress_arguments(parser: argparse.ArgumentParser, when: str, *, logs: bool = True) -> None:
    """Add ``--progress`` (its help: ``when``, then how often it writes),
    ``--no-progress`` (exclusive with it) and ``--progress-every`` to a
    command's ``parser``; ``logs`` ends ``--progress``'s help with "for logs"."""
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        action="store_true",
        help=f"{when}: a line every --progress-every seconds" + (", for logs" if logs else ""),
    )
    progress.add_argument(
        "--no-progress", action="store_true", help="no progress (by default a bar when stderr is a terminal)"
    )
    parser.add_argument(
        "--progress-every",
        type=seconds,
        default=DEFAULT_PROGRESS_SECONDS,
        metavar="S",
        help=f"seconds between two --progress lines (default: {DEFAULT_PROGRESS_SECONDS:g})",
    )


def seconds(text: str) -> float:
    """argparse type for --progress-every: a finite number of seconds, at least 0."""
    value = finite_float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {text}")
    return value
