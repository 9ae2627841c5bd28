"""``turbometrics.segmentation.torchmetrics`` against torchmetrics 1.9's
``torchmetrics.functional.segmentation``: same shapes and dtypes, values
within float32 rounding (torchmetrics divides float32 sums; these divide
exact counts in float64), on random and blob-shaped maps, 2-D and 3-D,
absent classes, empty predictions and ground truth, one class, one image,
and the index, one-hot (integer and float) and mixed input formats."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings, strategies as st

from segmentation_strategies import map_pairs, torch_formats as formats

torch = pytest.importorskip("torch")
reference = pytest.importorskip("torchmetrics.functional.segmentation")

from turbometrics.segmentation import torchmetrics as ours  # noqa: E402

pytestmark = pytest.mark.bits


def same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    torch.testing.assert_close(got, expected, rtol=2e-6, atol=1e-7, equal_nan=True)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


FORMATS = st.sampled_from(["index", "one-hot", "one-hot-float", "mixed"])


@given(map_pairs(ignore=False), FORMATS, st.booleans(), st.booleans())
@settings(max_examples=60, deadline=None)
def test_mean_iou(pair, input_format, include_background, per_class):
    y_true, y_pred, k, _ = pair
    preds, target, fmt = formats(y_true, y_pred, k, input_format)
    kwargs = dict(num_classes=k, include_background=include_background, per_class=per_class, input_format=fmt)
    same(ours.mean_iou(preds, target, **kwargs), quiet(reference.mean_iou, preds, target, **kwargs))


@given(
    map_pairs(ignore=False),
    FORMATS,
    st.booleans(),
    st.sampled_from(["micro", "macro", "weighted", "none", None]),
    st.sampled_from(["samplewise", "global"]),
)
@settings(max_examples=80, deadline=None)
def test_dice_score(pair, input_format, include_background, average, aggregation_level):
    y_true, y_pred, k, _ = pair
    preds, target, fmt = formats(y_true, y_pred, k, input_format)
    kwargs = dict(
        num_classes=k,
        include_background=include_background,
        average=average,
        input_format=fmt,
        aggregation_level=aggregation_level,
    )
    same(quiet(ours.dice_score, preds, target, **kwargs), quiet(reference.dice_score, preds, target, **kwargs))


@given(map_pairs(ignore=False), FORMATS, st.booleans(), st.booleans(), st.sampled_from(["square", "simple", "linear"]))
@settings(max_examples=60, deadline=None)
def test_generalized_dice_score(pair, input_format, include_background, per_class, weight_type):
    y_true, y_pred, k, _ = pair
    preds, target, fmt = formats(y_true, y_pred, k, input_format)
    kwargs = dict(
        num_classes=k,
        include_background=include_background,
        per_class=per_class,
        weight_type=weight_type,
        input_format=fmt,
    )
    same(
        ours.generalized_dice_score(preds, target, **kwargs),
        quiet(reference.generalized_dice_score, preds, target, **kwargs),
    )


def test_the_docstring_case_and_a_two_dimensional_index_map():
    preds = torch.tensor([[0, 1], [1, 1]])
    target = torch.tensor([[0, 1], [0, 1]])
    kwargs = dict(num_classes=3, input_format="index")
    same(ours.mean_iou(preds, target, **kwargs), reference.mean_iou(preds, target, **kwargs))
    assert ours.mean_iou(preds, target, per_class=True, **kwargs).tolist()[0][2] == -1.0


def test_errors_as_torchmetrics():
    x = torch.zeros((1, 2, 2), dtype=torch.long)
    with pytest.raises(ValueError, match="`num_classes` must be provided"):
        ours.mean_iou(x, x, input_format="index")
    with pytest.raises(ValueError, match="input_format"):
        ours.dice_score(x, x, num_classes=2, input_format="labels")
    with pytest.raises(ValueError, match="average"):
        ours.dice_score(x, x, num_classes=2, average="samples")
    with pytest.raises(ValueError, match="weight_type"):
        ours.generalized_dice_score(x, x, num_classes=2, weight_type="cubic")
    with pytest.raises(ValueError, match="binarised"):
        ours.mean_iou(x + 2, x, num_classes=2)
