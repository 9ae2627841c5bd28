"""patch_pycocotools(): pycocotools code runs on turbometrics, with the
same numbers, and unpatching restores it."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from coco_helpers import build, fixture, quiet

pytest.importorskip("pycocotools")

import pycocotools.cocoeval
import pycocotools.mask
from pycocotools.coco import COCO as ReferenceCOCO

import turbometrics.coco as tc


def _stats():
    gt = build(ReferenceCOCO, fixture("instances_val2014_100.json"))
    dt = quiet(lambda: gt.loadRes(copy.deepcopy(fixture("instances_val2014_fakesegm100_results.json"))))
    evaluation = pycocotools.cocoeval.COCOeval(gt, dt, "segm")
    quiet(lambda: (evaluation.evaluate(), evaluation.accumulate(), evaluation.summarize()))
    return evaluation


def test_patch_swaps_and_unpatch_restores():
    original_eval, original_iou = pycocotools.cocoeval.COCOeval, pycocotools.mask.iou
    reference = _stats()
    with tc.patch_pycocotools():
        assert pycocotools.cocoeval.COCOeval is tc.COCOeval
        assert pycocotools.mask.iou is tc.mask.iou
        tc.patch_pycocotools()  # idempotent
        patched = _stats()
        assert isinstance(patched, tc.COCOeval)
    assert pycocotools.cocoeval.COCOeval is original_eval and pycocotools.mask.iou is original_iou
    assert list(patched.stats) == list(reference.stats)
    assert np.array_equal(patched.eval["precision"], reference.eval["precision"])
    tc.unpatch_pycocotools()  # nothing to restore: no error
