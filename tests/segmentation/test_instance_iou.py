"""Cityscapes' instance-level IoU (``instance_iou``, ``InstanceIoUState``):
a hand-computed case, and random instance maps against the rules of
cityscapesScripts 2.3.0's ``evalPixelLevelSemanticLabeling.py`` written out
here as the scripts run them (a mask per instance, Python floats added
image by image and instance by instance, ``getScoreAverage``), with ``==``.

cityscapesScripts itself reads PNG files through a module-level ``args``
object and needs packages the test extra does not hold (pyquaternion,
coloredlogs, appdirs, the ``typing`` backport); the rules below are its
``evaluatePair``, ``getInstanceIouScoreForLabel``,
``getInstanceIouScoreForCategory`` and ``getScoreAverage``.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from turbometrics import segmentation
from turbometrics.segmentation import (
    CITYSCAPES_AVERAGE_INSTANCE_SIZES,
    CITYSCAPES_CATEGORIES,
    CITYSCAPES_IGNORED_CLASSES,
    InstanceIoUState,
    instance_iou,
)

pytestmark = pytest.mark.bits


def _average(scores):
    """cityscapesScripts' getScoreAverage."""
    valid = [score for score in scores.values() if not math.isnan(score)]
    total = 0.0
    for score in valid:
        total += score
    return total / len(valid) if valid else float("nan")


def _reference(images, predictions, k, sizes, ignored, ignore_index=None, categories=None):
    """Per-class iIoU and their average, and per-category iIoU and their
    average, as cityscapesScripts computes them."""
    categories = categories or {}
    category_of = {label: name for name, labels in categories.items() for label in labels}
    scored = [name for name, labels in categories.items() if all(label in sizes for label in labels)]
    confusion = np.zeros((k, k), dtype=np.int64)
    stats = {c: {"tpWeighted": 0.0, "fnWeighted": 0.0} for c in sizes if c not in ignored}
    category_stats = {name: {"tpWeighted": 0.0, "fnWeighted": 0.0} for name in scored}
    for instances, prediction in zip(images, predictions):
        semantic = np.where(instances >= 1000, instances // 1000, instances)
        kept = np.ones(semantic.shape, bool) if ignore_index is None else semantic != ignore_index
        np.add.at(confusion, (semantic[kept], prediction[kept]), 1)
        category_masks = {name: np.isin(prediction, categories[name]) for name in scored}
        for instance in np.unique(instances[instances > 1000]):
            label = int(instance / 1000)
            if label in ignored or label not in stats or label == ignore_index:
                continue
            mask = instances == instance
            size = np.count_nonzero(mask)
            tp = np.count_nonzero(prediction[mask] == label)
            weight = sizes[label] / float(size)
            stats[label]["tpWeighted"] += float(tp) * weight
            stats[label]["fnWeighted"] += float(size - tp) * weight
            category = category_of.get(label)
            if category in category_stats:
                category_tp = np.count_nonzero(np.logical_and(mask, category_masks[category]))
                category_stats[category]["tpWeighted"] += float(category_tp) * weight
                category_stats[category]["fnWeighted"] += float(size - category_tp) * weight
    scores = {}
    for label in range(k):
        if label in ignored or label not in stats:
            scores[label] = float("nan")
            continue
        tp, fn = stats[label]["tpWeighted"], stats[label]["fnWeighted"]
        not_ignored = [other for other in range(k) if other not in ignored and other != label]
        fp = np.longlong(confusion[not_ignored, label].sum())
        denominator = tp + fp + fn
        scores[label] = float("nan") if denominator == 0 else float(tp) / denominator
    category_scores = {}
    for name, labels in categories.items():
        if name not in category_stats:
            category_scores[name] = float("nan")
            continue
        tp, fn = category_stats[name]["tpWeighted"], category_stats[name]["fnWeighted"]
        rows = [other for other in range(k) if other not in ignored and category_of.get(other) != name]
        fp = np.longlong(confusion[rows, :][:, list(labels)].sum())
        denominator = tp + fp + fn
        category_scores[name] = float("nan") if denominator == 0 else float(tp) / denominator
    return (
        np.array(list(scores.values())),
        _average(scores),
        np.array(list(category_scores.values())),
        _average(category_scores),
    )


def test_hand_computed():
    instances = np.array([[1, 1, 2001, 2001], [0, 2002, 2002, 2002]])
    y_pred = np.array([[1, 2, 2, 0], [0, 2, 2, 1]])
    per_class = instance_iou(instances, y_pred, num_classes=3, average_instance_sizes={2: 2.5}, average=None)
    true_positives, false_negatives = 1 * (2.5 / 2) + 2 * (2.5 / 3), 1 * (2.5 / 2) + 1 * (2.5 / 3)
    assert np.isnan(per_class[:2]).all()
    assert per_class[2] == true_positives / (true_positives + 1 + false_negatives)
    assert abs(per_class[2] - 35 / 72) < 1e-15


def test_rules_at_the_edges():
    # id 1000 is class 1 but no instance (cityscapesScripts counts ids above 1000); ignored rows are no
    # false positives; pixels of class 1 without an instance id are not in any instance
    instances = np.array([[1000, 1001, 1001, 1], [0, 0, 3, 3]])
    y_pred = np.array([[1, 1, 0, 1], [1, 1, 1, 3]])
    sizes = {1: 4.0, 3: 1.0}
    per_class = instance_iou(
        instances, y_pred, num_classes=4, average_instance_sizes=sizes, ignored_classes=[0], average=None
    )
    # class 1: instance 1001 (2 pixels, 1 hit, weight 2): iTP 2, iFN 2; FP: (1, 3) of class 3 predicted 1
    assert per_class[1] == 2 / (2 + 1 + 2)
    # class 3: its pixels are in no instance and none is a false positive: 0 / 0, NaN; 0 ignored, 2 no size
    assert np.isnan(per_class[3]) and np.isnan(per_class[0]) and np.isnan(per_class[2])
    expected, *_ = _reference([instances], [y_pred], 4, sizes, {0})
    np.testing.assert_array_equal(per_class, expected)


@st.composite
def _dataset(draw):
    """1-4 images of instance maps over K=6 classes (0 and 1 ignored, 3..5 with
    instances; 3..5 also as plain labels, as Cityscapes' crowd regions), and
    predictions near the truth."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, rows, columns = draw(st.integers(1, 4)), draw(st.integers(1, 9)), draw(st.integers(1, 9))
    classes = rng.integers(0, 6, (n, rows, columns))
    index = rng.integers(0, draw(st.integers(1, 5)), classes.shape)
    in_instance = (classes >= 3) & (rng.random(classes.shape) < draw(st.sampled_from([0.0, 0.7, 1.0])))
    instances = np.where(in_instance, classes * 1000 + index, classes)
    wrong = rng.random(classes.shape) < draw(st.sampled_from([0.0, 0.3, 1.0]))
    prediction = np.where(wrong, rng.integers(0, 6, classes.shape), classes)
    return instances, prediction


_SIZES = {3: 2.7, 4: 10.0 / 3.0, 5: 0.1, 2: 7.0}
# "a" scored (every class has a size, 1 ignored), "b" scored, "c" not (class 0 has no size)
_CATEGORIES = {"a": (1, 2, 3), "b": (4, 5), "c": (0,)}


def _same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


@settings(max_examples=60, deadline=None)
@given(_dataset(), st.sampled_from([None, 2]))
def test_equals_cityscapes_rules(data, ignore_index):
    instances, prediction = data
    sizes = {**_SIZES, 1: 1.5}
    expected, expected_mean, categories, categories_mean = _reference(
        instances, prediction, 6, sizes, {0, 1}, ignore_index, _CATEGORIES
    )
    options = {
        "num_classes": 6,
        "average_instance_sizes": sizes,
        "ignored_classes": (0, 1),
        "ignore_index": ignore_index,
        "categories": _CATEGORIES,
    }
    per_class = instance_iou(instances, prediction, average=None, batch=True, **options)
    np.testing.assert_array_equal(per_class, expected)
    assert _same(instance_iou(instances, prediction, batch=True, **options), expected_mean)
    per_category = instance_iou(instances, prediction, average=None, level="category", batch=True, **options)
    np.testing.assert_array_equal(per_category, categories)
    assert _same(instance_iou(instances, prediction, level="category", batch=True, **options), categories_mean)
    # image by image in a state: the same bits; shards merged: the same counts, sums within rounding
    state = InstanceIoUState(6, **{key: value for key, value in options.items() if key != "num_classes"})
    for image in range(len(instances)):
        state.update(instances[image], prediction[image])
    np.testing.assert_array_equal(state.score(average=None), expected)
    np.testing.assert_array_equal(state.score(average=None, level="category"), categories)
    first = InstanceIoUState(6, **{key: value for key, value in options.items() if key != "num_classes"})
    second = pickle.loads(pickle.dumps(first))
    first.update(instances[:1], prediction[:1], batch=True)
    second.update(instances[1:], prediction[1:], batch=True)
    merged = first + second
    np.testing.assert_array_equal(merged.confusion_matrix(), state.confusion_matrix())
    np.testing.assert_allclose(merged.weighted_sums(), state.weighted_sums(), rtol=1e-14, atol=0)
    np.testing.assert_allclose(merged.score(average=None), expected, rtol=1e-12, atol=0)
    np.testing.assert_allclose(merged.score(average=None, level="category"), categories, rtol=1e-12, atol=0)


def test_cityscapes_constants_and_a_cityscapes_sized_call():
    assert CITYSCAPES_AVERAGE_INSTANCE_SIZES[26] == 12794.0202738185  # car
    assert set(CITYSCAPES_IGNORED_CLASSES) & set(CITYSCAPES_AVERAGE_INSTANCE_SIZES) == {29, 30}  # caravan, trailer
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 34, (64, 128))
    instances = np.where(labels >= 24, labels * 1000 + rng.integers(0, 3, labels.shape), labels)
    prediction = np.where(rng.random(labels.shape) < 0.2, rng.integers(0, 34, labels.shape), labels).astype(np.uint8)
    options = {
        "num_classes": 34,
        "average_instance_sizes": CITYSCAPES_AVERAGE_INSTANCE_SIZES,
        "ignored_classes": CITYSCAPES_IGNORED_CLASSES,
        "categories": CITYSCAPES_CATEGORIES,
    }
    expected, expected_mean, categories, categories_mean = _reference(
        [instances],
        [prediction],
        34,
        CITYSCAPES_AVERAGE_INSTANCE_SIZES,
        set(CITYSCAPES_IGNORED_CLASSES),
        categories=CITYSCAPES_CATEGORIES,
    )
    per_category = instance_iou(instances, prediction, average=None, level="category", **options)
    np.testing.assert_array_equal(per_category, categories)
    assert np.isnan(per_category[:6]).all() and not np.isnan(per_category[6:]).any()  # human and vehicle
    assert instance_iou(instances, prediction, level="category", **options) == categories_mean
    np.testing.assert_array_equal(instance_iou(instances, prediction, average=None, **options), expected)
    for dtype in (np.uint16, np.int32, np.uint64):
        assert instance_iou(instances.astype(dtype), prediction, **options) == expected_mean
    assert instance_iou(instances[:, ::-1], prediction[:, ::-1], **options) == expected_mean  # strided
    assert instance_iou(instances, prediction, n_threads=1, **options) == expected_mean


@pytest.mark.parametrize(
    "change, error, message",
    [
        ({"y_true_instances": np.zeros((2, 2))}, TypeError, "must be a map of integer ids"),
        ({"y_pred": np.zeros((2, 3), int)}, ValueError, "different shapes"),
        ({"y_pred": np.full((2, 2), 3)}, ValueError, "y_pred holds label 3 at index (0, 0)"),
        ({"y_true_instances": np.full((2, 2), 3001)}, ValueError, "y_true holds label 3 at index (0, 0)"),
        ({"y_true_instances": np.full((2, 2), -1)}, ValueError, "holds id -1, outside [0, 4194304)"),
        ({"y_true_instances": np.full((2, 2), 2**22)}, ValueError, "holds id 4194304, outside [0, 4194304)"),
        ({"y_pred": np.array([[0, 0], [0, 4]]), "num_classes": 3}, ValueError, "y_pred holds label 4 at index (1, 1)"),
        # 4 distinct ids, so the relabelled map has 4 rows: a prediction 3 is still refused
        (
            {"y_true_instances": np.array([[0, 2001], [2002, 1]]), "y_pred": np.array([[0, 0], [3, 0]])},
            ValueError,
            "y_pred holds label 3 at index (1, 0), which is outside [0, 3)",
        ),
        ({"average_instance_sizes": {2: 0.0}}, ValueError, "must be a positive finite number"),
        ({"average_instance_sizes": {2: float("nan")}}, ValueError, "must be a positive finite number"),
        ({"average_instance_sizes": {3: 1.0}}, ValueError, "not an int in [0, 3)"),
        ({"ignored_classes": [1.5]}, ValueError, "ignored_classes has 1.5"),
        ({"average_instance_sizes": [1.0]}, ValueError, "must be a dict of int to float"),
        ({"categories": {"a": (1, 2), "b": (2,)}}, ValueError, "class 2 is in two categories"),
        ({"categories": {"a": (3,)}}, ValueError, "categories['a'] has 3, which is not an int class in [0, 3)"),
        ({"categories": {"a": ()}}, ValueError, "categories['a'] is empty"),
        ({"level": "category"}, ValueError, "level='category' needs categories"),
        ({"level": "image"}, ValueError, "The 'level' parameter of instance_iou must be a str among"),
        ({"batch": True, "y_true_instances": np.zeros(2, int), "y_pred": np.zeros(2, int)}, ValueError, "batch=True"),
    ],
)
def test_errors(change, error, message):
    arguments = {
        "y_true_instances": np.array([[0, 2001], [2001, 1]]),
        "y_pred": np.zeros((2, 2), int),
        "num_classes": 3,
        "average_instance_sizes": {2: 1.0},
    }
    with pytest.raises(error) as raised:
        instance_iou(**{**arguments, **change})
    assert message in str(raised.value)


def test_a_failed_update_leaves_the_state_unchanged_and_merges_check_parameters():
    state = InstanceIoUState(3, average_instance_sizes={2: 1.0})
    state.update(np.array([[2001, 1]]), np.array([[2, 1]]))
    before = (state.confusion_matrix(), state.weighted_sums())
    with pytest.raises(ValueError, match="y_pred holds label 7"):
        state.update(np.array([[[2001, 1]], [[2001, 0]]]), np.array([[[2, 1]], [[7, 0]]]), batch=True)
    np.testing.assert_array_equal(state.confusion_matrix(), before[0])
    np.testing.assert_array_equal(state.weighted_sums(), before[1])
    with pytest.raises(ValueError, match="needs a state made with categories"):
        state.score(level="category")
    with pytest.raises(ValueError, match="average_instance_sizes"):
        state + InstanceIoUState(3, average_instance_sizes={2: 2.0})
    with pytest.raises(ValueError, match="categories"):
        state + InstanceIoUState(3, average_instance_sizes={2: 1.0}, categories={"a": (1, 2)})
    with pytest.raises(ValueError, match="num_classes"):
        state + InstanceIoUState(4, average_instance_sizes={2: 1.0})
    assert segmentation.InstanceIoUState is InstanceIoUState
