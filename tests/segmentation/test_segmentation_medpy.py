"""``turbometrics.segmentation.medpy``'s overlap scores against medpy
0.5.2's ``medpy.metric.binary`` (``dc``, ``jc``, ``precision``, ``recall``,
``sensitivity``, ``specificity``): random, blob-shaped and sparse masks of
1 to 3 dimensions, empty result and reference, bool, integer and float
masks with values other than 0 and 1 (medpy casts to bool), 0-d, empty and
broadcast shapes, strided and read-only arrays; values (bits), types and
warnings equal to medpy's, and NumPy's ValueError for shapes that do not
broadcast."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from surface_strategies import label_pairs
from turbometrics.segmentation import medpy as tm_medpy

binary = pytest.importorskip("medpy.metric.binary")

pytestmark = pytest.mark.bits

NAMES = ["dc", "jc", "precision", "recall", "sensitivity", "specificity"]


def run(function, *args):
    """The value and the warnings' (category, message) of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args)
    return value, [(w.category, str(w.message)) for w in caught]


def assert_as_medpy(result, reference):
    for name in NAMES:
        want, want_warnings = run(getattr(binary, name), result, reference)
        got, got_warnings = run(getattr(tm_medpy, name), result, reference)
        assert type(got) is type(want), name
        assert got == want or (np.isnan(got) and np.isnan(want)), (name, got, want)
        assert got_warnings == want_warnings, name


@given(label_pairs(max_dims=3, max_side=10, max_classes=4), st.data())
@settings(max_examples=60, deadline=None)
def test_against_medpy(maps, data):
    """Either mask may be empty (a class absent from its map), or both."""
    a, b, k = maps
    cls = data.draw(st.integers(0, k))  # k: absent from both maps
    dtype = data.draw(st.sampled_from([np.bool_, np.uint8, np.int32, np.int64, np.float64]))
    assert_as_medpy((a == cls).astype(dtype), (b == cls).astype(dtype))


@given(label_pairs(max_dims=3, max_side=8, max_classes=5), st.data())
@settings(max_examples=30, deadline=None)
def test_non_binary_values_count_as_the_object(maps, data):
    """Labels, negative values, fractions and NaN are all non-zero: object."""
    a, b, _ = maps
    scale = data.draw(st.sampled_from([1.0, -1.0, 0.25, np.nan]))
    assert_as_medpy(a * scale, b - 2)


def test_edge_shapes_as_medpy():
    rng = np.random.default_rng(0)
    a, b = rng.random((6, 8, 4)) < 0.4, rng.random((6, 8, 4)) < 0.6
    readonly = b.copy()
    readonly.flags.writeable = False
    cases = [
        (np.array(1), np.array(0)),  # 0-d: medpy's atleast_1d
        (np.array(3), np.array([1, 0, 2])),  # broadcast
        (a[:, :1], b[:1]),  # broadcast both ways: dc's sizes are each mask's own
        (a[:, None, :3, :1], b[:2, :3]),  # 4-D after broadcasting
        (np.zeros(0), np.zeros(0)),  # no pixel
        (np.zeros((2, 0)), np.zeros((2, 0), bool)),
        (a[::2, 1::2, ::-1], readonly[::2, ::2, :]),  # strided, reversed, read-only
        (np.zeros((3, 3)), np.zeros((3, 3))),  # both empty
        (np.ones((3, 3)), np.ones((3, 3))),  # no background
        (a.astype(np.int8) * -3, b.astype(np.uint16) * 700),
    ]
    for result, reference in cases:
        assert_as_medpy(result, reference)


def test_shapes_that_do_not_broadcast_raise_numpys_error():
    for first, second in [(np.ones(3), np.ones(4)), (np.ones((3, 2)), np.ones((4, 5)))]:
        with pytest.raises(ValueError) as theirs:
            binary.dc(first, second)
        for name in NAMES:
            with pytest.raises(ValueError) as ours:
                getattr(tm_medpy, name)(first, second)
            assert str(ours.value) == str(theirs.value)


def test_values_by_hand():
    result, reference = np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0])
    assert tm_medpy.dc(result, reference) == 2 / 3
    assert tm_medpy.jc(result, reference) == 0.5
    assert tm_medpy.precision(result, reference) == 0.5
    assert tm_medpy.recall(result, reference) == 1.0
    assert tm_medpy.specificity(result, reference) == 2 / 3
    assert tm_medpy.jc(np.zeros(3), np.zeros(3)) == 1.0
    with pytest.warns(RuntimeWarning, match="invalid value encountered in scalar divide"):
        assert np.isnan(tm_medpy.dc(np.zeros(3), np.zeros(3)))
