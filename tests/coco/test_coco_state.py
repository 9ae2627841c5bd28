"""DetectionState: any split of the images, merged in any order, accumulates
to pycocotools' eval arrays and stats over all the images."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from coco_helpers import both, fixture, quiet

pytest.importorskip("pycocotools")

from turbometrics.coco import DetectionState

CASES = {
    "bbox": ("instances_val2014_100.json", "instances_val2014_fakebbox100_results.json", "bbox", None),
    "segm": ("instances_val2014_100.json", "instances_val2014_fakesegm100_results.json", "segm", None),
    "keypoints": ("keypoints_gt.json", "keypoints_dt.json", "keypoints", None),
    "bbox-useCats=0": (
        "instances_val2014_100.json",
        "instances_val2014_fakebbox100_results.json",
        "bbox",
        lambda p: setattr(p, "useCats", 0),
    ),
}
_REFERENCES = {}


def reference(case):
    if case not in _REFERENCES:
        gt, dt, iou_type, tweak = CASES[case]
        _REFERENCES[case] = both(fixture(gt), fixture(dt), iou_type, tweak)
    return _REFERENCES[case]


def states(case, groups):
    _ref, ours = reference(case)
    params = copy.deepcopy(ours._paramsEval)
    return [
        DetectionState.from_coco(ours.cocoGt, ours.cocoDt, params.iouType, imgIds=ids, params=params) for ids in groups
    ]


def assert_matches_reference(state, ref):
    result = state.accumulate()
    for key in ("precision", "recall", "scores"):
        assert np.array_equal(result[key], ref.eval[key]), key
    assert list(quiet(state.summarize)) == list(ref.stats)


@settings(max_examples=15)
@given(st.sampled_from(list(CASES)), st.integers(1, 5), st.randoms(use_true_random=False))
def test_any_split_merged_in_any_order_equals_one_evaluation(case, n_parts, random):
    ref, ours = reference(case)
    ids = list(ours.params.imgIds)
    random.shuffle(ids)
    n_parts = min(n_parts, len(ids))
    cuts = sorted(random.sample(range(1, len(ids)), n_parts - 1)) if n_parts > 1 else []
    groups = [ids[a:b] for a, b in zip([0] + cuts, cuts + [len(ids)])]
    parts = states(case, groups)
    random.shuffle(parts)
    while len(parts) > 1:  # merge random neighbours: any tree of merges
        i = random.randrange(len(parts) - 1)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    assert_matches_reference(parts[0], ref)


def test_pickle_protocol_5_out_of_band_round_trip():
    ref, _ = reference("segm")
    state = sum(
        states("segm", [ref.params.imgIds[:40], ref.params.imgIds[40:]])[1:],
        states("segm", [ref.params.imgIds[:40]])[0],
    )
    buffers = []
    data = pickle.dumps(state, protocol=5, buffer_callback=buffers.append)
    assert buffers  # the arrays travel out of band
    restored = pickle.loads(data, buffers=buffers)
    assert_matches_reference(restored, ref)
    assert_matches_reference(pickle.loads(pickle.dumps(state)), ref)


def test_update_adds_images_in_place():
    ref, ours = reference("bbox")
    ids = list(ours.params.imgIds)
    state = states("bbox", [ids[::2]])[0]
    assert state.update(ours.cocoGt, ours.cocoDt, ids[1::2]) is state
    assert_matches_reference(state, ref)


def test_from_arrays_round_trip():
    ref, _ = reference("keypoints")
    state = states("keypoints", [ref.params.imgIds])[0]
    again = DetectionState.from_arrays(state.params, state.image_ids, **state.arrays())
    assert_matches_reference(again, ref)
    arrays = state.arrays()
    arrays["score"] = arrays["score"][:-1]
    with pytest.raises(ValueError):
        DetectionState.from_arrays(state.params, state.image_ids, **arrays)


def test_merge_errors():
    _ref, ours = reference("bbox")
    ids = list(ours.params.imgIds)
    a, b = states("bbox", [ids[:10], ids[5:20]])
    with pytest.raises(ValueError, match="both hold image"):
        a.merge(b)
    other_params = copy.deepcopy(ours._paramsEval)
    other_params.iouThrs = np.array([0.5])
    c = DetectionState.from_coco(ours.cocoGt, ours.cocoDt, "bbox", imgIds=ids[30:40], params=other_params)
    with pytest.raises(ValueError, match="different parameters"):
        a.merge(c)
    with pytest.raises(TypeError):
        a.merge(3)


def test_unknown_pickle_version_is_refused():
    state = states("keypoints", [reference("keypoints")[0].params.imgIds])[0]
    payload = state.__getstate__()
    payload["version"] = 99
    fresh = DetectionState.__new__(DetectionState)
    with pytest.raises(ValueError, match="version 99"):
        fresh.__setstate__(payload)
