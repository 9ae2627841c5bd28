"""The states' metric methods are also available under the names of the
functions they reproduce (``ConfusionState().f1_score()`` is ``.f1()``)."""

from __future__ import annotations

import numpy as np
import pytest

import turbometrics as tm

CONFUSION_ALIASES = {
    "precision_score": "precision",
    "recall_score": "recall",
    "fbeta_score": "fbeta",
    "f1_score": "f1",
    "jaccard_score": "jaccard",
    "accuracy_score": "accuracy",
    "balanced_accuracy_score": "balanced_accuracy",
    "cohen_kappa_score": "cohen_kappa",
}
RANKING_ALIASES = {"roc_auc_score": "roc_auc", "average_precision_score": "average_precision"}


@pytest.mark.parametrize(
    "state_class, aliases",
    [
        (tm.ConfusionState, CONFUSION_ALIASES),
        (tm.RankingState, RANKING_ALIASES),
        (tm.BinnedRankingState, RANKING_ALIASES),
    ],
)
def test_function_names_are_the_methods(state_class, aliases):
    for alias, method in aliases.items():
        assert getattr(state_class, alias) is getattr(state_class, method), alias


def test_confusion_state_function_names_give_the_functions_results():
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    state = tm.ConfusionState.from_arrays(y_true, y_pred)
    assert state.f1_score(average="macro") == tm.f1_score(y_true, y_pred, average="macro")
    assert state.fbeta_score(beta=2.0, average="weighted") == tm.fbeta_score(
        y_true, y_pred, beta=2.0, average="weighted"
    )
    assert state.accuracy_score() == tm.accuracy_score(y_true, y_pred)
    assert state.cohen_kappa_score(weights="linear") == tm.cohen_kappa_score(y_true, y_pred, weights="linear")
    np.testing.assert_array_equal(state.precision_score(average=None), tm.precision_score(y_true, y_pred, average=None))


def test_ranking_state_function_names_give_the_functions_results():
    rng = np.random.default_rng(4)
    y, s = rng.integers(0, 2, 300), rng.random(300)
    state = tm.RankingState.from_arrays(y, s)
    assert state.roc_auc_score() == tm.roc_auc_score(y, s)
    assert state.roc_auc_score(max_fpr=0.2) == tm.roc_auc_score(y, s, max_fpr=0.2)
    assert state.average_precision_score() == tm.average_precision_score(y, s)
