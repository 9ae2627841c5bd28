"""``SegmentationState``: batches, merges in any order and any split equal
the function on the whole dataset; bytes and pickles round-trip; altered
parts are refused with a ValueError naming the field."""

from __future__ import annotations

import copy
import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, strategies as st

import turbometrics as tm
from turbometrics.segmentation import SegmentationState, confusion_matrix


def dataset(seed=0, images=7, k=5):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k + 1, (images, 9, 11)).astype(np.uint8)  # label k: ignored
    y_pred = rng.integers(0, k, (images, 9, 11)).astype(np.int32)
    return y_true, y_pred, k


def image_sums_by_hand(y_true, y_pred, k, ignore):
    rows = []
    for t, p in zip(y_true, y_pred):
        kept = t != ignore
        t, p = t[kept].astype(np.int64), p[kept].astype(np.int64)
        tp = np.bincount(t[t == p], minlength=k)
        rows.append([tp, np.bincount(t, minlength=k), np.bincount(p, minlength=k)])
    return np.array(rows, dtype=np.int64).reshape(len(y_true), 3, k)


@given(st.lists(st.integers(0, 7), max_size=6), st.booleans(), st.randoms(use_true_random=False))
def test_any_split_and_merge_order_equals_the_whole(cuts, per_image, random):
    y_true, y_pred, k = dataset()
    bounds = [0, *sorted(cuts), len(y_true)]
    states = [
        SegmentationState.from_arrays(
            y_true[a:b],
            y_pred[a:b],
            num_classes=k,
            ignore_index=k,
            per_image=per_image,
            n_threads=random.choice([1, 2]),
        )
        for a, b in itertools.pairwise(bounds)
    ]
    merged = states[0]
    for state in states[1:]:
        merged = merged + state
    expected = confusion_matrix(y_true, y_pred, num_classes=k, ignore_index=k)
    np.testing.assert_array_equal(merged.confusion_matrix(), expected)
    np.testing.assert_array_equal(sum(random.sample(states, len(states))).confusion_matrix(), expected)
    if per_image:
        np.testing.assert_array_equal(merged.image_sums(), image_sums_by_hand(y_true, y_pred, k, k))
    else:
        assert merged.image_sums().shape == (0, 3, k)


def test_update_in_place_and_relabelling():
    y_true, y_pred, k = dataset(1)
    state = SegmentationState(k, ignore_index=255, reduce_zero_label=True, label_map={0: 1, 1: 0})
    assert state.update(y_true[:3], y_pred[:3]) is state
    state.update(y_true[3:], y_pred[3:], n_threads=2)
    expected = confusion_matrix(
        y_true, y_pred, num_classes=k, ignore_index=255, reduce_zero_label=True, label_map={1: 0, 0: 1}
    )
    np.testing.assert_array_equal(state.confusion_matrix(), expected)
    assert "SegmentationState(num_classes=5" in repr(state)


def test_a_refused_batch_leaves_the_state_unchanged():
    y_true, y_pred, k = dataset(2)
    state = SegmentationState.from_arrays(y_true, y_pred, num_classes=k + 1)
    before = state.to_bytes()
    bad = y_pred.copy()
    bad[0, 0, 0] = 99
    with pytest.raises(ValueError, match="y_pred holds label 99"):
        state.update(y_true, bad)
    assert state.to_bytes() == before


def test_images_streamed_one_by_one_and_copies_branching_from_them():
    """Per-image sums grow in a buffer with spare rows: updates one image at
    a time equal the batch, and a copy's updates never write into the rows
    of the state it was copied from (nor the reverse)."""
    y_true, y_pred, k = dataset(4, images=40)
    whole = SegmentationState.from_arrays(y_true, y_pred, num_classes=k + 1, per_image=True)
    state = SegmentationState(k + 1, per_image=True)
    for i in range(len(y_true)):
        state.update(y_true[i : i + 1], y_pred[i : i + 1])
    np.testing.assert_array_equal(state.image_sums(), whole.image_sums())
    branch = copy.copy(state)
    branch.update(y_true[:1], y_pred[:1])
    state.update(y_true[1:2], y_pred[1:2])
    np.testing.assert_array_equal(branch.image_sums()[-1], whole.image_sums()[0])
    np.testing.assert_array_equal(state.image_sums()[-1], whole.image_sums()[1])
    np.testing.assert_array_equal(state.image_sums()[:-1], whole.image_sums())
    assert state.score("iou", aggregate="none").shape == (41,)


@pytest.mark.parametrize("per_image", [False, True])
def test_bytes_and_pickles_round_trip(per_image):
    y_true, y_pred, k = dataset(3)
    state = SegmentationState.from_arrays(
        y_true, y_pred, num_classes=k, ignore_index=k, per_image=per_image, label_map={2: 3}
    )
    for loaded in (SegmentationState.from_bytes(state.to_bytes()), pickle.loads(pickle.dumps(state))):
        np.testing.assert_array_equal(loaded.confusion_matrix(), state.confusion_matrix())
        np.testing.assert_array_equal(loaded.image_sums(), state.image_sums())
        assert loaded.label_map == state.label_map and loaded.per_image == per_image and loaded.ignore_index == k
        (loaded + state).confusion_matrix()  # the same parameters: they merge
    assert tm.states.SegmentationState is SegmentationState


def test_merging_different_parameters_is_refused():
    a = SegmentationState(3)
    with pytest.raises(ValueError, match="different num_classes"):
        a + SegmentationState(4)
    with pytest.raises(ValueError, match="different ignore_index"):
        a.merge(SegmentationState(3, ignore_index=255))
    with pytest.raises(ValueError, match="different label_map"):
        a.merge(SegmentationState(3, label_map={0: 1}))
    with pytest.raises(TypeError, match="cannot merge a SegmentationState with ConfusionState"):
        a.merge(tm.ConfusionState())


def _altered(state, **parts):
    payload = state.__getstate__()
    payload.update(parts)
    fresh = SegmentationState.__new__(SegmentationState)
    fresh.__setstate__(payload)
    return fresh


@pytest.mark.parametrize(
    ("parts", "match"),
    [
        ({"num_classes": 0}, "num_classes must be an int in"),
        ({"num_classes": 4}, "_counts must have shape"),
        ({"_counts": np.full((3, 3), -1, dtype=np.int64)}, "non-negative"),
        ({"_counts": np.zeros((3, 3), dtype=np.float64)}, "_counts must be a 2-D array of kind 'i'"),
        ({"_counts": np.full((3, 3), 2**61, dtype=np.int64)}, "less than 2\\*\\*62"),
        ({"_image_sums": np.zeros((2, 3, 3), dtype=np.int64)}, "add up to"),
        ({"_image_sums": np.zeros((1, 2, 3), dtype=np.int64)}, "_image_sums must have shape"),
        ({"ignore_index": 1.5}, "ignore_index must be None or an int"),
        ({"label_map": [[0, "a"]]}, "label_map must be None or a list"),
        ({"label_map": {"0": 1}}, "label_map must be None or a list"),
        ({"per_image": 1}, "per_image must be a bool"),
        ({"extra": 1}, "unknown fields \\['extra'\\]"),
    ],
)
def test_altered_parts_are_refused(parts, match):
    y_true, y_pred, _ = dataset(4, images=2, k=3)
    state = SegmentationState.from_arrays(np.minimum(y_true, 2), np.minimum(y_pred, 2), num_classes=3, per_image=True)
    with pytest.raises(ValueError, match=match):
        _altered(state, **parts)


def test_per_image_sums_that_contradict_the_counts_are_refused():
    y_true, y_pred, _ = dataset(5, images=2, k=3)
    state = SegmentationState.from_arrays(np.minimum(y_true, 2), np.minimum(y_pred, 2), num_classes=3, per_image=True)
    sums = state.image_sums()
    sums[0, 0, 0] = sums[0, 1, 0] + 1  # more true positives than true pixels
    with pytest.raises(ValueError, match="true positives at most"):
        _altered(state, _image_sums=sums)
    flat = SegmentationState.from_arrays(np.minimum(y_true, 2), np.minimum(y_pred, 2), num_classes=3)
    with pytest.raises(ValueError, match="no images unless per_image"):
        _altered(flat, _image_sums=state.image_sums())
