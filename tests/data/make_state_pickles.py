"""Write pickles of the four mergeable states, and their metric values.

Run once with turbometrics 0.1.0 (``python tests/data/make_state_pickles.py``):
it writes ``state_pickles_0_1_0/<name>.pkl`` and ``expected.json`` (the
metrics of each state as that version computed them), which
``tests/states/test_state_pickles.py`` loads to check that states pickled by 0.1.0
still load and give the same numbers. Do not regenerate them with a later
version: they are the old format.

``python tests/data/make_state_pickles.py pre_restructure`` wrote
``state_pickles_pre_restructure/`` the same way with the code just before
issue 13 moved the private modules into area subpackages: the same states,
plus coco's DetectionState, a gaussian_kde and the public result tuples,
whose pickles name the modules of that time.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

import turbometrics as tm

HERE = Path(__file__).parent / "state_pickles_0_1_0"


def _ranking(state: tm.RankingState) -> dict[str, Any]:
    if state._samples == 0:
        return {}
    fpr, tpr, thresholds = state.roc_curve()
    return {
        "roc_auc": state.roc_auc(),
        "average_precision": state.average_precision(),
        "roc_curve": [fpr.tolist(), tpr.tolist(), thresholds.tolist()],
    }


def _binned(state: tm.BinnedRankingState) -> dict[str, Any]:
    return {"roc_auc": list(state.roc_auc()), "average_precision": list(state.average_precision())}


def _confusion(state: tm.ConfusionState) -> dict[str, Any]:
    if state.n_samples == 0:
        return {}
    values = {
        "accuracy": state.accuracy(),
        "f1_macro": state.f1(average="macro"),
        "confusion": state.multilabel_confusion_matrix().tolist(),
    }
    if state._layout == "labels":
        values["confusion"] = state.confusion_matrix().tolist()
        values["mcc"] = state.matthews_corrcoef()
    else:
        values["f1_samples"] = state.f1(average="samples")
    return values


def _calibration(state: tm.CalibrationState) -> dict[str, Any]:
    if state.n_samples == 0:
        return {}
    return {"ece": state.ece(), "mce": state.mce(), "rmsce": state.rmsce()}


def states() -> dict[str, tuple]:
    """name -> (state, function giving its metrics)."""
    rng = np.random.default_rng(20260101)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 2)
    w = rng.random(300) * 3
    labels = np.array(["cat", "dog", "pig"])[rng.integers(0, 3, 200)]
    predicted = np.array(["cat", "dog", "pig"])[rng.integers(0, 3, 200)]
    y_multi = rng.integers(0, 2, (100, 4))
    p_multi = rng.integers(0, 2, (100, 4))
    proba = rng.dirichlet(np.ones(3), 200)
    classes = rng.integers(0, 3, 200)
    out: dict[str, tuple] = {
        "ranking_unweighted": (
            tm.RankingState.from_arrays(y[:150], s[:150]) + tm.RankingState.from_arrays(y[150:], s[150:]),
            _ranking,
        ),
        "ranking_weighted": (tm.RankingState.from_arrays(y, s, sample_weight=w), _ranking),
        "ranking_string_labels": (
            tm.RankingState.from_arrays(np.where(y == 1, "yes", "no"), s.astype(np.float32), pos_label="yes"),
            _ranking,
        ),
        "ranking_empty": (tm.RankingState(), _ranking),
        "binned_unweighted": (
            tm.BinnedRankingState.from_arrays(y, s, n_bins=64, strategy="uniform", range=(0.0, 1.0)),
            _binned,
        ),
        "binned_weighted": (tm.BinnedRankingState.from_arrays(y, s, sample_weight=w, n_bins=256), _binned),
        "binned_string_labels": (
            tm.BinnedRankingState.from_arrays(np.where(y == 1, "yes", "no"), s, n_bins=32, pos_label="yes"),
            _binned,
        ),
        "confusion_binary": (tm.ConfusionState.from_arrays(y, (s > 0.5).astype(int)), _confusion),
        "confusion_weighted": (tm.ConfusionState.from_arrays(y, (s > 0.5).astype(int), sample_weight=w), _confusion),
        "confusion_string_labels": (
            tm.ConfusionState.from_arrays(labels[:100], predicted[:100])
            + tm.ConfusionState.from_arrays(labels[100:], predicted[100:]),
            _confusion,
        ),
        "confusion_fixed_labels": (
            tm.ConfusionState.from_arrays([0, 1, 2, 2], [0, 2, 2, 1], labels=[0, 1, 2, 3]),
            _confusion,
        ),
        "confusion_multilabel": (tm.ConfusionState.from_arrays(y_multi, p_multi), _confusion),
        "confusion_multilabel_weighted": (
            tm.ConfusionState.from_arrays(y_multi, p_multi, sample_weight=w[:100]),
            _confusion,
        ),
        "confusion_empty": (tm.ConfusionState(), _confusion),
        "calibration_binary": (tm.CalibrationState.from_arrays(y, s, n_bins=10), _calibration),
        "calibration_weighted": (tm.CalibrationState.from_arrays(y, s, n_bins=10, sample_weight=w), _calibration),
        "calibration_top_label": (tm.CalibrationState.from_arrays(classes, proba, n_bins=8), _calibration),
        "calibration_string_labels": (
            tm.CalibrationState.from_arrays(np.where(y == 1, "yes", "no"), s, pos_label="yes"),
            _calibration,
        ),
        "calibration_empty": (tm.CalibrationState(), _calibration),
    }
    return out


PRE_RESTRUCTURE = Path(__file__).parent / "state_pickles_pre_restructure"


def _detection(state: Any) -> dict[str, Any]:
    """The summary stats, and SHA-256 of the accumulated arrays' bytes."""
    result = state.accumulate()
    digests = {
        key: hashlib.sha256(np.ascontiguousarray(result[key]).tobytes()).hexdigest()
        for key in ("precision", "recall", "scores")
    }
    with contextlib.redirect_stdout(io.StringIO()):
        stats = state.summarize().tolist()
    return {"stats": stats, **digests}


def _kde(estimator: Any) -> dict[str, Any]:
    points = np.linspace(-3.0, 3.0, 14).reshape(2, 7)
    return {"density": estimator(points).tolist(), "factor": estimator.factor}


def _fields(value: tuple) -> dict[str, Any]:
    return {key: field.tolist() if isinstance(field, np.ndarray) else field for key, field in value._asdict().items()}


def more_objects() -> dict[str, tuple]:
    """Other pickled public objects: name -> (object, function giving its numbers)."""
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from coco_helpers import build, fixture
    from turbometrics.coco import COCO, DetectionState

    ground_truth = build(COCO, fixture("instances_val2014_100.json"))
    detections = ground_truth.loadRes(fixture("instances_val2014_fakebbox100_results.json"))
    rng = np.random.default_rng(20261126)
    y = rng.integers(0, 2, 200)
    s = np.round(rng.random(200), 2)
    other = np.round(np.clip(s + rng.normal(0, 0.2, 200), 0, 1), 2)
    return {
        "detection_bbox": (DetectionState.from_coco(ground_truth, detections, "bbox"), _detection),
        "gaussian_kde": (tm.gaussian_kde(rng.normal(size=(2, 60))), _kde),
        "confidence_interval": (tm.roc_auc_ci(y, s), _fields),
        "delong_test": (tm.delong_test(y, s, other), _fields),
        "best_threshold": (tm.best_threshold(y, s), _fields),
        "reliability_diagram": (tm.reliability_diagram(y, s, n_bins=5), _fields),
        "binned_value": (tm.BinnedRankingState.from_arrays(y, s).roc_auc(), _fields),
    }


def main(directory: Path = HERE, objects: dict[str, tuple] | None = None) -> None:
    directory.mkdir(exist_ok=True)
    expected = {}
    for name, (state, metrics) in (states() if objects is None else objects).items():
        (directory / f"{name}.pkl").write_bytes(pickle.dumps(state, protocol=4))
        expected[name] = metrics(state)
    (directory / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["pre_restructure"]:
        main(PRE_RESTRUCTURE, {**states(), **more_objects()})
    else:
        main()
