"""``turbometrics.segmentation.monai``'s surface distances against MONAI 1.6.1's
``compute_hausdorff_distance``, ``compute_average_surface_distance`` and
``compute_surface_dice``: one-hot (B, C, spatial) tensors from random and
blob-shaped label maps, 2-D and 3-D, spacing per batch, background, empty
prediction and ground truth, ignore_index; within float32 rounding (the
same float32 tensors where the distances round alike)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

from surface_strategies import blobs, label_pairs, spacings
from turbometrics.segmentation import monai as ours

torch = pytest.importorskip("torch")
metrics = pytest.importorskip("monai.metrics")

# MONAI's (and the drop-ins') UserWarnings on empty classes are checked in one test.
pytestmark = [pytest.mark.bits, pytest.mark.filterwarnings("ignore:the (ground truth|prediction) of class")]


def one_hot(maps: np.ndarray, k: int):
    return torch.from_numpy((maps[:, None] == np.arange(k).reshape((1, k) + (1,) * (maps.ndim - 1))).astype(np.float32))


def assert_close(got, want):
    assert got.dtype == want.dtype == torch.float32 and got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=2e-7, atol=0, equal_nan=True)


def monai(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(metrics, name)(*args, **kwargs)


@st.composite
def batches(draw):
    a, b, k = draw(label_pairs(max_dims=3, max_side=9, max_classes=4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a2, b2 = (blobs(rng, a.shape, k) for _ in range(2))  # the second image
    if a.ndim == 1:
        a, b, a2, b2 = (m[None] for m in (a, b, a2, b2))
    pred, truth = np.stack([a, a2]) % k, np.stack([b, b2]) % k
    if draw(st.booleans()):
        truth[1][truth[1] == k - 1] = 0  # an absent class in the ground truth
    return one_hot(pred, k), one_hot(truth, k), k


@given(batches(), st.data())
def test_hausdorff_against_monai(batch, data):
    p, y, _k = batch
    spacing = data.draw(spacings(p.ndim - 2))
    spacing = None if spacing is None else list(spacing)
    for kw in [
        {},
        {"percentile": 95},
        {"percentile": 50, "directed": True},
        {"include_background": True, "percentile": 95},
        {"ignore_index": 1},
    ]:
        assert_close(
            ours.compute_hausdorff_distance(p, y, spacing=spacing, **kw),
            monai("compute_hausdorff_distance", p, y, spacing=spacing, **kw),
        )


@given(batches(), st.data())
def test_average_surface_distance_against_monai(batch, data):
    p, y, _k = batch
    spacing = data.draw(spacings(p.ndim - 2))
    for kw in [{}, {"symmetric": True}, {"include_background": True, "symmetric": True}]:
        assert_close(
            ours.compute_average_surface_distance(p, y, spacing=spacing, **kw),
            monai("compute_average_surface_distance", p, y, spacing=spacing, **kw),
        )


@given(batches(), st.data())
def test_surface_dice_against_monai(batch, data):
    p, y, k = batch
    if p.ndim == 3:
        return  # MONAI's surface Dice takes 2-D and 3-D images only
    spacing = data.draw(spacings(p.ndim - 2))
    thresholds = data.draw(st.lists(st.sampled_from([0.0, 1.0, 1.5, 2.5]), min_size=k - (k > 1), max_size=k - (k > 1)))
    ignore = data.draw(st.sampled_from([None, 0, 1, 99]))
    got = ours.compute_surface_dice(p, y, thresholds, spacing=spacing, ignore_index=ignore)
    want = monai("compute_surface_dice", p, y, thresholds, spacing=spacing, ignore_index=ignore)
    torch.testing.assert_close(got, want, rtol=0, atol=0, equal_nan=True)


def test_spacing_per_image_and_empty_rules():
    p = torch.zeros((2, 2, 6, 6))
    y = torch.zeros((2, 2, 6, 6))
    p[0, 1, 1:4, 1:3] = 1
    y[0, 1, 2:5, 2:5] = 1
    y[1, 1, 0, 0] = 1  # the prediction of image 1 is empty
    spacing = [[0.5, 2.0], [1.0, 1.0]]
    for name in ["compute_hausdorff_distance", "compute_average_surface_distance"]:
        assert_close(getattr(ours, name)(p, y, spacing=spacing), monai(name, p, y, spacing=spacing))
    got = ours.compute_hausdorff_distance(p, y, include_background=True)
    assert torch.isnan(got[1, 0]) or got[1, 0] == 0  # background: full in both
    assert got[1, 1] == float("inf")


def test_refusals():
    p = torch.zeros((1, 2, 4, 4))
    with pytest.raises(ValueError, match="euclidean"):
        ours.compute_hausdorff_distance(p, p, distance_metric="chessboard")
    with pytest.raises(ValueError, match="use_subvoxels"):
        ours.compute_surface_dice(p, p, [1.0], use_subvoxels=True)
    with pytest.raises(ValueError, match="class thresholds"):
        ours.compute_surface_dice(p, p, [1.0, 2.0])
    with pytest.raises(ValueError, match="same shapes"):
        ours.compute_hausdorff_distance(p, torch.zeros((1, 2, 4, 5)))


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("compute_hausdorff_distance", {}),
        ("compute_average_surface_distance", {"include_background": True}),
        ("compute_average_surface_distance", {"ignore_index": 2}),
        ("compute_surface_dice", {"class_thresholds": [1.0, 1.0]}),
    ],
)
def test_monais_warnings_on_empty_classes(name, kwargs):
    p = torch.zeros((1, 3, 5, 5))
    y = torch.zeros((1, 3, 5, 5))
    p[0, 1, 1:3, 1:3] = 1  # class 2 empty in both, class 1 empty in the ground truth
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        want = getattr(metrics, name)(p, y, **kwargs)
    with warnings.catch_warnings(record=True) as mine:
        warnings.simplefilter("always")
        got = getattr(ours, name)(p, y, **kwargs)
    torch.testing.assert_close(got, want, equal_nan=True)
    assert [str(w.message) for w in mine] == [str(w.message) for w in theirs if "all 0" in str(w.message)]
