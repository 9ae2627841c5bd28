"""torchmetrics' MeanAveragePrecision(backend="pycocotools") gives identical
results with turbometrics.coco.patch_pycocotools() active, and the patched
run evaluates with turbometrics' COCOeval."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
pytest.importorskip("pycocotools")

import turbometrics.coco as tc

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_torchmetrics.py"


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_torchmetrics", _BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("class_metrics", [False, True])
def test_mean_average_precision_identical_with_patch(monkeypatch, class_metrics):
    bench = _bench_module()
    metric_class, _ = bench.mean_average_precision_class()
    predictions, targets = bench.detection_tensors(60, seed=3, n_categories=12, dets_per_image=40)
    with contextlib.redirect_stdout(io.StringIO()):
        reference = bench.evaluate(metric_class, predictions, targets, class_metrics=class_metrics)
        evaluations = []
        evaluate = tc.COCOeval.evaluate
        monkeypatch.setattr(tc.COCOeval, "evaluate", lambda self: evaluations.append(1) or evaluate(self))
        with tc.patch_pycocotools():
            patched = bench.evaluate(metric_class, predictions, targets, class_metrics=class_metrics)
    assert evaluations, "the patched run did not use turbometrics' COCOeval"
    assert 0 < float(reference["map"]) < 1
    assert bench.results_equal(reference, patched)
