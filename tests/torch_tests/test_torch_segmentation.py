"""``turbometrics.torch.MeanIoU`` and ``DiceScore`` against torchmetrics
1.9's classes (within float32 rounding: torchmetrics sums float32 scores),
batch by batch, in the index, one-hot (float and integer) and mixed input
formats, and against a brute-force float64 count of the label maps."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

torch = pytest.importorskip("torch")
reference = pytest.importorskip("torchmetrics.segmentation")

from turbometrics.torch import DiceScore, MeanIoU  # noqa: E402

pytestmark = pytest.mark.bits


@st.composite
def map_batches(draw):
    """Batches of (target, preds) label maps (N, H, W), K classes, some absent."""
    k = draw(st.integers(2, 4))
    n_batches = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    present = draw(st.integers(1, k))
    sizes = [draw(st.integers(1, 3)) for _ in range(n_batches)]
    return k, [tuple(torch.from_numpy(rng.integers(0, present, (n, 5, 4))) for _ in range(2)) for n in sizes]


def encoded(labels, k, kind):
    if kind == "int":
        return torch.nn.functional.one_hot(labels, k).movedim(-1, 1)
    scores = torch.rand((labels.shape[0], k, *labels.shape[1:]), dtype=torch.float64) * 0.5
    return scores.scatter_(1, labels.unsqueeze(1), 0.9)  # argmax is the label


def close(ours, theirs):
    torch.testing.assert_close(ours, theirs.double(), rtol=2e-6, atol=1e-6, equal_nan=True)


@settings(max_examples=30)
@given(map_batches(), st.sampled_from(["index", "one-hot-int", "one-hot-float", "mixed"]), st.booleans(), st.booleans())
def test_against_torchmetrics(data, input_format, include_background, per_class):
    k, batches = data
    fmt = "one-hot" if input_format.startswith("one-hot") else input_format
    kind = "float" if input_format in ("one-hot-float", "mixed") else "int"
    args = {"num_classes": k, "include_background": include_background, "input_format": fmt}
    pairs = [
        (MeanIoU(per_class=per_class, **args), reference.MeanIoU(per_class=per_class, **args)),
        *[
            (
                DiceScore(average=average, aggregation_level=level, **args),
                reference.DiceScore(average=average, aggregation_level=level, **args),
            )
            for average in ("macro", "weighted", "none")
            for level in ("samplewise", "global")
        ],
    ]
    for target, preds in batches:
        if fmt == "one-hot":
            target, preds = encoded(target, k, kind), encoded(preds, k, kind)
        elif fmt == "mixed":
            preds = encoded(preds, k, kind)
        for ours, theirs in pairs:
            close(ours(preds, target), theirs(preds, target))
    for ours, theirs in pairs:
        close(ours.compute(), theirs.compute())


def test_mean_iou_is_the_mean_of_exact_per_image_ious():
    rng = np.random.default_rng(5)
    target, preds = rng.integers(0, 3, (6, 8, 8)), rng.integers(0, 3, (6, 8, 8))
    metric = MeanIoU(num_classes=3, per_class=True, input_format="index")
    metric.update(torch.from_numpy(preds[:2]), torch.from_numpy(target[:2]))
    metric.update(torch.from_numpy(preds[2:]), torch.from_numpy(target[2:]))
    tp = np.array([[((t == c) & (p == c)).sum() for c in range(3)] for t, p in zip(target, preds)])
    union = np.array([[((t == c) | (p == c)).sum() for c in range(3)] for t, p in zip(target, preds)])
    np.testing.assert_allclose(metric.compute().numpy(), (tp / union).mean(axis=0), rtol=1e-15)
    assert len(metric.states[0].image_sums()) == 6


def test_errors_and_num_classes_from_the_first_batch():
    one_hot = torch.nn.functional.one_hot(torch.tensor([[[0, 1], [2, 1]]]), 3).movedim(-1, 1)
    metric = MeanIoU()
    metric.update(one_hot, one_hot)
    assert metric.num_classes == 3 and metric.compute().item() == 1.0
    several = one_hot.clone()
    several[0, :, 0, 0] = 1
    with pytest.raises(ValueError, match="none or several classes"):
        MeanIoU(num_classes=3).update(several, one_hot)
    with pytest.raises(ValueError, match="`num_classes` must be provided"):
        MeanIoU(input_format="index").update(
            torch.zeros(1, 2, 2, dtype=torch.long), torch.zeros(1, 2, 2, dtype=torch.long)
        )
    with pytest.raises(ValueError, match="no images"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        DiceScore(num_classes=2).compute()
    with pytest.warns(UserWarning, match="average=micro"):
        DiceScore(num_classes=2, average="micro")
