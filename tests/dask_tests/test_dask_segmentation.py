"""turbometrics.dask.segmentation_state: label maps in dask arrays, counted
block by block and tree-merged, equal the in-memory counts exactly, for any
chunking (per image: the images' sums in order)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

da = pytest.importorskip("dask.array")

import dask  # noqa: E402
from dask.delayed import Delayed  # noqa: E402

import turbometrics.dask as tmd  # noqa: E402
from turbometrics.segmentation import SegmentationState, confusion_matrix  # noqa: E402


def maps(seed, shape, k):
    rng = np.random.default_rng(seed)
    return rng.integers(0, k + 1, shape).astype(np.uint8), rng.integers(0, k, shape).astype(np.int32)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.tuples(st.integers(1, 4), st.integers(1, 9), st.integers(1, 9)),
    st.tuples(st.integers(1, 4), st.integers(1, 9), st.integers(1, 9)),
    st.booleans(),
    st.integers(2, 4),
)
def test_any_chunking_equals_the_in_memory_counts(seed, shape, chunks, per_image, split_every):
    k = 4
    y_true, y_pred = maps(seed, shape, k)
    with dask.config.set(scheduler="sync"):
        state = tmd.segmentation_state(
            da.from_array(y_true, chunks=chunks),
            da.from_array(y_pred, chunks=chunks[::-1]),
            num_classes=k,
            ignore_index=k,
            per_image=per_image,
            split_every=split_every,
        )
    assert isinstance(state, SegmentationState)
    np.testing.assert_array_equal(
        state.confusion_matrix(), confusion_matrix(y_true, y_pred, num_classes=k, ignore_index=k)
    )
    expected = SegmentationState.from_arrays(y_true, y_pred, num_classes=k, ignore_index=k, per_image=per_image)
    np.testing.assert_array_equal(state.image_sums(), expected.image_sums())


def test_numpy_maps_delayed_and_relabelling():
    y_true, y_pred = maps(1, (6, 20, 30), 5)
    expected = confusion_matrix(
        y_true, y_pred, num_classes=5, ignore_index=255, reduce_zero_label=True, label_map={0: 1, 1: 0}
    )
    with dask.config.set(scheduler="sync"):
        delayed = tmd.segmentation_state(
            y_true,
            y_pred,
            num_classes=5,
            ignore_index=255,
            reduce_zero_label=True,
            label_map={0: 1, 1: 0},
            compute=False,
        )
        assert isinstance(delayed, Delayed)
        np.testing.assert_array_equal(delayed.compute().confusion_matrix(), expected)


def test_bad_input_is_refused():
    y_true, y_pred = maps(2, (2, 3, 4), 3)
    with pytest.raises(ValueError, match="different shapes"):
        tmd.segmentation_state(y_true, y_pred[:1], num_classes=4)
    with pytest.raises(ValueError, match="first axis is the image"):
        tmd.segmentation_state(y_true.ravel(), y_pred.ravel(), num_classes=4, per_image=True)
    with pytest.raises(ValueError, match="num_classes"):
        tmd.segmentation_state(y_true, y_pred, num_classes=0)
    with pytest.raises(ValueError, match="split_every"):
        tmd.segmentation_state(y_true, y_pred, num_classes=4, split_every=1)
    with dask.config.set(scheduler="sync"), pytest.raises(ValueError, match="y_true holds label 3"):
        tmd.segmentation_state(da.from_array(y_true, chunks=(1, 3, 4)), y_pred, num_classes=3)


def test_the_signature_is_the_states():
    import inspect

    ours = list(inspect.signature(tmd.segmentation_state).parameters.values())
    state = list(inspect.signature(SegmentationState.from_arrays).parameters.values())
    assert ours[: len(state)] == state
    assert [p.name for p in ours[len(state) :]] == ["compute", "split_every"]
