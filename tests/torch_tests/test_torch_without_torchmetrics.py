"""Without torchmetrics the classes stand on ``LightMetric`` (a
``torch.nn.Module`` with torchmetrics' protocol) and give the same values:
``update``/``forward``/``compute``/``reset``, the result cache, the
"compute before update" warning, pickling. The package is imported afresh
with ``import torchmetrics`` failing; the modules are put back after."""

from __future__ import annotations

import importlib
import pickle
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

import turbometrics  # noqa: E402
import turbometrics.torch  # noqa: E402

try:
    from torchmetrics import Metric as TORCHMETRICS_METRIC
except ImportError:
    TORCHMETRICS_METRIC = None


@pytest.fixture
def light(monkeypatch):
    """turbometrics.torch imported where torchmetrics is not installed."""
    for name in [name for name in sys.modules if name.startswith("turbometrics.torch")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(turbometrics, "torch", turbometrics.torch)  # restored after the test
    monkeypatch.setitem(sys.modules, "torchmetrics", None)  # import torchmetrics raises ImportError
    return importlib.import_module("turbometrics.torch")


def test_the_light_base_gives_the_same_values(light):
    from turbometrics.torch._light import LightMetric

    assert issubclass(light.BinaryAUROC, LightMetric)
    assert TORCHMETRICS_METRIC is None or not issubclass(light.BinaryAUROC, TORCHMETRICS_METRIC)
    rng = np.random.default_rng(3)
    scores, labels = rng.random(100), rng.integers(0, 2, 100)
    metric = light.BinaryAUROC()
    first = metric(torch.from_numpy(scores[:40]), torch.from_numpy(labels[:40]))
    assert first.item() == sklearn_metrics.roc_auc_score(labels[:40], scores[:40])
    metric.update(torch.from_numpy(scores[40:]), torch.from_numpy(labels[40:]))
    assert metric.update_count == 2 and metric.compute().item() == sklearn_metrics.roc_auc_score(labels, scores)
    assert metric.compute() is metric.compute()  # cached until the next update
    copy = pickle.loads(pickle.dumps(metric))
    copy.update(torch.from_numpy(scores[:1]), torch.from_numpy(labels[:1]))
    assert copy.update_count == 3
    curve = light.BinaryROC().to("cpu")
    curve.update(torch.from_numpy(scores), torch.from_numpy(labels))
    for got, expected in zip(curve.compute(), sklearn_metrics.roc_curve(labels, scores)):
        assert np.array_equal(got.numpy(), expected)
    metric.reset()
    with pytest.warns(UserWarning, match="before the ``update``"), pytest.raises(ValueError, match="no samples"):
        metric.compute()
    with pytest.raises(ValueError, match="Unexpected keyword arguments: `unknown`"):
        light.BinaryAUROC(unknown=1)
