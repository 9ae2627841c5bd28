"""``turbometrics.segmentation.medpy`` against medpy 0.5.2's
``medpy.metric.binary`` (``hd``, ``hd95``, ``assd``, ``asd``): random and
blob-shaped masks of 1 to 3 dimensions, anisotropic spacing, every
connectivity, objects on the border, single pixels; within 1e-12, bit for
bit with unit spacing; the same RuntimeError on empty masks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from surface_strategies import label_pairs, mask_pairs, spacings
from turbometrics.segmentation import hausdorff_distance, medpy as tm_medpy

binary = pytest.importorskip("medpy.metric.binary")

pytestmark = pytest.mark.bits

NAMES = ["hd", "hd95", "assd", "asd"]


@given(mask_pairs(), st.data())
def test_against_medpy(pair, data):
    a, b = pair
    assume(a.any() and b.any())
    spacing = data.draw(spacings(a.ndim))
    connectivity = data.draw(st.integers(1, a.ndim))
    for name in NAMES:
        want = getattr(binary, name)(a, b, voxelspacing=spacing, connectivity=connectivity)
        got = getattr(tm_medpy, name)(a, b, voxelspacing=spacing, connectivity=connectivity)
        assert type(got) is np.float64
        if spacing is None and name != "assd":  # integer squared distances; assd's mean sums in another order
            assert got == want, name
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), name


@given(label_pairs(max_dims=3, max_side=10, max_classes=4), st.data())
def test_label_maps_against_medpy_per_class(maps, data):
    a, b, k = maps
    spacing = data.draw(spacings(a.ndim))
    got = hausdorff_distance(a, b, num_classes=k, percentile=95, spacing=spacing)
    for c in range(k):
        if (a == c).any() and (b == c).any():
            assert got[c] == pytest.approx(binary.hd95(a == c, b == c, voxelspacing=spacing), rel=1e-12, abs=1e-12)


def test_integer_masks_and_scalar_spacing_as_medpy():
    a = np.zeros((5, 6), int)
    a[1:4, 2:5] = 7
    b = np.zeros((5, 6), int)
    b[0:2, 0:6] = 1
    for name in NAMES:
        assert getattr(tm_medpy, name)(a, b, 0.7) == getattr(binary, name)(a, b, 0.7)


def test_empty_masks_raise_medpys_runtime_errors():
    empty, some = np.zeros((3, 3), bool), np.eye(3, dtype=bool)
    for name in NAMES:
        for first, second, which in [(empty, some, "first"), (some, empty, "second"), (empty, empty, "first")]:
            with pytest.raises(RuntimeError, match=f"The {which} supplied array") as ours:
                getattr(tm_medpy, name)(first, second)
            with pytest.raises(RuntimeError) as theirs:
                getattr(binary, name)(first, second)
            assert str(ours.value) == str(theirs.value)
