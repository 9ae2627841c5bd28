"""The segmentation metrics over label maps: hand-computed mmsegmentation
(``IoUMetric.total_area_to_metrics``) and Cityscapes cases, every
aggregation and empty rule against per-image formulas written out here,
and shards of a ``SegmentationState`` equal to the whole maps with ``==``.

mmsegmentation cannot be installed here (its mmcv pin has no release): its
rules are reproduced from mmseg/evaluation/metrics/iou_metric.py (1.x):
``intersect_and_union`` counts the areas of each image (pixels whose label
is ``ignore_index`` dropped), ``compute_metrics`` sums them over the
dataset, and ``total_area_to_metrics`` takes ``IoU = I / U``,
``Acc = I / area_label``, ``Dice = 2 I / (area_pred + area_label)``,
``Precision = I / area_pred``, ``Recall = I / area_label``,
``Fscore = (1 + beta^2) P R / (beta^2 P + R)``, ``aAcc = sum I / sum
area_label``; classes with a zero denominator are NaN, and the summary is
``np.nanmean`` over the classes.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from segmentation_strategies import map_pairs
from turbometrics import segmentation
from turbometrics.segmentation import SegmentationState

pytestmark = pytest.mark.bits

FUNCTIONS = {
    "iou": segmentation.iou,
    "dice": segmentation.dice,
    "precision": segmentation.precision,
    "recall": segmentation.recall,
    "class_accuracy": segmentation.class_accuracy,
}


def areas(y_true, y_pred, k, ignore):
    """mmsegmentation's four areas of one image or a dataset, by numpy."""
    keep = y_true != ignore if ignore is not None else np.ones(y_true.shape, bool)
    t, p = y_true[keep], y_pred[keep]
    intersect = np.bincount(t[t == p], minlength=k)
    return intersect, np.bincount(t, minlength=k), np.bincount(p, minlength=k)


def mmseg_per_class(metric, y_true, y_pred, k, ignore, beta=1.0):
    """total_area_to_metrics, written from its formulas (float64)."""
    i, t, p = (a.astype(np.float64) for a in areas(y_true, y_pred, k, ignore))
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric == "iou":
            return i / (t + p - i)
        if metric == "dice":
            return 2 * i / (t + p)
        if metric == "precision":
            return i / p
        if metric in ("recall", "class_accuracy"):
            return i / t
        precision, recall = i / p, i / t
        return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def test_mmseg_hand_computed_case():
    # 2 images, 3 classes, 255 ignored; areas summed over the dataset
    y_true = np.array([[[0, 0, 1], [1, 2, 255]], [[0, 1, 1], [255, 255, 1]]], dtype=np.uint8)
    y_pred = np.array([[[0, 1, 1], [1, 2, 0]], [[0, 0, 1], [2, 2, 1]]], dtype=np.uint8)
    # areas: intersect [2, 4, 1], label [3, 5, 1], pred [3, 5, 1] -> union [4, 6, 1]
    iou = segmentation.iou(y_true, y_pred, num_classes=3, ignore_index=255, average=None)
    assert iou.tolist() == [2 / 4, 4 / 6, 1.0]
    assert segmentation.iou(y_true, y_pred, num_classes=3, ignore_index=255) == np.mean([2 / 4, 4 / 6, 1.0])
    assert segmentation.dice(y_true, y_pred, num_classes=3, ignore_index=255, average=None).tolist() == [
        4 / 6,
        8 / 10,
        1.0,
    ]
    assert segmentation.class_accuracy(y_true, y_pred, num_classes=3, ignore_index=255, average=None).tolist() == [
        2 / 3,
        4 / 5,
        1.0,
    ]
    assert segmentation.pixel_accuracy(y_true, y_pred, num_classes=3, ignore_index=255) == 7 / 9
    # a class absent from both maps is NaN and left out of the mean (mmseg's nanmean, Cityscapes)
    iou4 = segmentation.iou(y_true, y_pred, num_classes=4, ignore_index=255, average=None)
    assert np.isnan(iou4[3]) and iou4[:3].tolist() == iou.tolist()
    assert segmentation.iou(y_true, y_pred, num_classes=4, ignore_index=255) == np.mean([2 / 4, 4 / 6, 1.0])
    # a class predicted but never true: IoU 0, counted in the mean
    y_pred2 = y_pred.copy()
    y_pred2[0, 0, 0] = 3
    iou4 = segmentation.iou(y_true, y_pred2, num_classes=4, ignore_index=255, average=None)
    assert iou4[3] == 0.0 and iou4[0] == 1 / 4


@given(map_pairs(), st.sampled_from([*FUNCTIONS, "fbeta"]), st.sampled_from([0.5, 1.0, 2.0]))
@settings(max_examples=60, deadline=None)
def test_dataset_level_equals_mmseg(pair, metric, beta):
    y_true, y_pred, k, ignore = pair
    expected = mmseg_per_class(metric, y_true, y_pred, k, ignore, beta)
    if metric == "fbeta":
        got = segmentation.fbeta(y_true, y_pred, beta=beta, num_classes=k, ignore_index=ignore, average=None)
        # mmseg's Fscore from P and R: NaN also where the class is predicted but never true or vice versa,
        # ours is the count form (1 + b^2) tp / (b^2 t + p); they agree wherever both are defined
        defined = ~np.isnan(expected)
        np.testing.assert_allclose(got[defined], expected[defined], rtol=1e-14)
        return
    got = FUNCTIONS[metric](y_true, y_pred, num_classes=k, ignore_index=ignore, average=None)
    np.testing.assert_array_equal(got, expected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(expected)
    got_mean = FUNCTIONS[metric](y_true, y_pred, num_classes=k, ignore_index=ignore)
    assert got_mean == pytest.approx(mean, rel=1e-15, abs=0, nan_ok=True)


def per_image_scores(metric, y_true, y_pred, k, ignore, empty):
    """(n, K) per-image scores written from the definitions: empty "nan",
    "no_true" or a number."""
    rows = []
    for t, p in zip(y_true, y_pred):
        i, a_t, a_p = (x.astype(np.float64) for x in areas(t, p, k, ignore))
        num, den = {"iou": (i, a_t + a_p - i), "dice": (2 * i, a_t + a_p)}[metric]
        row = []
        for n_, d_, true_pixels in zip(num, den, a_t):
            if empty == "no_true" and true_pixels == 0:
                row.append(np.nan)
            elif d_ == 0:
                row.append(np.nan if empty in ("nan", "no_true") else float(empty))
            else:
                row.append(n_ / d_)
        rows.append(row)
    return np.array(rows)


@given(map_pairs(), st.sampled_from(["iou", "dice"]), st.sampled_from(["nan", "no_true", 0.0, 1.0]))
@settings(max_examples=60, deadline=None)
def test_per_image_aggregation_and_empty_rules(pair, metric, empty):
    y_true, y_pred, k, ignore = pair
    function = FUNCTIONS[metric]
    scores = per_image_scores(metric, y_true, y_pred, k, ignore, empty)
    kwargs = dict(num_classes=k, ignore_index=ignore, empty=empty)
    np.testing.assert_array_equal(function(y_true, y_pred, aggregate="none", average=None, **kwargs), scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        per_image = np.nanmean(scores, axis=1)
        expected_mean = np.nanmean(per_image)
        expected_per_class = np.nanmean(scores, axis=0)
    np.testing.assert_allclose(
        function(y_true, y_pred, aggregate="none", **kwargs), per_image, rtol=1e-15, atol=0, equal_nan=True
    )
    got = function(y_true, y_pred, aggregate="image", **kwargs)
    assert got == pytest.approx(expected_mean, rel=1e-14, abs=0, nan_ok=True)
    np.testing.assert_allclose(
        function(y_true, y_pred, aggregate="image", average=None, **kwargs),
        expected_per_class,
        rtol=1e-15,
        atol=0,
        equal_nan=True,
    )


def test_micro_and_weighted_averages():
    y_true = np.array([[0, 0, 0, 1], [1, 2, 2, 2]])
    y_pred = np.array([[0, 0, 1, 1], [1, 2, 0, 2]])
    # tp [2, 2, 2], t [3, 2, 3], p [3, 3, 2]
    assert segmentation.dice(y_true, y_pred, num_classes=3, average="micro") == 12 / 16
    assert segmentation.iou(y_true, y_pred, num_classes=3, average="micro") == 6 / 10
    weighted = segmentation.dice(y_true, y_pred, num_classes=3, average="weighted")
    assert weighted == pytest.approx((3 * 4 / 6 + 2 * 4 / 5 + 3 * 4 / 5) / 8, rel=1e-15)
    assert segmentation.generalized_dice(y_true, y_pred, num_classes=3, weight_type="linear") == 12 / 16
    w = 1 / np.array([9.0, 4.0, 9.0])
    expected = 2 * (w * [2, 2, 2]).sum() / (w * [6, 5, 5]).sum()
    assert segmentation.generalized_dice(y_true, y_pred, num_classes=3) == pytest.approx(expected, rel=1e-15)


def test_one_class_and_one_image():
    y = np.zeros((1, 4, 4), dtype=np.uint8)
    assert segmentation.iou(y, y, num_classes=1) == 1.0
    assert segmentation.iou(y, y, num_classes=1, aggregate="image") == 1.0
    assert segmentation.dice(y, y, num_classes=1, aggregate="none").tolist() == [1.0]
    assert segmentation.pixel_accuracy(y, y, num_classes=1) == 1.0


def test_all_ignored_gives_nan_or_the_empty_value():
    y_true = np.full((2, 3), 255)
    y_pred = np.zeros((2, 3), dtype=np.int64)
    assert np.isnan(segmentation.iou(y_true, y_pred, num_classes=2, ignore_index=255))
    assert segmentation.iou(y_true, y_pred, num_classes=2, ignore_index=255, empty=1.0) == 1.0
    assert np.isnan(segmentation.pixel_accuracy(y_true, y_pred, num_classes=2, ignore_index=255))


@given(map_pairs(), st.lists(st.integers(0, 3), max_size=3))
@settings(max_examples=40, deadline=None)
def test_sharded_state_equals_the_whole_maps(pair, cuts):
    y_true, y_pred, k, ignore = pair
    bounds = [0, *sorted(min(c, len(y_true)) for c in cuts), len(y_true)]
    shards = [
        SegmentationState.from_arrays(y_true[a:b], y_pred[a:b], num_classes=k, ignore_index=ignore, per_image=True)
        for a, b in itertools.pairwise(bounds)
    ]
    state = sum(shards[1:], shards[0])
    for metric in ("iou", "dice", "precision", "recall", "class_accuracy", "pixel_accuracy", "generalized_dice"):
        function = getattr(segmentation, metric)
        for aggregate in ("dataset", "image", "none"):
            expected = function(y_true, y_pred, num_classes=k, ignore_index=ignore, aggregate=aggregate)
            got = state.score(metric, aggregate=aggregate)
            assert np.array_equal(got, expected, equal_nan=True), (metric, aggregate)
    expected = segmentation.fbeta(y_true, y_pred, beta=2.0, num_classes=k, ignore_index=ignore, average=None)
    assert np.array_equal(state.score("fbeta", beta=2.0, average=None), expected, equal_nan=True)
    # from a counts array: the same numbers
    counts = segmentation.confusion_matrix(y_true, y_pred, num_classes=k, ignore_index=ignore, per_image=True)
    from_counts = SegmentationState.from_counts(counts)
    for aggregate in ("dataset", "image", "none"):
        expected = segmentation.dice(y_true, y_pred, num_classes=k, ignore_index=ignore, aggregate=aggregate)
        assert np.array_equal(from_counts.score("dice", aggregate=aggregate), expected, equal_nan=True)
    assert np.array_equal(
        SegmentationState.from_counts(counts.sum(axis=0)).score("iou", average=None),
        segmentation.iou(y_true, y_pred, num_classes=k, ignore_index=ignore, average=None),
        equal_nan=True,
    )


def test_bad_parameters():
    y = np.zeros((2, 3, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="'average' parameter of iou"):
        segmentation.iou(y, y, num_classes=2, average="samples")
    with pytest.raises(ValueError, match="'aggregate' parameter of dice"):
        segmentation.dice(y, y, num_classes=2, aggregate="batch")
    with pytest.raises(ValueError, match="'empty' parameter of iou"):
        segmentation.iou(y, y, num_classes=2, empty="zero")
    with pytest.raises(ValueError, match="'beta' parameter of fbeta"):
        segmentation.fbeta(y, y, beta=0.0, num_classes=2)
    with pytest.raises(ValueError, match="outside"):
        segmentation.iou(y + 2, y, num_classes=2)
    with pytest.raises(ValueError, match="different shapes"):
        segmentation.iou(y, y[:1], num_classes=2)
    with pytest.raises(TypeError, match="integer labels"):
        segmentation.iou(y.astype(float), y, num_classes=2)
    with pytest.raises(ValueError, match=r"per_image=True"):
        SegmentationState.from_arrays(y, y, num_classes=2).score("iou", aggregate="image")
    with pytest.raises(ValueError, match="counts must be"):
        SegmentationState.from_counts(np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="counts must be"):
        SegmentationState.from_counts(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"^counts must be non-negative; got -1\.$"):
        SegmentationState.from_counts(np.array([[1, -1], [0, 2]]))
    with pytest.raises(ValueError, match="metric must be one of"):
        SegmentationState.from_arrays(y, y, num_classes=2).score("hd95")
    with pytest.raises(ValueError, match=r"'empty' parameter of SegmentationState\.score"):
        SegmentationState.from_arrays(y, y, num_classes=2).score("iou", empty="zero")


def test_exact_past_float32_counts():
    """2**24 + 3 pixels of one class: float32 sums (mmseg 1.x's histc, MONAI's
    channel sums) round the class's count; the int64 counts do not."""
    n = 2**24 + 3
    y_true = np.zeros(n, dtype=np.uint8)
    y_pred = y_true.copy()
    y_pred[0] = 1
    expected = (n - 1) / n  # tp = n - 1, true n, predicted n - 1: union n
    assert segmentation.iou(y_true, y_pred, num_classes=2, average=None)[0] == expected
    assert int(np.float32(n)) == n + 1  # what a float32 count holds instead
