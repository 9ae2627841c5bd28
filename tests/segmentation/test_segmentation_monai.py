"""``turbometrics.segmentation.monai`` against MONAI 1.6's ``monai.metrics``:
``compute_iou``, ``compute_dice`` and ``compute_generalized_dice`` on the
same one-hot (and, for Dice, label) tensors: same shapes and dtypes,
values within float32 rounding (MONAI sums float32 channels);
``get_confusion_matrix`` bit for bit (``torch.equal``); on random and
blob-shaped maps, 2-D and 3-D, absent classes, empty predictions and ground
truth, one class, one image, ``include_background``, ``ignore_empty`` and
``ignore_index`` (a channel, or a sentinel for voxels with no channel)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from segmentation_strategies import map_pairs

torch = pytest.importorskip("torch")
metrics = pytest.importorskip("monai.metrics")

from turbometrics.segmentation import monai as ours  # noqa: E402

pytestmark = pytest.mark.bits


def same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    torch.testing.assert_close(got, expected, rtol=2e-6, atol=1e-7, equal_nan=True)


def one_hot(labels, k, dtype=torch.float32):
    """(B, K, ...) channels of (B, ...) labels; 255 (ignored) sets none."""
    return torch.from_numpy(labels[:, None] == np.arange(k).reshape((1, k) + (1,) * (labels.ndim - 1))).to(dtype)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


IGNORE = st.sampled_from([None, 0, 1, 255, -1])


@given(map_pairs(), st.booleans(), st.booleans(), IGNORE)
@settings(max_examples=80, deadline=None)
def test_compute_iou(pair, include_background, ignore_empty, ignore_index):
    y_true, y_pred, k, _ = pair
    y, y_pred_t = one_hot(y_true, k), one_hot(y_pred, k)
    kwargs = dict(include_background=include_background, ignore_empty=ignore_empty, ignore_index=ignore_index)
    same(ours.compute_iou(y_pred_t, y, **kwargs), quiet(metrics.compute_iou, y_pred_t, y, **kwargs))


@given(map_pairs(), st.booleans(), st.booleans(), IGNORE, st.sampled_from(["one-hot", "labels", "label y"]))
@settings(max_examples=100, deadline=None)
def test_compute_dice(pair, include_background, ignore_empty, ignore_index, form):
    y_true, y_pred, k, _ = pair
    kwargs = dict(include_background=include_background, ignore_empty=ignore_empty, ignore_index=ignore_index)
    if form == "one-hot":
        y, y_pred_t = one_hot(y_true, k), one_hot(y_pred, k)
    elif form == "labels":
        y, y_pred_t = torch.from_numpy(y_true[:, None]), torch.from_numpy(y_pred[:, None])
        kwargs["num_classes"] = k
    else:
        y, y_pred_t = torch.from_numpy(y_true[:, None]).float(), one_hot(y_pred, k)
    same(ours.compute_dice(y_pred_t, y, **kwargs), quiet(metrics.compute_dice, y_pred_t, y, **kwargs))


@given(map_pairs(), st.booleans(), st.sampled_from(["square", "simple", "uniform"]), st.booleans(), IGNORE)
@settings(max_examples=80, deadline=None)
def test_compute_generalized_dice(pair, include_background, weight_type, sum_over_classes, ignore_index):
    y_true, y_pred, k, _ = pair
    y, y_pred_t = one_hot(y_true, k), one_hot(y_pred, k)
    kwargs = dict(
        include_background=include_background,
        weight_type=weight_type,
        sum_over_classes=sum_over_classes,
        ignore_index=ignore_index,
    )
    same(
        ours.compute_generalized_dice(y_pred_t, y, **kwargs),
        quiet(metrics.compute_generalized_dice, y_pred_t, y, **kwargs),
    )


@given(map_pairs(), st.booleans(), IGNORE, st.sampled_from(["one-hot", "multi-label"]), st.data())
@settings(max_examples=60, deadline=None)
def test_get_confusion_matrix(pair, include_background, ignore_index, form, data):
    """Exactly one-hot maps (the label path) and maps setting several or no
    channels per voxel (the channel path), in MONAI's input dtypes, the two
    tensors' dtypes mixed; 255 (ignored) voxels set no channel."""
    y_true, y_pred, k, _ = pair
    dtypes = [torch.float32, torch.float64, torch.uint8, torch.int64, torch.bool]
    y_dtype, pred_dtype = data.draw(st.sampled_from(dtypes)), data.draw(st.sampled_from(dtypes))
    y, y_pred_t = one_hot(y_true, k, y_dtype), one_hot(y_pred, k, pred_dtype)
    if form == "multi-label":
        extra = torch.from_numpy(np.random.default_rng(k).random(y.shape) < 0.3)
        y, y_pred_t = (y.bool() ^ extra).to(y_dtype), (y_pred_t.bool() | extra.flip(0)).to(pred_dtype)
    got = ours.get_confusion_matrix(y_pred_t, y, include_background, ignore_index)
    expected = metrics.get_confusion_matrix(y_pred_t, y, include_background, ignore_index)
    assert got.dtype == expected.dtype == torch.float32
    assert torch.equal(got, expected), (got, expected)


@pytest.mark.parametrize("ignore_index", [None, 0, 1, 2, 255, -1])
@pytest.mark.parametrize("include_background", [True, False])
@pytest.mark.parametrize("exact", [True, False])
def test_one_channel_ignore_index_compares_values(include_background, ignore_index, exact):
    """One channel (one class; y exactly one-hot, set everywhere, and the
    prediction too or not: the label path and the channel path): MONAI's
    mask compares the channel's values with ``ignore_index`` as labels, so
    1 masks every voxel (IoU and Dice NaN or 1 as ``ignore_empty`` says)."""
    y = torch.ones((2, 1, 3, 4))
    pred = torch.ones((2, 1, 3, 4))
    if not exact:
        pred[0, 0, :2] = 0
    kwargs = dict(include_background=include_background, ignore_index=ignore_index)
    for ignore_empty in (True, False):
        same(
            ours.compute_iou(pred, y, ignore_empty=ignore_empty, **kwargs),
            quiet(metrics.compute_iou, pred, y, ignore_empty=ignore_empty, **kwargs),
        )
        same(
            ours.compute_dice(pred, y, ignore_empty=ignore_empty, **kwargs),
            quiet(metrics.compute_dice, pred, y, ignore_empty=ignore_empty, **kwargs),
        )
    same(ours.compute_generalized_dice(pred, y, **kwargs), quiet(metrics.compute_generalized_dice, pred, y, **kwargs))
    got = ours.get_confusion_matrix(pred, y, include_background, ignore_index)
    assert torch.equal(got, quiet(metrics.get_confusion_matrix, pred, y, include_background, ignore_index))


def test_get_confusion_matrix_edges_as_monai():
    """No spatial axis, one channel with and without the background
    (MONAI keeps it), strided views, and bool inputs (MONAI's tp is 0
    without a voxel mask: torch adds bools as a logical or)."""
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((3, 4, 6, 6)) < 0.5)
    cases = [
        (x[:, :, 0, 0].float(), x[:, :, 1, 1].float()),
        (x[:, :1].float(), x[:, 1:2].float()),
        (x[:, :, ::2, 1::2].double(), x[:, :, 1::2, ::2].double()),
        (x.transpose(2, 3).float(), x.flip(1).float()),
        (x, x.flip(0)),
    ]
    for y_pred, y in cases:
        for include_background in (True, False):
            for ignore_index in (None, 0, 1, 9):
                got = ours.get_confusion_matrix(y_pred, y, include_background, ignore_index)
                expected = metrics.get_confusion_matrix(y_pred, y, include_background, ignore_index)
                assert torch.equal(got, expected), (y_pred.shape, include_background, ignore_index)
    assert not ours.get_confusion_matrix(x, x)[..., 0].any()
    # one channel of y against a one-hot y_pred: equal shapes once the background is dropped
    assert torch.equal(
        ours.get_confusion_matrix(x[:, :1].float(), x[:, :2].float(), include_background=False),
        metrics.get_confusion_matrix(x[:, :1].float(), x[:, :2].float(), include_background=False),
    )


def test_get_confusion_matrix_float32_arithmetic_past_2_24_voxels():
    """MONAI's negatives ``n = voxels - t`` and ``fp = n - tn`` are float32
    arithmetic on float32-rounded counts: 2**24 + 3 voxels give fp 2, not
    the exact 0."""
    size = 2**24 + 3
    y = torch.ones((1, 1, size), dtype=torch.uint8)
    y[0, 0, -2:] = 0
    got = ours.get_confusion_matrix(y, y)
    assert torch.equal(got, metrics.get_confusion_matrix(y, y))
    assert got[0, 0, 1].item() == 2.0


def test_empty_ground_truth_rules_by_hand():
    y = torch.zeros((1, 2, 2, 2))
    y[:, 0] = 1  # channel 1 empty in y
    y_pred = y.clone()
    assert np.isnan(ours.compute_dice(y_pred, y)[0, 1].item())
    assert ours.compute_dice(y_pred, y, ignore_empty=False)[0, 1].item() == 1.0
    y_pred[0, 1, 0, 0] = 1  # predicted where y is empty: 0 without ignore_empty
    assert ours.compute_iou(y_pred, y, ignore_empty=False)[0, 1].item() == 0.0
    assert np.isnan(ours.compute_iou(y_pred, y)[0, 1].item())


def test_errors():
    x = torch.zeros((1, 2, 2, 2))
    with pytest.raises(ValueError, match="same shapes"):
        ours.compute_iou(x, x[:, :1])
    with pytest.raises(ValueError, match="binarised"):
        ours.compute_iou(x + 0.5, x)
    with pytest.raises(NotImplementedError, match="per_component"):
        ours.compute_dice(x, x, per_component=True)
    with pytest.raises(ValueError, match="Unsupported option"):
        ours.compute_generalized_dice(x, x, weight_type="cubic")
    with pytest.raises(ValueError, match="same shapes"):
        ours.get_confusion_matrix(x, x[:, :, :1])
    with pytest.raises(ValueError, match="same shapes"):
        metrics.get_confusion_matrix(x, x[:, :, :1])
    with pytest.raises(ValueError, match="binarised"):
        ours.get_confusion_matrix(x, x + 2)
