"""The per-batch ``update`` path of ``turbometrics.torch``'s classes: the
binary target check accepts and refuses what torchmetrics' does (labels
checked by their range first, the unique values only for the error); a
batch is read as logits exactly when a score lies outside [0, 1] (NaN
included); and the classes that add a batch straight into their state
(``_ADDS_AT_ONCE``) are left as they were by a batch that the state
refuses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

torch = pytest.importorskip("torch")

import turbometrics as tm  # noqa: E402
from turbometrics.torch import (  # noqa: E402
    BinaryAUROC,
    BinaryAveragePrecision,
    BinaryCalibrationError,
    MulticlassCalibrationError,
    MulticlassConfusionMatrix,
)

pytestmark = pytest.mark.bits

_TARGET_DTYPES = {"int64": torch.int64, "int32": torch.int32, "int8": torch.int8, "uint8": torch.uint8}


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.sampled_from([-2, -1, 0, 1, 2, 3]), min_size=1, max_size=8),
    dtype=st.sampled_from(sorted(_TARGET_DTYPES)),
    ignore_index=st.sampled_from([None, -1, 2]),
)
def test_binary_target_check_accepts_what_torchmetrics_accepts(values, dtype, ignore_index):
    reference = pytest.importorskip("torchmetrics.classification")
    if dtype == "uint8":  # no negative labels (and no ignore_index torch would wrap)
        values, ignore_index = [abs(v) for v in values], (2 if ignore_index is not None else None)
    target = torch.tensor(values, dtype=_TARGET_DTYPES[dtype])
    preds = torch.linspace(0.1, 0.9, len(values))

    def refusal(cls):
        try:
            cls(ignore_index=ignore_index).update(preds, target)
        except RuntimeError as error:
            return str(error).split(":")[0]
        return None

    assert refusal(BinaryAveragePrecision) == refusal(reference.BinaryAveragePrecision)


def test_bool_targets_pass_the_binary_check():
    preds = torch.tensor([0.2, 0.7, 0.4])
    target = torch.tensor([False, True, True])
    assert BinaryAUROC()(preds, target).item() == tm.roc_auc_score(target.numpy(), preds.numpy())


_SCORES = [-0.0, 0.0, 0.25, 1.0, float(np.nextafter(1.0, 2.0)), -1e-30, -3.0, 40.0]


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.sampled_from(_SCORES), min_size=2, max_size=8),
    dtype=st.sampled_from([torch.float32, torch.float64]),
    seed=st.integers(0, 2**16),
)
def test_a_batch_is_logits_when_a_score_lies_outside_0_1(scores, dtype, seed):
    labels = np.random.default_rng(seed).integers(0, 2, len(scores))
    labels[:2] = [0, 1]
    preds = torch.tensor(scores, dtype=dtype)
    host = preds.numpy()
    inside = bool(np.all((host >= 0) & (host <= 1)))
    expected = host if inside else 1 / (1 + np.exp(-host.astype(np.float64)))
    state = tm.CalibrationState(4, mode="binary").update(labels, expected)
    assert BinaryCalibrationError(n_bins=4)(preds, torch.from_numpy(labels)).item() == state.ece()
    assert BinaryAUROC()(preds, torch.from_numpy(labels)).item() == tm.roc_auc_score(labels, expected)


def test_nan_scores_are_read_as_logits_and_refused():
    metric = BinaryCalibrationError()
    with pytest.raises(ValueError, match="NaN"):
        metric.update(torch.tensor([0.5, float("nan")]), torch.tensor([0, 1]))
    assert metric.states[0].n_samples == 0


@pytest.mark.parametrize(
    ("metric", "good", "refused"),
    [
        (
            BinaryAUROC(validate_args=False),
            (torch.tensor([0.2, 0.7, 0.6]), torch.tensor([0, 1, 0])),
            (torch.tensor([0.3, 0.5]), torch.tensor([0, 2])),  # RankingState: labels not {0, 1}
        ),
        (
            BinaryCalibrationError(n_bins=5, validate_args=False),
            (torch.tensor([0.2, 0.7, 0.6]), torch.tensor([0, 1, 0])),
            (torch.tensor([0.3, 0.5]), torch.tensor([0, 2])),  # CalibrationState: labels not {0, 1}
        ),
        (
            MulticlassCalibrationError(3, n_bins=5),
            (torch.tensor([[0.2, 0.5, 0.3], [0.6, 0.2, 0.2]]), torch.tensor([1, 0])),
            (torch.tensor([[0.2, 0.5, 0.3], [0.6, 0.2, float("nan")]]), torch.tensor([1, 0])),  # NaN
        ),
        (
            MulticlassConfusionMatrix(3, validate_args=False),
            (torch.tensor([0, 2, 1]), torch.tensor([0, 1, 1])),
            (torch.tensor([0, 5]), torch.tensor([0, 1])),  # ConfusionState: 5 is not among its labels
        ),
    ],
)
def test_a_batch_the_state_refuses_leaves_the_metric_as_it_was(metric, good, refused):
    assert type(metric)._ADDS_AT_ONCE
    metric.update(*good)
    before, value = metric.to_bytes(), metric.compute()
    with pytest.raises(ValueError):
        metric.update(*refused)
    assert metric.to_bytes() == before
    assert torch.equal(metric.compute(), value)
