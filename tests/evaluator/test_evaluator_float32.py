"""The Evaluator reads float32 scores in place: the array that reaches the
states is the caller's memory (no float64 copy), and every metric, by
group too, is bit for bit what the float64 widening of the same scores
gives (thresholds at, just below and just above the decision threshold
and the calibration bin edges included), apart from the Brier score and
log loss, which compute float32 in float32 (as before)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import turbometrics as tm
from turbometrics.evaluator._metrics import BINARY_METRICS, MULTICLASS_METRICS
from turbometrics.evaluator._part import Part

# brier and log_loss compute float32 probabilities in float32, as the functions do (before this
# change too): they are not the widening's and are left out of the comparison.
IN_THEIR_DTYPE = {"brier", "log_loss"}


def _edge_scores(rng: np.random.Generator, n: int) -> np.ndarray:
    """float32 probabilities with the values next to 0.5 and to the bins' edges."""
    edges = np.concatenate([np.linspace(0, 1, 16), [0.5, 0.3]]).astype(np.float32)
    near = np.concatenate([np.nextafter(edges, np.float32(0)), edges, np.nextafter(edges, np.float32(1))])
    return np.concatenate([near, rng.random(n - near.size, dtype=np.float32)])


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return (isinstance(a, float) and math.isnan(a) and math.isnan(b)) or a == b


def _results(evaluator: tm.Evaluator, y, scores, groups) -> dict:
    evaluator.update(y[:200], scores[:200], groups=groups[:200]).update(y[200:], scores[200:], groups=groups[200:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the same warnings for both inputs
        return evaluator.compute()


@pytest.mark.bits
def test_binary_float32_results_equal_the_float64_widening():
    rng = np.random.default_rng(0)
    scores = _edge_scores(rng, 600)
    y = rng.integers(0, 2, scores.size)
    groups = rng.integers(0, 3, scores.size)
    metrics = [name for name in BINARY_METRICS if name not in IN_THEIR_DTYPE]
    assert _same(
        _results(tm.Evaluator(metrics, threshold=0.3), y, scores, groups),
        _results(tm.Evaluator(metrics, threshold=0.3), y, scores.astype(np.float64), groups),
    )


@pytest.mark.bits
def test_multiclass_float32_results_equal_the_float64_widening():
    rng = np.random.default_rng(1)
    scores = rng.dirichlet(np.ones(4), 600).astype(np.float32)
    y = rng.integers(0, 4, 600)
    groups = rng.integers(0, 2, 600)
    metrics = [name for name in MULTICLASS_METRICS if name not in IN_THEIR_DTYPE]
    assert _same(
        _results(tm.Evaluator(metrics, classes=4), y, scores, groups),
        _results(tm.Evaluator(metrics, classes=4), y, scores.astype(np.float64), groups),
    )


@pytest.mark.parametrize("classes", [None, 3])
def test_float32_scores_reach_the_states_without_a_copy(monkeypatch, classes):
    rng = np.random.default_rng(2)
    scores = rng.random(100, dtype=np.float32) if classes is None else rng.dirichlet(np.ones(3), 100).astype(np.float32)
    y = rng.integers(0, 2 if classes is None else 3, 100)
    seen = []
    update = Part.update

    def spy(self, y_, score, *args, **kwargs):
        seen.append(score)
        return update(self, y_, score, *args, **kwargs)

    monkeypatch.setattr(Part, "update", spy)
    tm.Evaluator(["roc_auc", "accuracy", "ece"], classes=classes).update(y, scores)
    assert seen and all(s.dtype == np.float32 and np.shares_memory(s, scores) for s in seen)
