"""``turbometrics coco``: pycocotools' summary of a detection evaluation.

``turbometrics coco GT.json RESULTS.json [--iou-type bbox|segm|keypoints]
[--per-category] [--json]`` prints the summary lines of ``COCOeval`` (12
for boxes and masks, 10 for keypoints) and, with ``--per-category``, AP,
AP50, AP75 and AR per category. Without ``--iou-type``, the first result's
fields choose it (keypoints, else segmentation, else boxes);
``--iou-type keypoints`` for results without keypoints is refused. Without
files it evaluates a built-in synthetic set (200 images, 10 categories, 20
box detections per image).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

from .._common.input_error import InputError, first_line
from . import _output

BUILTIN_SOURCE = "built-in example"

_DETECTION_NAMES = [
    "AP",
    "AP50",
    "AP75",
    "AP_small",
    "AP_medium",
    "AP_large",
    "AR1",
    "AR10",
    "AR100",
    "AR_small",
    "AR_medium",
    "AR_large",
]
_KEYPOINT_NAMES = ["AP", "AP50", "AP75", "AP_medium", "AP_large", "AR", "AR50", "AR75", "AR_medium", "AR_large"]


def add_parser(commands: Any, thread_count: Any) -> None:
    """Add the ``coco`` command to the program's subparsers."""
    parser = commands.add_parser(
        "coco",
        help="COCO detection evaluation (pycocotools' summary, bit-identical)",
        description=(
            "Evaluate COCO detection results against a ground truth and print pycocotools' "
            "summary. Without files, evaluates a built-in synthetic example."
        ),
    )
    parser.add_argument("ground_truth", nargs="?", metavar="GT.json", help="COCO ground-truth annotations")
    parser.add_argument("results", nargs="?", metavar="RESULTS.json", help="detection results")
    parser.add_argument(
        "--iou-type",
        choices=["bbox", "segm", "keypoints"],
        default=None,
        help="what to compare (default: from the first result's fields: keypoints, else "
        "segmentation (segm), else bbox)",
    )
    parser.add_argument("--per-category", action="store_true", help="also report AP, AP50, AP75, AR per category")
    parser.add_argument(
        "--n-threads",
        type=thread_count,
        default=None,
        metavar="N",
        help="threads for the kernels (default: turbometrics.get_num_threads())",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the summary")


#: The result field an IoU type needs (loadRes derives a box from a mask or
#: keypoints, and a box polygon as the mask of a box: pycocotools' segm of
#: box results).
_NEEDED_FIELD = {"keypoints": "keypoints"}


def _first_result_fields(path: str) -> set | None:
    """The known fields of the results file's first result (read by the
    compiled reader), or None when the file is empty or unreadable (then
    ``loadRes`` reports what is wrong)."""
    from ..coco import results_reader as reader

    try:
        columns = reader.read_results_file(path)
    except (OSError, ValueError):
        return None
    if columns.n_rows == 0:
        return None
    first = int(columns.present[0])
    bits = (
        (reader.PRESENT_BBOX, "bbox"),
        (reader.PRESENT_SEGMENTATION, "segmentation"),
        (reader.PRESENT_KEYPOINTS, "keypoints"),
        (reader.PRESENT_SCORE, "score"),
        (reader.PRESENT_IMAGE_ID, "image_id"),
        (reader.PRESENT_CATEGORY_ID, "category_id"),
    )
    return {name for bit, name in bits if first & bit}


def _inferred_iou_type(fields: set | None) -> str:
    """keypoints if the first result has keypoints, else segm if it has a
    segmentation, else bbox."""
    fields = fields or set()
    return "keypoints" if "keypoints" in fields else "segm" if "segmentation" in fields else "bbox"


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _inputs(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    from ..coco import COCO
    from ..coco.synthetic import make_coco_set

    if args.ground_truth is None:
        dataset, results = make_coco_set(n_images=200, n_categories=10, dets_per_image=20, seed=0)
        ground_truth = COCO()
        ground_truth.dataset = dataset
        ground_truth.createIndex()
        return ground_truth, ground_truth.loadRes(results), BUILTIN_SOURCE
    ground_truth = _read(args.ground_truth, lambda: COCO(args.ground_truth))
    missing = [key for key in _GROUND_TRUTH_KEYS if key not in ground_truth.dataset]
    if missing:
        raise InputError(
            f"{args.ground_truth}: not a COCO ground truth: it has no "
            f"{' and no '.join(repr(key) for key in missing)} (it needs 'images', 'annotations' "
            f"and 'categories')"
        )
    results = _read(args.results, lambda: ground_truth.loadRes(args.results))
    return ground_truth, results, [args.ground_truth, args.results]


#: The top-level keys of a ground truth that a detection evaluation reads.
_GROUND_TRUTH_KEYS = ("images", "annotations", "categories")


def _read(path: str, load: Callable[[], Any]) -> Any:
    """``load()``, whose failures are reported as unusable input naming
    ``path``: an empty file, text that is not UTF-8 or not JSON, JSON
    nested past Python's recursion limit (which the standard library's
    parser cannot read), and a file whose contents the loader refuses
    (its message names the result and the field)."""
    try:
        return load()
    except RecursionError:
        raise InputError(f"{path}: the JSON is nested too deeply to read") from None
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        raise InputError(f"{path}: not UTF-8 text (byte {byte:#04x} at offset {exc.start:,})") from None
    except json.JSONDecodeError as exc:
        if not exc.doc.strip():
            raise InputError(f"{path}: empty file") from None
        raise InputError(f"{path}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except OSError:
        raise  # the caller names the file and the system's reason
    except (ValueError, TypeError, AssertionError, OverflowError, IndexError) as exc:
        raise InputError(f"{path}: {first_line(exc)}") from None
    except KeyError as exc:
        raise InputError(f"{path}: a required field is missing: {first_line(exc)}") from None


def run(args: argparse.Namespace, error: Any) -> int:
    """Carry out ``turbometrics coco``; ``error(message)`` reports unusable
    input and returns the exit code."""
    from ..coco import COCOeval

    if (args.ground_truth is None) != (args.results is None):
        return error("give both GT.json and RESULTS.json, or neither")
    if args.iou_type not in (None, "bbox") and args.ground_truth is None:
        return error("the built-in example has boxes only (--iou-type bbox)")
    if args.ground_truth is not None:
        fields = _first_result_fields(args.results)
        needed = _NEEDED_FIELD.get(args.iou_type)
        if fields is not None and needed is not None and needed not in fields:
            return error(
                f"{args.results}: --iou-type {args.iou_type} needs '{needed}' in the results, "
                f"but the first result has only {', '.join(repr(f) for f in sorted(fields))}"
            )
        if args.iou_type is None:
            args.iou_type = _inferred_iou_type(fields)
    args.iou_type = args.iou_type or "bbox"
    start = time.perf_counter()
    log = io.StringIO()
    try:
        with contextlib.redirect_stdout(log), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ground_truth, results, source = _inputs(args)
            evaluation = COCOeval(ground_truth, results, args.iou_type, n_threads=args.n_threads)
            evaluation.evaluate()
            evaluation.accumulate()
            log.truncate(0)
            log.seek(0)
            evaluation.summarize()
    except InputError as exc:
        return error(str(exc))
    except OSError as exc:
        return error(f"{exc.filename}: {exc.strerror}")
    except (ValueError, TypeError, AssertionError, OverflowError, IndexError) as exc:
        return error(first_line(exc))
    except KeyError as exc:
        return error(f"a required field is missing: {first_line(exc)}")
    for message in dict.fromkeys(first_line(w.message) for w in caught):
        print(f"turbometrics: warning: {message}", file=sys.stderr)
    seconds = time.perf_counter() - start
    names = _KEYPOINT_NAMES if args.iou_type == "keypoints" else _DETECTION_NAMES
    per_category = evaluation.results_per_category(as_frame=False) if args.per_category else None
    if args.json:
        report: dict[str, Any] = {
            "source": source,
            "iou_type": args.iou_type,
            "stats": {name: _finite(value) for name, value in zip(names, evaluation.stats)},
            "seconds": seconds,
        }
        if per_category is not None:
            report["per_category"] = {str(k): {key: v for key, v in row.items()} for k, row in per_category.items()}
        _output.write(json.dumps(report))
        return 0
    _output.write(log.getvalue(), end="")
    if per_category is not None:
        _output.write(_category_table(per_category))
    _output.write(f"evaluated {source if isinstance(source, str) else ' and '.join(source)} in {seconds:.2f} s")
    return 0


def _category_table(rows: dict[Any, dict[str, Any]]) -> str:
    columns: list[str] = [c for c in next(iter(rows.values())) if c != "name"] if rows else []
    lines = [f"{'category':>10}  {'name':<20}" + "".join(f"{c:>8}" for c in columns)]
    for category_id, row in rows.items():
        name = str(row.get("name") or "")[:20]
        lines.append(f"{category_id!s:>10}  {name:<20}" + "".join(f"{row[c]:>8.3f}" for c in columns))
    return "\n".join(lines)
