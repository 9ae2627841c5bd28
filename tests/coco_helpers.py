"""Running pycocotools and turbometrics.coco side by side on the same data."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "coco"


def fixture(name: str) -> Any:
    return json.loads((DATA / name).read_text())


def quiet(function: Callable[[], Any]) -> Any:
    with contextlib.redirect_stdout(io.StringIO()):
        return function()


def build(coco_class: Any, dataset: dict) -> Any:
    coco = coco_class()
    coco.dataset = copy.deepcopy(dataset)
    quiet(coco.createIndex)
    return coco


def evaluate(
    coco_class: Any,
    eval_class: Any,
    dataset: dict,
    results: list[dict],
    iou_type: str,
    tweak: Callable[[Any], None] | None = None,
    **kwargs: Any,
) -> Any:
    gt = build(coco_class, dataset)
    dt = quiet(lambda: gt.loadRes(copy.deepcopy(results)))
    evaluation = eval_class(gt, dt, iou_type, **kwargs)
    if tweak is not None:
        tweak(evaluation.params)

    def run() -> None:
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()

    quiet(run)
    return evaluation


def both(
    dataset: dict, results: list[dict], iou_type: str, tweak: Callable[[Any], None] | None = None, **kwargs: Any
) -> tuple[Any, Any]:
    """(pycocotools' COCOeval, ours), each run through evaluate, accumulate
    and summarize."""
    from pycocotools.coco import COCO as ReferenceCOCO
    from pycocotools.cocoeval import COCOeval as ReferenceCOCOeval

    from turbometrics.coco import COCO, COCOeval

    reference = evaluate(ReferenceCOCO, ReferenceCOCOeval, dataset, results, iou_type, tweak)
    ours = evaluate(COCO, COCOeval, dataset, results, iou_type, tweak, **kwargs)
    return reference, ours


def assert_same_value(a: Any, b: Any, where: str) -> None:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), where
        assert a.dtype == b.dtype, f"{where}: dtype {a.dtype} != {b.dtype}"
        assert a.shape == b.shape, f"{where}: shape {a.shape} != {b.shape}"
        assert np.array_equal(a, b), f"{where}: {a} != {b}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def assert_same_evaluation(reference: Any, ours: Any, *, per_image: bool = True) -> None:
    """eval arrays np.array_equal, stats ==, and (optionally) every evalImgs
    entry and IoU matrix the same."""
    for key in ("precision", "recall", "scores"):
        assert_same_value(reference.eval[key], ours.eval[key], f"eval[{key!r}]")
    assert reference.eval["counts"] == ours.eval["counts"]
    assert list(reference.stats) == list(ours.stats)
    if not per_image:
        return
    assert len(reference.evalImgs) == len(ours.evalImgs)
    for n, (a, b) in enumerate(zip(reference.evalImgs, ours.evalImgs)):
        if a is None or b is None:
            assert a is b, f"evalImgs[{n}]: {a!r} vs {b!r}"
            continue
        assert a.keys() == b.keys()
        for key in a:
            assert_same_value(a[key], b[key], f"evalImgs[{n}][{key!r}]")
    assert set(reference.ious) == set(ours.ious)
    for key, value in reference.ious.items():
        mine = ours.ious[key]
        if isinstance(value, list):
            assert isinstance(mine, list) and value == mine, f"ious[{key}]"
        else:
            assert_same_value(np.asarray(value), np.asarray(mine), f"ious[{key}]")
