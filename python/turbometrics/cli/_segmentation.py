"""``turbometrics segmentation GT PRED``: IoU, Dice, precision, recall and
accuracy per class of label maps, and their means.

GT and PRED are two PNG or NPY label maps, or two folders of them paired
by name (``_label_maps``). The maps are read one pair at a time into one
:class:`~turbometrics.segmentation.SegmentationState` (K x K counts), so a
dataset of any size takes the memory of one pair of maps. The scores are
dataset-level (the counts of all maps added, then scored: mmsegmentation's
``IoUMetric`` and Cityscapes' class IoU), a class with no true and no
predicted pixel being NaN ("-" in the table, null in JSON) and left out of
the means.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._common.input_error import InputError, first_line, positive_int
from ..segmentation import SegmentationState
from . import _label_maps, _output
from ._progress import add_progress_arguments, progress_reporter

#: The per-class scores reported, as (JSON key, column title, ``SegmentationState.score`` metric).
_SCORES = (
    ("iou", "IoU", "iou"),
    ("dice", "Dice", "dice"),
    ("precision", "precision", "precision"),
    ("recall", "recall", "recall"),
    ("accuracy", "accuracy", "class_accuracy"),
)


def add_parser(commands: Any, thread_count: Callable[[str], int]) -> None:
    """Add the ``segmentation`` command to the program's subparsers."""
    parser = commands.add_parser(
        "segmentation",
        help="IoU, Dice, precision, recall and accuracy of label maps (PNG or NPY files or folders)",
        description=(
            "Compare predicted label maps with ground-truth ones: per class IoU, Dice, precision, recall "
            "and accuracy over the whole set (the counts of all maps added, then scored, as mmsegmentation "
            "and Cityscapes do), their means over the classes present, and pixel accuracy. GT and PRED are "
            "two .png or .npy files, or two folders of them paired by file name without the suffix. PNGs "
            "need Pillow (pip install 'turbometrics[png]'). Exit code 2 on unusable input."
        ),
    )
    parser.add_argument("ground_truth", metavar="GT", help="ground-truth label map, or a folder of them")
    parser.add_argument("prediction", metavar="PRED", help="predicted label map, or a folder of them")
    parser.add_argument(
        "--num-classes",
        type=positive_int,
        required=True,
        metavar="K",
        help="the number of classes: labels are 0 .. K-1, any other label (but --ignore-index) is an error",
    )
    parser.add_argument(
        "--ignore-index", type=int, default=None, metavar="L", help="skip pixels whose true label is L (e.g. 255)"
    )
    parser.add_argument(
        "--reduce-zero-label",
        action="store_true",
        help="mmsegmentation's option: true label 0 becomes 255 and every other true label k becomes k-1",
    )
    parser.add_argument(
        "--n-threads",
        type=thread_count,
        default=None,
        metavar="N",
        help="threads for the counting (default: turbometrics.get_num_threads())",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    add_progress_arguments(parser, "show progress over folders also when stderr is not a terminal", logs=False)


def run(args: argparse.Namespace, error: Callable[[str], int]) -> int:
    """Carry out ``turbometrics segmentation``; ``error(message)`` reports
    unusable input and returns the exit code."""
    start = time.perf_counter()
    try:
        state = SegmentationState(
            args.num_classes, ignore_index=args.ignore_index, reduce_zero_label=args.reduce_zero_label
        )
    except ValueError as exc:  # num_classes past the largest
        return error(f"--num-classes: {first_line(exc)}")
    try:
        files = _label_maps.pairs(args.ground_truth, args.prediction)
        _count(state, files, args)
    except InputError as exc:
        return error(str(exc))
    report = _report(state, args, len(files), time.perf_counter() - start)
    _output.write(json.dumps(report, allow_nan=False) if args.json else _table(report))
    return 0


def _count(state: SegmentationState, files: list[tuple[Path, Path]], args: argparse.Namespace) -> None:
    """Add every pair of maps to ``state``, one pair in memory at a time,
    reporting progress over folders."""
    folders = Path(args.ground_truth).is_dir()
    progress = progress_reporter(
        Path(args.ground_truth).name,
        len(files),
        "maps",
        args.progress,
        args.no_progress or not folders,
        args.progress_every,
        counted="pixels",
    )
    pixels = 0
    for index, (gt, pred) in enumerate(files):
        y_true, y_pred = _label_maps.read(gt), _label_maps.read(pred)
        if y_true.shape != y_pred.shape:
            raise InputError(f"{gt} has shape {y_true.shape} but {pred} has shape {y_pred.shape}")
        try:
            state.update(y_true, y_pred, n_threads=args.n_threads)
        except ValueError as exc:  # a label outside [0, K): the message names the map as y_true or y_pred
            message = first_line(exc).rstrip(".")
            for name, path in (("y_true", gt), ("y_pred", pred)):
                if message.startswith(name + " "):
                    message = f"{path}{message[len(name) :]}"
            raise InputError(f"{message} (--num-classes {args.num_classes})") from None
        pixels += y_true.size
        progress(1, pixels, index == len(files) - 1)


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _report(state: SegmentationState, args: argparse.Namespace, n_maps: int, seconds: float) -> dict[str, Any]:
    """The report (the JSON object): what was read, the per-class scores,
    their macro means and pixel accuracy; NaN as None."""
    counts = state.confusion_matrix()
    per_class: dict[str, Any] = {
        key: [_finite(v) for v in state.score(metric, average=None)] for key, _, metric in _SCORES
    }
    per_class["true_pixels"] = [int(v) for v in counts.sum(axis=1)]
    per_class["predicted_pixels"] = [int(v) for v in counts.sum(axis=0)]
    return {
        "source": [args.ground_truth, args.prediction],
        "n_maps": n_maps,
        "n_pixels": int(counts.sum()),
        "num_classes": state.num_classes,
        "ignore_index": state.ignore_index,
        "reduce_zero_label": state.reduce_zero_label,
        "per_class": per_class,
        "mean": {key: _finite(state.score(metric)) for key, _, metric in _SCORES},
        "pixel_accuracy": _finite(state.score("pixel_accuracy")),
        "seconds": seconds,
    }


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _table(report: dict[str, Any]) -> str:
    """The report for people: what was read, a row per class, the means."""
    per_class, titles = report["per_class"], [title for _, title, _ in _SCORES]
    rows = [["class", *titles, "true pixels"]]
    rows.extend(
        [str(k), *(_cell(per_class[key][k]) for key, _, _ in _SCORES), f"{per_class['true_pixels'][k]:,}"]
        for k in range(report["num_classes"])
    )
    rows.append(["mean", *(_cell(report["mean"][key]) for key, _, _ in _SCORES), ""])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    ignored = "" if report["ignore_index"] is None else f" (label {report['ignore_index']} ignored)"
    lines = [
        f"ground truth:    {report['source'][0]}",
        f"prediction:      {report['source'][1]}",
        f"maps:            {report['n_maps']:,}, {report['n_pixels']:,} pixels counted{ignored}",
        "",
    ]
    for index, row in enumerate(rows):
        if index == len(rows) - 1:
            lines.append("  ".join("-" * width for width in widths))
        lines.append("  ".join(cell.rjust(width) for cell, width in zip(row, widths)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    lines += ["", f"pixel accuracy:  {_cell(report['pixel_accuracy'])}"]
    if any(v is None for key, _, _ in _SCORES for v in per_class[key]):
        lines.append(
            "-: undefined (a zero denominator: IoU and Dice with no true and no predicted pixel, precision with "
            "none predicted, recall and accuracy with none true), left out of the means"
        )
    lines.append(f"time:            {report['seconds']:.2f} s")
    return "\n".join(lines)
