"""``turbometrics.segmentation.monai`` against MONAI 1.6's ``monai.metrics``:
``compute_iou``, ``compute_dice`` and ``compute_generalized_dice`` on the
same one-hot (and, for Dice, label) tensors: same shapes and dtypes,
values within float32 rounding (MONAI sums float32 channels), on random and
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
