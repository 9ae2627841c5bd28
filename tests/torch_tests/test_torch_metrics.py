"""``turbometrics.torch``'s metric classes against scikit-learn with ``==``
(batches split anywhere, ties, float32 and float64, logits), against
torchmetrics 1.9 within its float32 rounding, and their protocol:
``forward``, ``merge_state``, ``reset``, pickling and ``to_bytes``, and the
errors of bad input."""

from __future__ import annotations

import itertools
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

torch = pytest.importorskip("torch")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

import turbometrics as tm  # noqa: E402
from turbometrics.torch import (  # noqa: E402
    BinaryAUROC,
    BinaryAveragePrecision,
    BinaryCalibrationError,
    BinaryPrecisionRecallCurve,
    BinaryROC,
    MulticlassAUROC,
    MulticlassAveragePrecision,
    MulticlassCalibrationError,
    MulticlassConfusionMatrix,
)

pytestmark = pytest.mark.bits

POOL = [0.0, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9, 1.0]


@st.composite
def binary_batches(draw, logits=False):
    """(batches of (scores, labels) tensors, concatenated scores, labels)
    with both classes, scores from a small pool (ties) or anywhere."""
    n = draw(st.integers(2, 40))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    values = st.floats(-60, 60, width=32) if logits else st.one_of(st.sampled_from(POOL), st.floats(0, 1, width=32))
    scores = np.array(draw(st.lists(values, min_size=n, max_size=n)), dtype=dtype)
    labels = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int64)
    labels[draw(st.integers(1, n - 1))] = 1 - labels[0]  # both classes (an index after the first)
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    edges = [0, *cuts, n]
    batches = [(torch.from_numpy(scores[a:b]), torch.from_numpy(labels[a:b])) for a, b in itertools.pairwise(edges)]
    return batches, scores, labels


def sigmoid(x):
    """The logits' transform the classes document (float64, NumPy)."""
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def fed(metric, batches):
    for preds, target in batches:
        metric.update(preds, target)
    return metric


def as_numpy(values):
    return tuple(v.numpy() for v in values) if isinstance(values, tuple) else values.numpy()


@settings(max_examples=40)
@given(binary_batches())
def test_binary_ranking_equals_scikit_learn(data):
    batches, scores, labels = data
    assert fed(BinaryAUROC(), batches).compute().item() == sklearn_metrics.roc_auc_score(labels, scores)
    assert fed(BinaryAUROC(max_fpr=0.5), batches).compute().item() == sklearn_metrics.roc_auc_score(
        labels, scores, max_fpr=0.5
    )
    ap = fed(BinaryAveragePrecision(), batches).compute()
    assert ap.dtype == torch.float64 and ap.item() == sklearn_metrics.average_precision_score(labels, scores)
    for metric, reference in (
        (BinaryROC(), sklearn_metrics.roc_curve),
        (BinaryPrecisionRecallCurve(), sklearn_metrics.precision_recall_curve),
    ):
        got, expected = as_numpy(fed(metric, batches).compute()), reference(labels, scores)
        for a, b in zip(got, expected):
            assert a.dtype == np.float64 and np.array_equal(a.reshape(-1), b.astype(np.float64))  # one point: a scalar


@settings(max_examples=25)
@given(binary_batches(logits=True))
def test_logits_pass_through_the_sigmoid_of_each_batch(data):
    batches, scores, labels = data
    transformed = np.concatenate(
        [sigmoid(p.numpy()) if ((p < 0) | (p > 1)).any() else p.numpy().astype(np.float64) for p, _ in batches]
    )
    assert fed(BinaryAUROC(), batches).compute().item() == sklearn_metrics.roc_auc_score(labels, transformed)
    # normalization=None ranks the logits themselves
    raw = fed(BinaryAUROC(normalization=None), batches).compute().item()
    assert raw == sklearn_metrics.roc_auc_score(labels, scores)


def test_large_logits_tie_after_the_sigmoid_unless_normalization_is_none():
    preds, target = torch.tensor([40.0, 50.0, -3.0]), torch.tensor([0, 1, 0])
    assert BinaryAUROC()(preds, target).item() == 0.75  # sigmoid(40) == sigmoid(50) == 1.0 in float64
    assert BinaryAUROC(normalization=None)(preds, target).item() == 1.0


@st.composite
def multiclass_batches(draw):
    k = draw(st.integers(3, 5))
    n = draw(st.integers(k, 30))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    raw = np.array(draw(st.lists(st.sampled_from([1, 2, 3, 5, 8]), min_size=n * k, max_size=n * k)), dtype=dtype)
    probs = (raw.reshape(n, k) / raw.reshape(n, k).sum(axis=1, keepdims=True)).astype(dtype)
    labels = np.array(
        draw(st.permutations(list(range(k)) + draw(st.lists(st.integers(0, k - 1), min_size=n - k, max_size=n - k))))
    )
    cut = draw(st.integers(0, n))
    batches = [(torch.from_numpy(probs[a:b]), torch.from_numpy(labels[a:b])) for a, b in ((0, cut), (cut, n))]
    return batches, probs, labels, k


@settings(max_examples=25)
@given(multiclass_batches(), st.sampled_from(["macro", "weighted", "none"]))
def test_multiclass_ranking_equals_scikit_learn(data, average):
    batches, probs, labels, k = data
    sk_average = None if average == "none" else average
    got = fed(MulticlassAUROC(k, average=average), batches).compute().numpy()
    expected = sklearn_metrics.roc_auc_score(labels, probs, multi_class="ovr", average=sk_average, labels=range(k))
    assert np.array_equal(got, expected)
    indicator = np.eye(k, dtype=np.int64)[labels]
    got = fed(MulticlassAveragePrecision(k, average=average), batches).compute().numpy()
    assert np.array_equal(got, sklearn_metrics.average_precision_score(indicator, probs, average=sk_average))


@settings(max_examples=25)
@given(multiclass_batches(), st.sampled_from([None, "true", "pred", "all"]))
def test_confusion_matrix_equals_scikit_learn(data, normalize):
    batches, probs, labels, k = data
    got = fed(MulticlassConfusionMatrix(k, normalize=normalize), batches).compute().numpy()
    expected = sklearn_metrics.confusion_matrix(labels, probs.argmax(axis=1), labels=range(k), normalize=normalize)
    assert got.dtype == (np.int64 if normalize is None else np.float64) and np.array_equal(got, expected)


@settings(max_examples=25)
@given(binary_batches(), st.sampled_from(["l1", "l2", "max"]), st.integers(1, 20))
def test_calibration_error_is_the_states_value(data, norm, n_bins):
    batches, scores, labels = data
    state = tm.CalibrationState.from_arrays(labels, scores, n_bins=n_bins)
    method = {"l1": state.ece, "l2": state.rmsce, "max": state.mce}[norm]
    assert fed(BinaryCalibrationError(n_bins, norm), batches).compute().item() == method()


def test_multiclass_calibration_error_is_the_states_top_label_value():
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(4), 300)
    labels = rng.integers(0, 4, 300)
    metric = MulticlassCalibrationError(4, n_bins=10)
    fed(
        metric,
        [
            (torch.from_numpy(probs[:100]), torch.from_numpy(labels[:100])),
            (torch.from_numpy(probs[100:]), torch.from_numpy(labels[100:])),
        ],
    )
    expected = tm.CalibrationState.from_arrays(labels, probs, n_bins=10, mode="top_label").ece()
    assert metric.compute().item() == expected


def test_against_torchmetrics_within_float32_rounding():
    reference = pytest.importorskip("torchmetrics.classification")
    rng = np.random.default_rng(1)
    scores = torch.from_numpy(rng.random(2000, dtype=np.float32) * 0.98 + 0.01)  # no score of exactly 1.0
    labels = torch.from_numpy(rng.integers(0, 2, 2000))
    probs = torch.from_numpy(rng.dirichlet(np.ones(5), 2000).astype(np.float32))
    classes = torch.from_numpy(rng.integers(0, 5, 2000))
    pairs = [
        (BinaryAUROC(), reference.BinaryAUROC(), scores, labels),
        (BinaryAveragePrecision(), reference.BinaryAveragePrecision(), scores, labels),
        (BinaryCalibrationError(), reference.BinaryCalibrationError(), scores, labels),
        (BinaryCalibrationError(norm="l2"), reference.BinaryCalibrationError(norm="l2"), scores, labels),
        (BinaryCalibrationError(norm="max"), reference.BinaryCalibrationError(norm="max"), scores, labels),
        (MulticlassAUROC(5), reference.MulticlassAUROC(5), probs, classes),
        (MulticlassAUROC(5, average="none"), reference.MulticlassAUROC(5, average="none"), probs, classes),
        (MulticlassAveragePrecision(5), reference.MulticlassAveragePrecision(5), probs, classes),
        (MulticlassCalibrationError(5), reference.MulticlassCalibrationError(5), probs, classes),
        (
            MulticlassConfusionMatrix(5, normalize="true"),
            reference.MulticlassConfusionMatrix(5, normalize="true"),
            probs,
            classes,
        ),
    ]
    for ours, theirs, preds, target in pairs:
        for half in (slice(0, 1000), slice(1000, None)):
            ours.update(preds[half], target[half])
            theirs.update(preds[half], target[half])
        torch.testing.assert_close(ours.compute(), theirs.compute().double(), rtol=1e-5, atol=1e-6)
    assert isinstance(BinaryAUROC(), pytest.importorskip("torchmetrics").Metric)  # what Lightning's self.log checks


def test_forward_returns_the_batch_value_and_accumulates():
    a, b = (
        (torch.tensor([0.1, 0.8, 0.4, 0.3]), torch.tensor([0, 1, 1, 0])),
        (torch.tensor([0.9, 0.2]), torch.tensor([0, 1])),
    )
    metric = BinaryAUROC()
    assert metric(*a).item() == sklearn_metrics.roc_auc_score(a[1], a[0])
    assert metric(*b).item() == sklearn_metrics.roc_auc_score(b[1], b[0])
    assert metric.update_count == 2
    whole = sklearn_metrics.roc_auc_score(torch.cat([a[1], b[1]]), torch.cat([a[0], b[0]]))
    assert metric.compute().item() == whole
    metric.reset()
    with pytest.raises(ValueError, match="no samples"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torchmetrics: compute before update
        metric.compute()


def test_merge_state_pickle_and_bytes():
    rng = np.random.default_rng(2)
    probs, labels = torch.from_numpy(rng.dirichlet(np.ones(3), 60)), torch.from_numpy(rng.integers(0, 3, 60))
    first, second, whole = MulticlassAUROC(3), MulticlassAUROC(3), MulticlassAUROC(3)
    first.update(probs[:25], labels[:25])
    second.update(probs[25:], labels[25:])
    whole.update(probs, labels)
    first.merge_state(second)
    assert first.compute().item() == whole.compute().item()
    for copy in (pickle.loads(pickle.dumps(whole)), MulticlassAUROC.from_bytes(whole.to_bytes())):
        assert copy.compute().item() == whole.compute().item()
        copy.update(probs, labels)  # still a working metric
    assert len(whole.to_bytes()) < 20_000 and len(whole.states) == 3
    with pytest.raises(ValueError, match="different num_classes"):
        MulticlassAUROC(4).merge_state(whole)
    with pytest.raises(ValueError, match="Expected incoming state to be an instance of MulticlassAUROC"):
        whole.merge_state(BinaryAUROC())
    with pytest.raises(ValueError, match="different num_classes"):
        MulticlassAUROC(4).merge_state(MulticlassAUROC.from_bytes(whole.to_bytes()))
    with pytest.raises(ValueError, match="MulticlassAUROC"):
        MulticlassAveragePrecision.from_bytes(whole.to_bytes())


def test_state_size_is_the_distinct_scores_not_the_samples():
    metric = BinaryAUROC()
    for _ in range(20):
        metric.update(torch.randint(0, 5, (10_000,)).double() / 4, torch.randint(0, 2, (10_000,)))
    assert len(metric.states[0]) == 5 and len(metric.to_bytes()) < 4_000


def test_tensor_kinds_are_read_as_their_values():
    preds, target = torch.tensor([0.2, 0.7, 0.4, 0.9]), torch.tensor([0, 1, 0, 1])
    expected = BinaryAveragePrecision()(preds, target).item()
    assert BinaryAveragePrecision()(preds.clone().requires_grad_(True), target).item() == expected
    for dtype in (torch.float16, torch.bfloat16):  # widened exactly to float32
        widened = preds.to(dtype).float()
        assert BinaryAveragePrecision()(preds.to(dtype), target).item() == sklearn_metrics.average_precision_score(
            target, widened
        )
    strided = torch.stack([preds, preds], dim=1)[:, 1]
    assert BinaryAveragePrecision()(strided, target).item() == expected


def test_bad_input_raises_clear_errors():
    preds, target = torch.tensor([0.2, 0.7]), torch.tensor([0, 1])
    with pytest.raises(ValueError, match="exact"):
        BinaryAUROC(thresholds=10)
    with pytest.raises(ValueError, match="one device"):
        BinaryAUROC().update(torch.empty(2, device="meta"), target)
    with pytest.raises(ValueError, match="NaN"):
        BinaryAUROC().update(torch.tensor([0.2, float("nan")]), target)
    with pytest.raises(RuntimeError, match="same shape"):
        BinaryAUROC().update(preds, torch.tensor([0, 1, 1]))
    with pytest.raises(RuntimeError, match="Detected the following values in `target`"):
        BinaryAUROC().update(preds, torch.tensor([0, 2]))
    with pytest.raises(ValueError, match="int or long tensor"):
        BinaryAUROC().update(preds, target.float())
    with pytest.raises(TypeError, match=r"torch\.Tensor"):
        BinaryAUROC().update(preds.numpy(), target)
    with pytest.raises(RuntimeError, match="class index"):
        MulticlassAUROC(3).update(torch.full((2, 3), 1 / 3), torch.tensor([0, 3]))
    with pytest.raises(ValueError, match="class 2 has no sample"):
        MulticlassAUROC(3)(torch.full((2, 3), 1 / 3), torch.tensor([0, 1]))
    with pytest.raises(ValueError, match="no samples"):
        BinaryAUROC()(preds[:0], target[:0])
    metric = BinaryAUROC()
    metric.update(preds, target)
    with pytest.raises(ValueError, match="NaN"):
        metric.update(torch.tensor([float("nan")]), torch.tensor([1]))
    assert metric.compute().item() == 1.0  # the refused batch left the metric as it was


def test_ignore_index_leaves_the_samples_out():
    preds, target = torch.tensor([0.2, 0.7, 0.9, 0.1]), torch.tensor([0, 1, -1, -1])
    assert BinaryAUROC(ignore_index=-1)(preds, target).item() == 1.0
    probs = torch.tensor([[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6], [0.6, 0.2, 0.2]])
    matrix = MulticlassConfusionMatrix(3, ignore_index=9)(probs, torch.tensor([0, 1, 2, 9]))
    assert torch.equal(matrix, torch.eye(3, dtype=torch.int64))


def test_in_a_metric_collection_each_metric_keeps_its_own_state():
    torchmetrics = pytest.importorskip("torchmetrics")
    rng = np.random.default_rng(4)
    scores, labels = rng.random(90), rng.integers(0, 2, 90)
    collection = torchmetrics.MetricCollection({"auroc": BinaryAUROC(), "ap": BinaryAveragePrecision()})
    for part in (slice(0, 30), slice(30, None)):
        collection.update(torch.from_numpy(scores[part]), torch.from_numpy(labels[part]))
    values = collection.compute()
    assert values["auroc"].item() == sklearn_metrics.roc_auc_score(labels, scores)
    assert values["ap"].item() == sklearn_metrics.average_precision_score(labels, scores)
