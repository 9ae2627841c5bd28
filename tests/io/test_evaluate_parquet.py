"""evaluate_parquet: a file of small row groups streamed through the states
gives the in-memory functions' results on the whole columns."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

import turbometrics as tm

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 200_000
ROW_GROUP = 10_000
CONFUSION = [
    "accuracy",
    "balanced_accuracy",
    "precision",
    "recall",
    "f1",
    "jaccard",
    "matthews_corrcoef",
    "cohen_kappa",
    "confusion_matrix",
]
CALIBRATION = ["ece", "mce", "rmsce", "reliability_diagram"]
RANKING = ["roc_auc", "average_precision", "roc_curve", "precision_recall_curve", "best_threshold"]
needs_ranking = pytest.mark.skipif(not hasattr(tm, "RankingState"), reason="RankingState not merged yet")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(11)
    score = np.round(rng.random(N), 3)  # ties
    label = (rng.random(N) < score).astype(np.int64)
    weight = rng.random(N) * 2
    path = tmp_path_factory.mktemp("parquet") / "scores.parquet"
    table = pa.table(
        {
            "label": label,
            "score": score,
            "weight": weight,
            "name": np.where(label == 1, "spam", "ham"),
            "predicted": (score >= 0.3).astype(np.int64),
        }
    )
    pq.write_table(table, path, row_group_size=ROW_GROUP)
    assert pq.ParquetFile(path).metadata.num_row_groups == N // ROW_GROUP
    return path, label, score, weight


def _in_memory(name, label, score, weight, prediction=None):
    kw = {} if weight is None else {"sample_weight": weight}
    predicted = (score >= 0.5).astype(np.int8) if prediction is None else prediction
    confusion = {
        "accuracy": tm.accuracy_score,
        "balanced_accuracy": tm.balanced_accuracy_score,
        "precision": tm.precision_score,
        "recall": tm.recall_score,
        "f1": tm.f1_score,
        "jaccard": tm.jaccard_score,
        "matthews_corrcoef": tm.matthews_corrcoef,
        "cohen_kappa": tm.cohen_kappa_score,
        "confusion_matrix": tm.confusion_matrix,
    }
    if name in confusion:
        return confusion[name](label, predicted, **kw)
    norms = {"ece": "l1", "mce": "max", "rmsce": "l2"}
    if name in norms:
        return tm.calibration_error(label, score, norm=norms[name], **kw)
    if name == "reliability_diagram":
        return tm.reliability_diagram(label, score, **kw)
    ranking = {
        "roc_auc": tm.roc_auc_score,
        "average_precision": tm.average_precision_score,
        "roc_curve": tm.roc_curve,
        "precision_recall_curve": tm.precision_recall_curve,
        "best_threshold": tm.best_threshold,
    }
    return ranking[name](label, score, **kw)


def _assert_equal(expected, got, exact):
    if isinstance(expected, tuple):
        assert len(expected) == len(got)
        for a, b in zip(expected, got):
            _assert_equal(a, b, exact)
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        if exact:
            np.testing.assert_array_equal(got, expected)
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, equal_nan=True)
    elif exact:
        assert got == expected, (got, expected)
    else:
        assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-15), (got, expected)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("batch_rows", [None, 7777])
def test_confusion_and_calibration_equal_in_memory(data, weighted, batch_rows):
    path, label, score, weight = data
    got = tm.evaluate_parquet(
        path,
        label="label",
        score="score",
        weight="weight" if weighted else None,
        metrics=CONFUSION + CALIBRATION,
        batch_rows=batch_rows,
    )
    assert list(got) == CONFUSION + CALIBRATION
    for name in CONFUSION + CALIBRATION:
        expected = _in_memory(name, label, score, weight if weighted else None)
        _assert_equal(expected, got[name], exact=not weighted and name in CONFUSION)


@needs_ranking
@pytest.mark.parametrize("weighted", [False, True])
def test_ranking_equal_in_memory(data, weighted):
    path, label, score, weight = data
    got = tm.evaluate_parquet(
        path, label="label", score="score", weight="weight" if weighted else None, metrics=RANKING
    )
    for name in RANKING:
        expected = _in_memory(name, label, score, weight if weighted else None)
        _assert_equal(expected, got[name], exact=not weighted)


def test_prediction_column_string_labels_and_thread_invariance(data):
    path, label, score, _ = data
    one = tm.evaluate_parquet(
        path, label="label", score="score", prediction="predicted", metrics=["f1", "cohen_kappa"], n_threads=1
    )
    two = tm.evaluate_parquet(
        path, label="label", score="score", prediction="predicted", metrics=["f1", "cohen_kappa"], n_threads=2
    )
    assert one == two
    assert one["f1"] == tm.f1_score(label, (score >= 0.3).astype(np.int64))
    named = tm.evaluate_parquet(path, label="name", score="score", pos_label="spam", metrics=["ece", "accuracy"])
    assert named["accuracy"] == tm.accuracy_score(label, (score >= 0.5).astype(np.int8))
    assert math.isclose(named["ece"], tm.calibration_error(label, score), rel_tol=1e-12)
    with pytest.raises(ValueError, match="labels are not numbers: pass pos_label"):
        tm.evaluate_parquet(path, label="name", score="score", metrics=["accuracy"])


def test_errors(data, tmp_path, monkeypatch):
    path = data[0]
    with pytest.raises(ValueError, match=r"unknown metric\(s\) \[.auc.\]: evaluate_parquet takes roc_auc"):
        tm.evaluate_parquet(path, label="label", score="score", metrics=["auc"])
    with pytest.raises(ValueError, match=r"columns \['nope'\] are not in"):
        tm.evaluate_parquet(path, label="nope", score="score", metrics=["f1"])
    nulls = tmp_path / "nulls.parquet"
    pq.write_table(pa.table({"label": pa.array([0, None, 1]), "score": [0.1, 0.2, 0.9]}), nulls)
    with pytest.raises(ValueError, match="column 'label' holds 1 null value"):
        tm.evaluate_parquet(nulls, label="label", score="score", metrics=["f1"])
    mixed = tmp_path / "mixed.parquet"
    pq.write_table(pa.table({"label": [0, 1, -1, 1], "score": [0.1, 0.2, 0.9, 0.5]}), mixed, row_group_size=2)
    with pytest.raises(ValueError, match="labels hold 0, -1 and 1 across the file"):
        tm.evaluate_parquet(mixed, label="label", score="score", metrics=["f1"])
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(ImportError, match=r"pip install 'turbometrics\[parquet\]'"):
        tm.evaluate_parquet(path, label="label", score="score", metrics=["f1"])


def test_unknown_metric_names_the_accepted_ones():
    # The Evaluator's names that need its exact sums or DeLong's interval are named as such.
    with pytest.raises(ValueError) as raised:
        tm.evaluate_parquet("unused.parquet", label="label", score="score", metrics=["roc_auc_ci", "nope", "log_loss"])
    message = str(raised.value)
    assert message.startswith("unknown metric(s) ['roc_auc_ci', 'nope', 'log_loss']: evaluate_parquet takes roc_auc, ")
    assert message.endswith("('roc_auc_ci', 'log_loss': turbometrics.Evaluator)")
    for name in tm.states.parquet.METRICS:
        assert name in message


def test_the_vocabulary_of_the_evaluator(data):
    # One vocabulary: the Evaluator's names give its values here, and the old spelling
    # matthews_corrcoef is an alias of mcc that keeps its key.
    path, label, score, _ = data
    got = tm.evaluate_parquet(
        path, label="label", score="score", metrics=["mcc", "best_f1", "matthews_corrcoef", "precision"]
    )
    overall = tm.Evaluator(["mcc", "best_f1", "precision"]).update(label, score).compute()["overall"]
    assert got == {**overall, "matthews_corrcoef": overall["mcc"]}
    assert list(got) == ["mcc", "best_f1", "best_f1_threshold", "matthews_corrcoef", "precision"]
