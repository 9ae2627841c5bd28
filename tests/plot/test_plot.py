"""turbometrics.plot: every plot draws turbometrics' numbers, is labelled,
titled and has a legend, draws on a given Axes, and saves a non-empty PNG;
without matplotlib the functions raise ImportError naming the extra."""

from __future__ import annotations

import contextlib
import io
import sys

import numpy as np
import pytest

import turbometrics as tm
import turbometrics.plot as tp

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _binary(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, np.round(np.clip(0.3 * y + rng.normal(0.35, 0.2, n), 0, 1), 3)


def _check_labelled(ax):
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_legend() is not None and ax.get_legend().get_texts()


def _saved(ax, path):
    ax.figure.savefig(path)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 5000
    return data


def test_roc_draws_roc_curve_and_auc(tmp_path):
    y, s = _binary()
    ax = tp.roc(y, s)
    _check_labelled(ax)
    fpr, tpr, _ = tm.roc_curve(y, s)
    line = ax.get_lines()[0]
    np.testing.assert_array_equal(line.get_xdata(), fpr)
    np.testing.assert_array_equal(line.get_ydata(), tpr)
    assert f"AUC = {tm.roc_auc_score(y, s):.4f}" in ax.get_legend().get_texts()[0].get_text()
    _saved(ax, tmp_path / "roc.png")


def test_precision_recall_draws_curve_ap_and_prevalence(tmp_path):
    y, s = _binary()
    ax = tp.precision_recall(y, s)
    _check_labelled(ax)
    precision, _, _ = tm.precision_recall_curve(y, s)
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), precision)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == [f"AP = {tm.average_precision_score(y, s):.4f} (chance {y.mean():.3f})"]
    _saved(ax, tmp_path / "pr.png")


def test_multiclass_scores_draw_one_curve_per_class():
    rng = np.random.default_rng(1)
    prob = rng.dirichlet([1, 1, 1], 600)
    y = prob.argmax(axis=1)
    ax = tp.roc(np.array(["a", "b", "c"])[y], prob, classes=["a", "b", "c"])
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == [f"class {c}: AUC = {tm.roc_auc_score(y == k, prob[:, k]):.4f}" for k, c in enumerate("abc")] + [
        "chance"
    ]


def test_threshold_curves_mark_the_best_f1_threshold(tmp_path):
    y, s = _binary()
    ax = tp.threshold_curves(y, s)
    _check_labelled(ax)
    best = tm.best_threshold(y, s)
    columns = tm.metrics_at_thresholds(y, s)
    f1 = next(line for line in ax.get_lines() if line.get_label() == "F1")
    np.testing.assert_array_equal(f1.get_ydata(), columns["fbeta"])
    marker = next(line for line in ax.get_lines() if line.get_label().startswith("best F1"))
    assert marker.get_xdata()[0] == best.threshold
    _saved(ax, tmp_path / "thresholds.png")


@pytest.mark.parametrize("weighted", [False, True])
def test_reliability_diagram_with_histogram_panel(tmp_path, weighted):
    y, s = _binary()
    w = np.random.default_rng(3).uniform(0.5, 2.0, y.size) if weighted else None
    ax = tp.reliability_diagram(y, s, n_bins=10, sample_weight=w)
    assert ax.get_title() and ax.get_ylabel() and ax.get_legend() is not None
    diagram = tm.reliability_diagram(y, s, n_bins=10, sample_weight=w)
    ece = tm.calibration_error(y, s, n_bins=10, sample_weight=w)
    assert any(f"ECE = {ece:.4f}" in t.get_text() for t in ax.get_legend().get_texts())
    hist = ax.figure.axes[1]
    heights = np.array([patch.get_height() for patch in hist.patches])
    total = y.size if w is None else w.sum()
    np.testing.assert_allclose(heights, diagram.weight * total, rtol=1e-12)
    assert hist.get_xlabel() == "predicted probability"
    assert hist.get_ylabel() == ("weight" if weighted else "samples")
    _saved(ax, tmp_path / "reliability.png")


def test_given_axes_are_used():
    y, s = _binary()
    fig, axes = plt.subplots(1, 3)
    assert tp.roc(y, s, ax=axes[0]) is axes[0]
    assert tp.precision_recall(y, s, ax=axes[1]) is axes[1]
    assert tp.reliability_diagram(y, s, ax=axes[2]) is axes[2]
    assert len(fig.axes) == 4  # the histogram panel appended below axes[2]


def _coco_eval():
    from turbometrics.coco import COCO, COCOeval
    from turbometrics.coco.synthetic import make_coco_set

    with contextlib.redirect_stdout(io.StringIO()):
        dataset, results = make_coco_set(n_images=40, n_categories=3, dets_per_image=10, seed=0)
        gt = COCO()
        gt.dataset = dataset
        gt.createIndex()
        evaluation = COCOeval(gt, gt.loadRes(results), "bbox")
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return evaluation


def test_coco_precision_recall_mean_and_per_category(tmp_path):
    evaluation = _coco_eval()
    ax = tp.coco_precision_recall(evaluation, iou_thresholds=(0.5, 0.75))
    _check_labelled(ax)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == [f"IoU = 0.50: AP = {evaluation.stats[1]:.3f}", f"IoU = 0.75: AP = {evaluation.stats[2]:.3f}"]
    # The mean of the drawn curve over the 101 recall thresholds is AP at that IoU.
    assert ax.get_lines()[0].get_ydata().mean() == pytest.approx(evaluation.stats[1], rel=1e-12)
    _saved(ax, tmp_path / "coco.png")
    category = evaluation.params.catIds[0]
    ax = tp.coco_precision_recall(evaluation.eval, category=[category], iou_thresholds=[0.5])
    curve = evaluation.category_curve(category, iou_threshold=0.5)
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), curve["precision"])
    with pytest.raises(ValueError, match=r"IoU threshold 0.33"):
        tp.coco_precision_recall(evaluation, iou_thresholds=[0.33])


def test_without_matplotlib_import_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    y, s = _binary(50)
    with pytest.raises(ImportError, match=r"pip install 'turbometrics\[plot\]'"):
        tp.roc(y, s)
