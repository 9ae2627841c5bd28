"""Without torchmetrics the classes stand on ``LightMetric`` (a
``torch.nn.Module`` with torchmetrics' protocol) and give the same values:
``update``/``forward``/``compute``/``reset``, the result cache, the
"compute before update" warning, pickling."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")
pytest.importorskip("sklearn")

CHECK = textwrap.dedent(
    """
    import pickle, sys, warnings
    sys.modules["torchmetrics"] = None  # import torchmetrics raises ImportError
    import numpy as np, torch
    from sklearn.metrics import average_precision_score, roc_auc_score
    from turbometrics.torch import BinaryAUROC, BinaryAveragePrecision
    from turbometrics.torch._light import LightMetric

    assert issubclass(BinaryAUROC, LightMetric)
    rng = np.random.default_rng(3)
    scores, labels = rng.random(100), rng.integers(0, 2, 100)
    metric = BinaryAUROC()
    assert metric(torch.from_numpy(scores[:40]), torch.from_numpy(labels[:40])).item() == roc_auc_score(
        labels[:40], scores[:40])
    metric.update(torch.from_numpy(scores[40:]), torch.from_numpy(labels[40:]))
    assert metric.update_count == 2 and metric.compute().item() == roc_auc_score(labels, scores)
    assert metric.compute() is metric.compute()  # cached until the next update
    copy = pickle.loads(pickle.dumps(metric))
    copy.update(torch.from_numpy(scores[:1]), torch.from_numpy(labels[:1]))
    assert copy.update_count == 3
    ap = BinaryAveragePrecision().to("cpu")
    ap.update(torch.from_numpy(scores), torch.from_numpy(labels))
    assert ap.compute().item() == average_precision_score(labels, scores)
    metric.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            metric.compute()
        except ValueError as error:
            assert "no samples" in str(error)
        else:
            raise AssertionError("no error")
    assert "before the ``update``" in str(caught[0].message)
    try:
        BinaryAUROC(unknown=1)
    except ValueError as error:
        assert "Unexpected keyword arguments: `unknown`" in str(error)
    print("ok")
    """
)


@pytest.mark.slow
def test_the_light_base_gives_the_same_values():
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr
