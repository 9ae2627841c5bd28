"""turbometrics.SegmentationEvaluator: equal, bit for bit, to the
turbometrics.segmentation functions on the concatenated label maps, overall
and per group, for any split into batches and merges; the serialisation
round trips and refuses tampered bytes; bad input is refused, leaving the
evaluator unchanged."""

from __future__ import annotations

import itertools
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from turbometrics._registry import SEGMENTATION, by_name
from turbometrics.evaluator import UserMetric

NAMES = list(SEGMENTATION)
GROUPS = ["a", "b", 3, None]


def _same(a, b) -> bool:
    """Equal values, NaN equal to NaN (lists elementwise)."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return (math.isnan(a) and math.isnan(b)) if isinstance(a, float) and math.isnan(a) else a == b


def _expected(name: str, options: dict, y_true, y_pred, **maps) -> object:
    """The function's value on the maps, as the evaluator reports it."""
    value = getattr(tm.segmentation, name)(y_true, y_pred, **maps, **options)
    return value.tolist() if isinstance(value, np.ndarray) else value


_OPTIONS = {
    "average": st.sampled_from(["macro", "micro", "weighted", None]),
    "aggregate": st.sampled_from(["dataset", "image"]),
    "empty": st.sampled_from(["nan", "no_true", 0.0, 1.0]),
    "beta": st.sampled_from([0.5, 2.0]),
    "weight_type": st.sampled_from(["square", "simple", "linear"]),
}


@st.composite
def _metrics(draw) -> dict:
    """Metric names with random options each takes."""
    chosen = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    out = {}
    for name in chosen:
        import inspect

        parameters = inspect.signature(getattr(tm.segmentation, name)).parameters
        keys = draw(st.lists(st.sampled_from([key for key in _OPTIONS if key in parameters]), unique=True))
        if name == "fbeta" and "beta" not in keys:
            keys.append("beta")  # needed, as the function needs it
        out[name] = {key: draw(_OPTIONS[key]) for key in keys}
    return out


@st.composite
def _dataset(draw):
    """Label maps (n images of h x w, labels 0 .. K-1 and an ignored 255),
    their groups, and cuts into batches."""
    k = draw(st.integers(1, 4))
    n = draw(st.integers(1, 7))
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, (n, h, w)).astype(np.uint8)
    y_pred = rng.integers(0, k, (n, h, w)).astype(np.uint8)
    if draw(st.booleans()):  # some ignored pixels, and classes absent from some images
        y_true[rng.random((n, h, w)) < 0.3] = 255
    groups = np.array(draw(st.lists(st.sampled_from(GROUPS), min_size=n, max_size=n)), dtype=object)
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    return k, y_true, y_pred, groups, [0, *cuts, n]


def _merged(evaluators: list, how: list[str]) -> tm.SegmentationEvaluator:
    """Left to right (the images' order kept), each merge in one of the ways evaluators merge."""
    out = evaluators[0]
    for other, way in zip(evaluators[1:], how):
        if way == "merge":
            out = out.merge(other)
        elif way == "add":
            out = out + other
        elif way == "sum":
            out = sum([out, other])
        elif way == "bytes":
            out = tm.SegmentationEvaluator.from_bytes(out.to_bytes()).merge(
                tm.SegmentationEvaluator.from_bytes(other.to_bytes())
            )
        else:
            out = pickle.loads(pickle.dumps(out)) + pickle.loads(pickle.dumps(other, protocol=5))
    return out


@pytest.mark.bits
@settings(max_examples=40, deadline=None)
@given(_dataset(), _metrics(), st.lists(st.sampled_from(["merge", "add", "sum", "bytes", "pickle"]), min_size=4))
def test_equals_the_functions_on_the_concatenated_maps_overall_and_per_group(data, metrics, how):
    k, y_true, y_pred, groups, bounds = data
    evaluators = [
        tm.SegmentationEvaluator(metrics, num_classes=k, ignore_index=255).update(
            y_true[a:b], y_pred[a:b], groups=groups[a:b]
        )
        for a, b in itertools.pairwise(bounds)
    ]
    result = _merged(evaluators, how).compute()
    maps = dict(num_classes=k, ignore_index=255)
    for name, options in metrics.items():
        assert _same(result["overall"][name], _expected(name, options, y_true, y_pred, **maps)), name
    present = [g for g in GROUPS if g is not None and (groups == g).any()]
    assert list(result["by_group"]) == sorted(present, key=lambda g: (isinstance(g, str), str(g)))
    for group in present:
        rows = np.flatnonzero(groups == group)
        for name, options in metrics.items():
            expected = _expected(name, options, y_true[rows], y_pred[rows], **maps)
            assert _same(result["by_group"][group][name], expected), (group, name)


@pytest.mark.bits
@settings(max_examples=25, deadline=None)
@given(_dataset(), st.randoms(use_true_random=False))
def test_any_merge_order_gives_the_same_counts_and_dataset_values(data, random):
    # Dataset aggregation reads integer counts: every order and tree of merges gives the same bits;
    # averages over images are the same to rounding.
    k, y_true, y_pred, groups, bounds = data
    metrics = {"iou": {"average": None}, "dice": None, "pixel_accuracy": None, "recall": {"aggregate": "image"}}
    evaluators = [
        tm.SegmentationEvaluator(metrics, num_classes=k, ignore_index=255).update(
            y_true[a:b], y_pred[a:b], groups=groups[a:b]
        )
        for a, b in itertools.pairwise(bounds)
    ]
    pool = list(evaluators)
    while len(pool) > 1:
        a = pool.pop(random.randrange(len(pool)))
        b = pool.pop(random.randrange(len(pool)))
        pool.append(a + b)
    whole = tm.SegmentationEvaluator(metrics, num_classes=k, ignore_index=255).update(y_true, y_pred, groups=groups)
    got, expected = pool[0].compute(), whole.compute()
    assert np.array_equal(pool[0].state().confusion_matrix(), whole.state().confusion_matrix())
    for where in ("overall", *expected["by_group"]):
        mine = got["overall"] if where == "overall" else got["by_group"][where]
        theirs = expected["overall"] if where == "overall" else expected["by_group"][where]
        for name in ("iou", "dice", "pixel_accuracy"):
            assert _same(mine[name], theirs[name]), (where, name)
        assert mine["recall"] == pytest.approx(theirs["recall"], rel=1e-14, nan_ok=True)


def test_the_maps_options_reach_every_state():
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, (4, 6, 7)).astype(np.uint8)
    y_pred = rng.integers(0, 4, (4, 6, 7)).astype(np.uint8)
    y_true[0, 0, :3] = 255
    maps = dict(num_classes=4, ignore_index=255, reduce_zero_label=True, label_map={2: 3})
    ev = tm.SegmentationEvaluator(["iou", "generalized_dice"], **maps).update(y_true, y_pred, groups=[1, 2, 1, 2])
    result = ev.compute()
    assert result["overall"]["iou"] == tm.segmentation.iou(y_true, y_pred, **maps)
    assert result["by_group"][1]["generalized_dice"] == tm.segmentation.generalized_dice(
        y_true[[0, 2]], y_pred[[0, 2]], **maps
    )
    assert np.array_equal(
        ev.state(2).confusion_matrix(), tm.segmentation.confusion_matrix(y_true[1::2], y_pred[1::2], **maps)
    )
    back = tm.SegmentationEvaluator.from_bytes(ev.to_bytes())
    assert back.label_map == {2: 3} and back.reduce_zero_label and back.compute() == result


def test_torch_maps_and_strided_views():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 3, (3, 8, 10)).astype(np.int64)
    y_pred = rng.integers(0, 3, (3, 8, 10)).astype(np.int64)
    ev = tm.SegmentationEvaluator(["iou"], num_classes=3)
    ev.update(torch.from_numpy(y_true), torch.from_numpy(y_pred)).update(y_true[:, ::2, 1::3], y_pred[:, ::2, 1::3])
    whole = np.concatenate([y_true.reshape(-1), y_true[:, ::2, 1::3].reshape(-1)])
    predicted = np.concatenate([y_pred.reshape(-1), y_pred[:, ::2, 1::3].reshape(-1)])
    assert ev.compute()["overall"]["iou"] == tm.segmentation.iou(whole, predicted, num_classes=3)
    assert ev.n_images == 6


def _correct(state) -> int:
    """The pixels labelled right (a user metric, pickled by reference)."""
    return int(state.confusion_matrix().trace())


def test_defaults_user_metrics_and_pandas():
    pytest.importorskip("pandas")
    y_true = np.array([[[0, 1], [1, 1]], [[2, 2], [0, 1]]], dtype=np.uint8)
    y_pred = np.array([[[0, 1], [0, 1]], [[2, 1], [0, 1]]], dtype=np.uint8)
    ev = tm.SegmentationEvaluator(num_classes=3, by="site").update(y_true, y_pred, groups=["x", "y"])
    assert ev.metrics == tm.evaluator.DEFAULT_SEGMENTATION
    counts = UserMetric("segmentation", _correct)
    custom = tm.SegmentationEvaluator({"iou": {"average": None}, "correct": counts}, num_classes=3)
    custom.update(y_true, y_pred, groups=["x", "y"])
    result = custom.compute()
    assert result["overall"] == {
        "iou": tm.segmentation.iou(y_true, y_pred, num_classes=3, average=None).tolist(),
        "correct": 6.0,
    }
    assert result["gap"] == {"correct": 0.0}  # 3 right in each image
    with pytest.raises(TypeError, match="user-defined metrics"):
        custom.to_bytes()
    again = pickle.loads(pickle.dumps(custom)).compute()  # the function pickled by reference
    assert again["overall"] == result["overall"] and again["by_group"]["y"] == result["by_group"]["y"]
    frame = custom.to_pandas()
    assert list(frame.columns) == ["iou_0", "iou_1", "iou_2", "correct", "n_images"]
    assert list(frame.index) == ["overall", "x", "y"] and frame.index.name == "group"
    assert ev.to_pandas().index.name == "site"
    with pytest.raises(ValueError, match="no 'segmentation' state"):
        tm.Evaluator({"mine": counts})


def test_a_groups_undefined_metric_is_nan_with_a_warning():
    y_true = np.array([[[0, 0]], [[1, 1]]], dtype=np.uint8)
    failing = UserMetric("segmentation", lambda state: 1 / int(state.confusion_matrix()[1, 1] > 0))
    ev = tm.SegmentationEvaluator({"odd": failing}, num_classes=2).update(y_true, y_true, groups=["a", "b"])
    with pytest.warns(UserWarning, match="group a: odd: division by zero"):
        result = ev.compute()
    assert math.isnan(result["by_group"]["a"]["odd"]) and result["by_group"]["b"]["odd"] == 1.0
    with pytest.raises(ValueError, match="odd: division by zero"):
        tm.SegmentationEvaluator({"odd": failing}, num_classes=2).update(y_true[:1], y_true[:1]).compute()


@pytest.mark.parametrize(
    ("metrics", "error", "match"),
    [
        (["iou", "bogus"], ValueError, "unknown segmentation metric 'bogus'"),
        (["roc_auc"], ValueError, r"a metric of scores: turbometrics.Evaluator"),
        ("iou", TypeError, r"write \['iou'\]"),
        ([], ValueError, "metrics is empty"),
        ([3], TypeError, "metric names must be str"),
        ({"iou": {"beta": 2.0}}, ValueError, "metric 'iou' has no option 'beta'"),
        (["fbeta"], ValueError, "metric 'fbeta' needs the option 'beta', as fbeta"),
        ({"iou": {"average": "samples"}}, tm.InvalidParameterError, "'average' parameter of iou"),
        ({"dice": {"empty": 2.0}}, tm.InvalidParameterError, "'empty' parameter of dice"),
        ({"iou": {"aggregate": "none"}}, ValueError, "a value per image"),
        ({"iou": [1]}, TypeError, "options must be a dict"),
        ({"mine": UserMetric("confusion", len)}, ValueError, "one state, 'segmentation'"),
    ],
)
def test_bad_metrics_are_refused(metrics, error, match):
    with pytest.raises(error, match=match):
        tm.SegmentationEvaluator(metrics, num_classes=3)


def test_bad_parameters_are_refused():
    with pytest.raises(tm.InvalidParameterError, match="num_classes"):
        tm.SegmentationEvaluator(num_classes=0)
    with pytest.raises(tm.InvalidParameterError, match="ignore_index"):
        tm.SegmentationEvaluator(num_classes=2, ignore_index=1.5)
    with pytest.raises(tm.InvalidParameterError, match="by"):
        tm.SegmentationEvaluator(num_classes=2, by=3)
    with pytest.raises(ValueError, match="n_threads"):
        tm.SegmentationEvaluator(num_classes=2, n_threads=0)


def test_bad_batches_are_refused_and_leave_the_evaluator_unchanged():
    y = np.zeros((2, 3, 3), np.uint8)
    ev = tm.SegmentationEvaluator(["iou"], num_classes=3).update(y, y, groups=["a", "b"])
    before = ev.to_bytes()
    bad = y.copy()
    bad[1, 2, 0] = 7
    for args, kwargs, error, match in (
        ((y[0, 0], y[0, 0]), {}, ValueError, "first axis is the image"),
        ((y, y[:1]), {}, ValueError, "different shapes"),
        ((y.astype(float), y), {}, TypeError, "integer labels"),
        ((bad, y), {"groups": ["a", "b"]}, ValueError, r"label 7 at index \(1, 2, 0\)"),  # the batch's index
        ((bad, y), {}, ValueError, r"label 7 at index \(1, 2, 0\)"),
        ((y[:0], y[:0, :2]), {"groups": []}, ValueError, "different shapes"),
        ((y, y), {"groups": ["a"]}, ValueError, "one label per image: 1 labels for 2 images"),
        ((y, y), {"groups": [{"a"}, "b"]}, TypeError, "text, numbers or booleans"),
    ):
        with pytest.raises(error, match=match):
            ev.update(*args, **kwargs)
        assert ev.to_bytes() == before
    with pytest.raises(ValueError, match="no images"):
        tm.SegmentationEvaluator(num_classes=2).compute()


def test_mismatched_merges_are_refused():
    y = np.zeros((1, 2, 2), np.uint8)
    ev = tm.SegmentationEvaluator(["iou"], num_classes=3).update(y, y)
    for other, match in (
        (tm.SegmentationEvaluator(["iou"], num_classes=4), "num_classes"),
        (tm.SegmentationEvaluator(["dice"], num_classes=3), "metrics"),
        (tm.SegmentationEvaluator({"iou": {"average": None}}, num_classes=3), "options"),
        (tm.SegmentationEvaluator(["iou"], num_classes=3, ignore_index=255), "ignore_index"),
        (tm.SegmentationEvaluator(["iou"], num_classes=3, label_map={1: 2}), "label_map"),
    ):
        with pytest.raises(ValueError, match=match):
            ev.merge(other)
    with pytest.raises(TypeError, match="cannot merge"):
        ev.merge(tm.Evaluator())
    with pytest.raises(TypeError):
        ev + 1
    assert (ev + ev).n_images == 2 and ev.merge(ev).n_images == 2


def _tampered(ev: tm.SegmentationEvaluator, records=None, **changes) -> bytes:
    """The evaluator's bytes with fields replaced and, per ``records``
    entry ``index: {field: value}``, fields of one part's state."""
    from turbometrics._common.columns import column_names, columns, records as read_records
    from turbometrics._common.serial import dump_state, load_state

    name = "SegmentationEvaluator"
    fields, arrays = load_state(ev.to_bytes(), name, ev._VERSION)
    parts = {**fields, **arrays}
    for index, values in (records or {}).items():
        rows = read_records(parts, "state.", column_names(parts, "state."), len(ev.groups) + 1)
        rows[index].update(values)
        parts = {key: value for key, value in parts.items() if not key.startswith("state.")}
        parts.update(columns(rows, "state."))
    parts.update(changes)
    arrays = {key: value for key, value in parts.items() if isinstance(value, np.ndarray)}
    fields = {key: value for key, value in parts.items() if key not in arrays}
    return dump_state(name, ev._VERSION, fields, arrays)


def test_bytes_round_trip_and_tampered_bytes_are_refused():
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 3, (5, 4, 4)).astype(np.uint8)
    y_pred = rng.integers(0, 3, (5, 4, 4)).astype(np.uint8)
    ev = tm.SegmentationEvaluator({"iou": {"aggregate": "image"}, "dice": None}, num_classes=3, by="g")
    ev.update(y_true, y_pred, groups=["a", "b", None, "a", 2.5])
    data = ev.to_bytes()
    assert data == ev.to_bytes()
    back = tm.SegmentationEvaluator.from_bytes(data)
    assert back.compute() == ev.compute() and back.groups == [2.5, "a", "b"] and back.by == "g"
    assert back.n_images_by_group == {2.5: 1, "a": 2, "b": 1} and back.n_images == 5
    counts = ev.state("a").confusion_matrix()
    sums = ev.state("a").image_sums()
    for records, changes, message in (
        ({}, dict(metrics=["iou", "bogus"]), "unknown segmentation metric"),
        ({}, dict(metrics="iou"), "metrics must be a list"),
        ({}, dict(num_classes=0), "num_classes"),
        ({}, dict(label_map=[[1]]), "label_map"),
        ({}, dict(options={"iou": {"average": "x"}}), "average"),
        ({}, dict(groups=["a", "a", "b"]), "distinct"),
        ({}, dict(groups=["a", "b"]), "n_images must be a list of 3"),
        ({}, dict(groups=[["a"], "b", 1]), "distinct str"),
        ({}, dict(n_images=[-1, 1, 2, 1]), "n_images"),
        ({}, dict(n_images=[5, 1, 3, 1]), "holds 2 images, not 3"),
        ({}, {"bogus": 1}, "unknown fields"),
        ({}, {"state._counts": np.frombuffer(b"junk", np.uint8)}, "state._counts"),
        ({2: dict(_counts=-counts)}, {}, "group 'a'"),
        ({2: dict(num_classes=4)}, {}, "group 'a'"),
        ({2: dict(ignore_index=255)}, {}, "different ignore_index"),
        ({2: dict(_counts=counts * 9, _image_sums=sums * 9)}, {}, "exceed the whole"),
        ({0: dict(per_image=False, _image_sums=np.zeros((0, 3, 3), np.int64))}, {}, "different per_image"),
    ):
        with pytest.raises(ValueError, match=message):
            tm.SegmentationEvaluator.from_bytes(_tampered(ev, records, **changes))
    with pytest.raises(ValueError, match=r"hold a 'SegmentationState'|not a"):
        tm.SegmentationEvaluator.from_bytes(tm.segmentation.SegmentationState(3).to_bytes())
    with pytest.raises(ValueError):
        tm.SegmentationEvaluator.from_bytes(data[: len(data) // 2])


def test_the_vocabulary_is_the_states_metrics_and_registered_functions():
    # One list of names: SegmentationState.score's metrics, each a registered function of turbometrics.segmentation.
    assert set(SEGMENTATION) == set(tm.segmentation.SegmentationState._METRICS)
    for name, entry in SEGMENTATION.items():
        assert entry.name == name and entry.tools == {"segmentation"} and entry.options == {"metric": name}
        assert by_name(entry.function).function is getattr(tm.segmentation, name)
