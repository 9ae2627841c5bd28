"""``turbometrics.segmentation`` surface distances against the definition:
boundaries by scipy's ``binary_erosion`` (border as background) and
distances by brute force over all pairs of boundary pixels; per class of
label maps against the binary masks of each class; thread invariance;
hand-computed cases; empty objects and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import ndimage

import turbometrics as tm
from surface_strategies import blobs, label_pairs, mask_pairs, spacings
from turbometrics.segmentation import average_surface_distance, hausdorff_distance, surface_dice

pytestmark = pytest.mark.bits


def boundary(mask: np.ndarray, connectivity: int = 1) -> np.ndarray:
    structure = ndimage.generate_binary_structure(mask.ndim, connectivity)
    return mask & ~ndimage.binary_erosion(mask, structure=structure, border_value=0)


def brute(a: np.ndarray, b: np.ndarray, spacing, connectivity: int = 1):
    """Directed distances (C order) between the boundaries by all pairs."""
    s = np.ones(a.ndim) if spacing is None else np.asarray(spacing, dtype=np.float64)
    pa = np.argwhere(boundary(a, connectivity))
    pb = np.argwhere(boundary(b, connectivity))
    if len(pa) == 0 or len(pb) == 0:
        return pa, pb, None, None
    d2 = (((pa[:, None, :] - pb[None, :, :]) * s) ** 2).sum(-1)  # index differences times spacing, as scipy
    return pa, pb, np.sqrt(d2.min(1)), np.sqrt(d2.min(0))


@given(mask_pairs(), st.data())
def test_binary_metrics_match_the_definition(pair, data):
    a, b = pair
    spacing = data.draw(spacings(a.ndim))
    connectivity = data.draw(st.integers(1, a.ndim))
    pa, pb, ab, ba = brute(a, b, spacing, connectivity)
    kw = dict(spacing=spacing, connectivity=connectivity)
    hd = hausdorff_distance(a, b, **kw)
    if ab is None:
        expected = np.nan if len(pa) == len(pb) == 0 else np.inf
        assert np.isnan(hd) if np.isnan(expected) else hd == expected
        assert (surface_dice(a, b, tolerance=1.0, **kw) == 0) != (len(pa) == len(pb) == 0)
        return
    pooled = np.concatenate([ab, ba])
    assert hd == pytest.approx(max(ab.max(), ba.max()), rel=1e-12)
    assert hausdorff_distance(a, b, percentile=95, **kw) == pytest.approx(np.percentile(pooled, 95), rel=1e-12)
    assert hausdorff_distance(a, b, percentile=95, method="monai", **kw) == pytest.approx(
        max(np.percentile(ab, 95), np.percentile(ba, 95)), rel=1e-12
    )
    assert hausdorff_distance(a, b, directed=True, **kw) == pytest.approx(ab.max(), rel=1e-12)
    assert average_surface_distance(a, b, **kw) == pytest.approx(pooled.mean(), rel=1e-12)
    assert average_surface_distance(a, b, symmetric=False, **kw) == pytest.approx(ab.mean(), rel=1e-12)
    tol = data.draw(st.floats(0, 5))
    # a distance equal to the tolerance may round either way in the brute force's order of the sum
    low, high = ((np.count_nonzero(pooled <= tol * f)) / len(pooled) for f in (1 - 1e-12, 1 + 1e-12))
    assert low <= surface_dice(a, b, tolerance=tol, **kw) <= high
    if spacing is None:  # integer squared distances: bit for bit
        assert hd == max(ab.max(), ba.max())


@given(label_pairs(), st.data())
def test_label_maps_match_each_class_as_a_binary_mask(maps, data):
    a, b, k = maps
    spacing = data.draw(spacings(a.ndim))
    ignore = data.draw(st.one_of(st.none(), st.integers(0, k - 1)))
    for fn, kw in [
        (hausdorff_distance, {"percentile": 95}),
        (hausdorff_distance, {"percentile": 90, "method": "monai"}),
        (average_surface_distance, {}),
        (surface_dice, {"tolerance": 1.5}),
    ]:
        got = fn(a, b, num_classes=k, ignore_index=ignore, spacing=spacing, **kw)
        assert got.shape == (k,) and got.dtype == np.float64
        for c in range(k):
            want = np.nan if c == ignore else fn(a == c, b == c, spacing=spacing, **kw)
            np.testing.assert_array_equal(got[c], want)


@given(label_pairs(max_classes=6))
def test_the_values_do_not_depend_on_the_thread_count(maps):
    a, b, k = maps
    one = hausdorff_distance(a, b, num_classes=k, percentile=95, n_threads=1)
    np.testing.assert_array_equal(hausdorff_distance(a, b, num_classes=k, percentile=95, n_threads=3), one)


def test_hand_computed_squares_with_spacing():
    a = np.zeros((6, 6), bool)
    a[1:3, 1:3] = True  # 2x2: every pixel is boundary
    b = np.zeros((6, 6), bool)
    b[1:5, 1:5] = True  # 4x4: the ring of 12 pixels
    # (2, 2) of a is 2 rows and 2 columns from b's ring at (4, .) and (., 4):
    assert hausdorff_distance(a, b, directed=True) == 1.0
    assert hausdorff_distance(b, a, directed=True) == np.sqrt(8)
    assert hausdorff_distance(a, b, spacing=(2.0, 0.5), directed=True) == 0.5
    assert hausdorff_distance(b, a, spacing=(2.0, 0.5)) == np.hypot(4.0, 1.0)
    assert surface_dice(a, b, tolerance=0) == 6 / 16  # a's 3 ring pixels, b's 3 pixels of a


def test_objects_touching_the_border_and_single_pixels():
    full = np.ones((3, 4), bool)
    assert average_surface_distance(full, full) == 0.0  # every pixel is on the border
    one = np.ones((1,), bool)
    assert hausdorff_distance(one, one) == 0.0
    cube = np.ones((1, 1, 1), bool)
    assert hausdorff_distance(cube, cube, spacing=(3, 2, 1)) == 0.0
    a = np.zeros((1, 5), bool)
    a[0, 0] = True
    b = np.zeros((1, 5), bool)
    b[0, 4] = True
    assert hausdorff_distance(a, b, spacing=(1.0, 0.5)) == 2.0


def test_empty_objects():
    empty = np.zeros((4, 4), bool)
    some = empty.copy()
    some[1, 1] = True
    assert np.isnan(hausdorff_distance(empty, empty))
    assert hausdorff_distance(empty, some) == np.inf
    assert hausdorff_distance(some, empty) == np.inf
    assert np.isnan(hausdorff_distance(empty, some, directed=True))
    assert hausdorff_distance(some, empty, directed=True) == np.inf
    assert np.isnan(average_surface_distance(empty, empty))
    assert np.isnan(surface_dice(empty, empty, tolerance=1))
    assert surface_dice(empty, some, tolerance=1) == 0.0
    got = hausdorff_distance(np.zeros((3, 3), int), np.ones((3, 3), int), num_classes=3)
    assert np.isinf(got[0]) and np.isinf(got[1]) and np.isnan(got[2])  # class 2 is absent from both


def test_strided_and_dtype_inputs_match_contiguous():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, size=(9, 11, 7)).astype(np.uint16)
    b = rng.integers(0, 4, size=(9, 11, 7)).astype(np.int8)
    want = hausdorff_distance(np.ascontiguousarray(a[::2, :, ::-1]), b[::2, :, ::-1].astype(np.int64), num_classes=4)
    np.testing.assert_array_equal(hausdorff_distance(a[::2, :, ::-1], b[::2, :, ::-1], num_classes=4), want)
    t = a.transpose(2, 0, 1)
    np.testing.assert_array_equal(hausdorff_distance(t, t.copy(), num_classes=4, percentile=95), np.zeros(4))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"a": np.zeros((2, 2)), "b": np.zeros((2, 2))}, TypeError, "bools or integers"),
        ({"a": np.zeros((2, 2), int), "b": np.zeros((2, 3), int)}, ValueError, "different shapes"),
        ({"a": np.zeros((0, 2), int), "b": np.zeros((0, 2), int)}, ValueError, "no pixels"),
        ({"a": np.zeros((1,) * 4, int), "b": np.zeros((1,) * 4, int)}, ValueError, "1, 2 or 3 dimensions"),
        ({"spacing": (1.0,)}, ValueError, "one value per axis"),
        ({"spacing": (1.0, 0.0)}, ValueError, "finite and positive"),
        ({"spacing": "x"}, TypeError, "spacing"),
        ({"connectivity": 0}, ValueError, "connectivity"),
        ({"percentile": 101}, ValueError, "percentile"),
        ({"method": "pixels"}, ValueError, "method"),
        ({"method": "surfel", "a": np.ones(3, int), "b": np.ones(3, int)}, ValueError, "2-D or 3-D"),
        ({"num_classes": 2, "a": np.full((2, 2), 2)}, ValueError, "label 2"),
        ({"num_classes": 2, "a": np.full((2, 2), -1)}, ValueError, "label -1"),
        ({"num_classes": 0}, ValueError, "num_classes"),
        ({"ignore_index": 1}, ValueError, "num_classes"),
    ],
)
def test_errors(kwargs, error, match):
    args = {"a": np.ones((2, 2), int), "b": np.ones((2, 2), int)} | kwargs
    with pytest.raises(error, match=match):
        hausdorff_distance(args.pop("a"), args.pop("b"), **args)


def test_surface_dice_tolerance_is_checked():
    with pytest.raises(ValueError, match="tolerance"):
        surface_dice(np.ones(3, bool), np.ones(3, bool), tolerance=-1)


def test_exported():
    for name in ["hausdorff_distance", "average_surface_distance", "surface_dice"]:
        assert name in tm.segmentation.__all__


def edt_reference(a: np.ndarray, b: np.ndarray, spacing):
    """Directed distances by scipy's distance_transform_edt of the whole
    image (medpy's computation), for maps too large for brute force."""
    ba, bb = boundary(a), boundary(b)
    return (
        ndimage.distance_transform_edt(~bb, sampling=spacing)[ba],
        ndimage.distance_transform_edt(~ba, sampling=spacing)[bb],
    )


@pytest.mark.parametrize(
    ("shape", "spacing"),
    [((300, 200), None), ((300, 200), (0.7, 1.3)), ((40, 36, 64), None), ((40, 36, 64), (2.5, 0.8, 0.8))],
)
@pytest.mark.parametrize("kind", ["blobs", "sparse"])
def test_large_maps_against_scipys_transform(shape, spacing, kind):
    """Lines longer than 32 pixels: the last pass searches outwards from
    each boundary pixel on lines with few of them and transforms the others
    whole; both against scipy's transform of the whole image."""
    rng = np.random.default_rng(len(shape) * 10 + (spacing is None))
    if kind == "blobs":
        a, b = (blobs(rng, shape, 4) for _ in range(2))
    else:  # small objects far apart: long searches, lines without sites
        a, b = np.zeros(shape, np.int64), np.zeros(shape, np.int64)
        for m in (a, b):
            m[tuple(rng.integers(0, s, 30) for s in shape)] = rng.integers(1, 4, 30)
    got = tm.segmentation._surface_kernel.label_distances(a, b, 4, [0, 1, 2, 3], spacing or (1.0,) * len(shape), 1)
    for c, d in enumerate(got):
        ab, ba = edt_reference(a == c, b == c, spacing)
        if len(ab) == 0 or len(ba) == 0:
            continue
        if spacing is None:
            np.testing.assert_array_equal(d.a_to_b, ab)
            np.testing.assert_array_equal(d.b_to_a, ba)
        else:
            np.testing.assert_allclose(d.a_to_b, ab, rtol=1e-13, atol=0)
            np.testing.assert_allclose(d.b_to_a, ba, rtol=1e-13, atol=0)
