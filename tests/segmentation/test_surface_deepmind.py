"""``method="surfel"`` of ``hausdorff_distance``, ``average_surface_distance``
and ``surface_dice`` against DeepMind surface-distance 0.1
(``compute_surface_distances`` with ``compute_robust_hausdorff``,
``compute_average_surface_distance`` and
``compute_surface_dice_at_tolerance``): random and blob-shaped masks and
label maps, 2-D and 3-D, anisotropic spacing, empty masks, percentiles 95
and 100, tolerances. 2-D: bit for bit with unit or dyadic spacing (exact
squared distances), within 1e-12 otherwise, the contour lengths bit for
bit at any spacing. 3-D: the surfels' triangles are DeepMind's (their area
vectors, exactly); their areas, summed in turbometrics' order (DeepMind's
order follows no rule, ``_surfel``), are DeepMind's bit for bit with unit
spacing or one power of two on every axis, within 3 ulps at any other, so
the statistics are bit for bit there and within 1e-12 otherwise.

surface-distance 0.1 uses ``np.NaN`` and ``np.Inf``, which NumPy 2 removed:
they are aliased for this module's tests only, and its scipy.ndimage
deprecation warnings are silenced around its calls."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, strategies as st

from surface_strategies import label_pairs, mask_pairs, spacings
from turbometrics.segmentation import average_surface_distance, hausdorff_distance, surface_dice

deepmind = pytest.importorskip("surface_distance")

pytestmark = pytest.mark.bits

DYADIC = st.sampled_from([0.25, 0.5, 1.0, 1.5, 2.0, 3.0])


def _exact(ndim: int, spacing: tuple[float, ...] | None) -> bool:
    """Bit for bit with dyadic spacing: 2-D, or 3-D where the surfel areas
    are DeepMind's bits (unit spacing, or one power of two on every axis)."""
    if ndim == 2 or spacing is None:
        return True
    return len(set(spacing)) == 1 and math.frexp(spacing[0])[0] == 0.5


@pytest.fixture(autouse=True, scope="module")
def _numpy_aliases() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(np, "NaN", np.nan, raising=False)
        patch.setattr(np, "Inf", np.inf, raising=False)
        yield


def _reference(a: np.ndarray, b: np.ndarray, spacing: tuple[float, ...] | None) -> dict:
    """DeepMind's surfaces with b the ground truth and a the prediction."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return deepmind.compute_surface_distances(b.astype(bool), a.astype(bool), spacing or (1.0,) * a.ndim)


def _quiet(function, *args):
    """A DeepMind statistic, its 0/0 RuntimeWarnings silenced (nan)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return function(*args)


def _check(got: float, want: float, exact: bool) -> None:
    if exact:
        assert got == want or (np.isnan(got) and np.isnan(want)), (got, want)
    else:
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12, nan_ok=True)


def _compare(a: np.ndarray, b: np.ndarray, spacing, tolerance: float, percentile: float, exact: bool) -> None:
    sd = _reference(a, b, spacing)
    both_empty = not a.any() and not b.any()
    one_empty = a.any() != b.any()
    kw = {"spacing": spacing, "method": "surfel"}
    for p in (95, 100, percentile):
        got = hausdorff_distance(a, b, percentile=p, **kw)
        if both_empty:  # DeepMind: inf; turbometrics: nan, whatever the method
            assert np.isnan(got) and deepmind.compute_robust_hausdorff(sd, p) == np.inf
        else:
            _check(got, deepmind.compute_robust_hausdorff(sd, p), exact)
    if not both_empty:
        largest = max(np.max(sd["distances_gt_to_pred"], initial=-1), np.max(sd["distances_pred_to_gt"], initial=-1))
        _check(hausdorff_distance(a, b, **kw), largest, exact)
    gt_to_pred, pred_to_gt = _quiet(deepmind.compute_average_surface_distance, sd)
    _check(average_surface_distance(a, b, symmetric=False, **kw), pred_to_gt, exact)  # a is the prediction
    _check(average_surface_distance(b, a, symmetric=False, **kw), gt_to_pred, exact)
    symmetric = average_surface_distance(a, b, **kw)
    if one_empty:  # DeepMind's pair holds a nan (0/0); turbometrics: inf, whatever the method
        assert symmetric == np.inf and np.isnan(np.mean([gt_to_pred, pred_to_gt]))
    else:
        _check(symmetric, np.mean([gt_to_pred, pred_to_gt]), exact)
    want = _quiet(deepmind.compute_surface_dice_at_tolerance, sd, tolerance)
    _check(surface_dice(a, b, tolerance=tolerance, **kw), want, exact)


@pytest.mark.parametrize("spacing", [(1.0, 1.0), (0.7, 1.3), (3.0, 0.1)])
def test_contour_lengths_bit_for_bit(spacing):
    from turbometrics.segmentation._surfel import area_table

    want = deepmind.lookup_tables.create_table_neighbour_code_to_contour_length(spacing)
    np.testing.assert_array_equal(area_table(spacing), want)


def test_surfel_triangles_are_deepmind_s():
    """Each code's triangles, derived from the cube (``_marching_cubes``),
    have the area vectors of DeepMind's, as multisets, exactly."""
    from turbometrics.segmentation._marching_cubes import triangle_normals

    ours = triangle_normals()
    assert len(ours) == 256 and ours[0] == ours[255] == ()
    for code, normals in enumerate(deepmind.lookup_tables._NEIGHBOUR_CODE_TO_NORMALS):
        eighths = np.abs(np.array(normals, float)) * 8
        assert (eighths == np.round(eighths)).all()
        theirs = sorted(tuple(int(v) for v in row) for row in eighths if row.any())
        assert sorted(ours[code]) == theirs, code


@pytest.mark.parametrize("spacing", [(1.0, 1.0, 1.0), (0.25, 0.25, 0.25), (4.0, 4.0, 4.0), (2.0**-9,) * 3])
def test_surfel_areas_bit_for_bit_with_one_power_of_two(spacing):
    from turbometrics.segmentation._surfel import area_table

    want = deepmind.lookup_tables.create_table_neighbour_code_to_surface_area(spacing)
    np.testing.assert_array_equal(area_table(spacing), want)


@given(st.one_of(st.tuples(*[DYADIC] * 3), st.tuples(*[st.floats(1e-3, 1e3)] * 3)))
def test_surfel_areas_within_3_ulps(spacing):
    """The same (at most four) terms in another order: each sum is within
    1.5 ulps of the exact one (three roundings of at most half an ulp of the
    total), so the two within 3."""
    from turbometrics.segmentation._surfel import area_table

    want = deepmind.lookup_tables.create_table_neighbour_code_to_surface_area(spacing)
    got = area_table(spacing)
    assert ((got == 0) == (want == 0)).all()
    np.testing.assert_array_max_ulp(got, want, maxulp=3)


@given(mask_pairs(min_dims=2, max_side=10), st.data())
def test_masks_with_dyadic_spacing_bit_for_bit(pair, data):
    a, b = pair
    one_power = st.sampled_from([0.5, 1.0, 2.0]).map(lambda s: (s,) * a.ndim)
    anisotropic = st.lists(DYADIC, min_size=a.ndim, max_size=a.ndim).map(tuple)
    spacing = data.draw(st.one_of(st.none(), one_power, anisotropic))
    tolerance = data.draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.5]))
    _compare(a, b, spacing, tolerance, data.draw(st.floats(0, 100)), exact=_exact(a.ndim, spacing))


@given(mask_pairs(min_dims=2, max_side=10), st.data())
def test_masks_with_any_spacing(pair, data):
    a, b = pair
    spacing = data.draw(spacings(a.ndim))
    _compare(a, b, spacing, data.draw(st.floats(0, 5)), 95, exact=spacing is None)


@given(label_pairs(min_dims=2, max_side=9, max_classes=4), st.data())
def test_label_maps_per_class(maps, data):
    a, b, k = maps
    spacing = data.draw(st.one_of(st.none(), st.lists(DYADIC, min_size=a.ndim, max_size=a.ndim).map(tuple)))
    ignore = data.draw(st.one_of(st.none(), st.integers(0, k)))
    kw = {"spacing": spacing, "method": "surfel", "num_classes": k, "ignore_index": ignore}
    hd95 = hausdorff_distance(a, b, percentile=95, **kw)
    nsd = surface_dice(a, b, tolerance=1.0, **kw)
    for c in range(k):
        if c == ignore:
            assert np.isnan(hd95[c]) and np.isnan(nsd[c])
            continue
        sd = _reference(a == c, b == c, spacing)
        if (a == c).any() or (b == c).any():
            _check(hd95[c], deepmind.compute_robust_hausdorff(sd, 95), _exact(a.ndim, spacing))
        if not np.isnan(nsd[c]):
            _check(nsd[c], _quiet(deepmind.compute_surface_dice_at_tolerance, sd, 1.0), _exact(a.ndim, spacing))


def test_larger_blobs_2d_and_3d():
    """Lines longer than the kernel's short-line search, many surfels."""
    from surface_strategies import blobs

    rng = np.random.default_rng(5)
    for shape, spacing in [((70, 90), (0.5, 1.5)), ((24, 30, 28), (2.0, 1.0, 0.75))]:
        a, b = blobs(rng, shape, 3), blobs(rng, shape, 3)
        while len(np.unique(a)) < 3 or len(np.unique(b)) < 3:  # every class in both, so the values are finite
            a, b = blobs(rng, shape, 3), blobs(rng, shape, 3)
        exact = _exact(len(shape), spacing)
        for c in range(3):
            _compare(a == c, b == c, spacing, 1.0, 95, exact=exact)
        got = hausdorff_distance(a, b, percentile=95, spacing=spacing, method="surfel", num_classes=3)
        want = [deepmind.compute_robust_hausdorff(_reference(a == c, b == c, spacing), 95) for c in range(3)]
        assert np.isfinite(got).all()
        np.testing.assert_allclose(got, want, rtol=0 if exact else 1e-12)


def test_empty_conventions():
    some = np.zeros((6, 7), bool)
    some[1:4, 2:5] = True
    empty = np.zeros_like(some)
    kw = {"method": "surfel"}
    assert np.isnan(hausdorff_distance(empty, empty, **kw))
    assert hausdorff_distance(some, empty, percentile=95, **kw) == np.inf
    assert hausdorff_distance(empty, some, **kw) == np.inf
    assert np.isnan(hausdorff_distance(empty, some, directed=True, **kw))
    assert hausdorff_distance(some, empty, directed=True, **kw) == np.inf
    assert np.isnan(average_surface_distance(empty, empty, **kw))
    assert average_surface_distance(some, empty, **kw) == np.inf
    assert np.isnan(average_surface_distance(empty, some, symmetric=False, **kw))
    assert np.isnan(surface_dice(empty, empty, tolerance=1, **kw))
    assert surface_dice(some, empty, tolerance=1, **kw) == 0.0
    assert surface_dice(some, some, tolerance=0, **kw) == 1.0


def test_integer_masks_are_nonzero_pixels():
    a = np.zeros((5, 6), np.int32)
    a[1:4, 2:5] = 7
    b = np.zeros((5, 6), np.uint16)
    b[0:2, 0:6] = 1
    sd = _reference(a != 0, b != 0, (0.5, 2.0))
    assert hausdorff_distance(a, b, percentile=95, spacing=(0.5, 2.0), method="surfel") == (
        deepmind.compute_robust_hausdorff(sd, 95)
    )


def test_strided_read_only_and_dtypes_as_contiguous():
    rng = np.random.default_rng(6)
    a, b = rng.integers(0, 3, (12, 20)), rng.integers(0, 3, (12, 20))
    contiguous = [np.ascontiguousarray(m[:, ::2]) for m in (a, b)]
    want = hausdorff_distance(*contiguous, num_classes=3, percentile=95, method="surfel")
    for dtype in (np.uint8, np.uint16, np.int32, np.int64):
        x, y = a.astype(dtype)[:, ::2], b.astype(dtype)[:, ::2]
        x.flags.writeable = False
        got = hausdorff_distance(x, y, num_classes=3, percentile=95, method="surfel")
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("function", [average_surface_distance, hausdorff_distance])
def test_unknown_method_is_refused(function):
    with pytest.raises(ValueError, match="method must be one of 'medpy', 'monai', 'surfel'"):
        function(np.ones((2, 2), bool), np.ones((2, 2), bool), method="deepmind")
    with pytest.raises(ValueError, match="2-D or 3-D"):
        function(np.ones(3, bool), np.ones(3, bool), method="surfel")
    with pytest.raises(ValueError, match="method must be one of"):
        surface_dice(np.ones((2, 2), bool), np.ones((2, 2), bool), tolerance=1, method="deepmind")
