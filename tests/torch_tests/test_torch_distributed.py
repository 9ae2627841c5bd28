"""``compute()`` under ``torch.distributed``: two gloo processes on the CPU
(``torch.multiprocessing.spawn``) each add half of the data; every rank's
``compute()`` equals scikit-learn on all of it, bit for bit, and leaves the
local state as it was; a rank that never called ``update`` contributes
nothing."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch.distributed")
pytest.importorskip("sklearn")

WORKER = textwrap.dedent(
    """
    import sys
    import torch.multiprocessing as mp

    def run(rank, port):  # the imports here: the parent process needs none of them
        import warnings
        import numpy as np
        import torch
        import torch.distributed as dist
        from sklearn.metrics import confusion_matrix, roc_auc_score, roc_curve
        from turbometrics.torch import BinaryAUROC, BinaryROC, MulticlassConfusionMatrix

        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=2)
        rng = np.random.default_rng(0)
        scores = rng.integers(0, 50, 400) / 50  # ties across the ranks
        labels = rng.integers(0, 2, 400)
        half = slice(0, 150) if rank == 0 else slice(150, 400)
        preds, target = torch.from_numpy(scores[half]), torch.from_numpy(labels[half])
        auroc, roc, matrix = BinaryAUROC(), BinaryROC(), MulticlassConfusionMatrix(2)
        for metric in (auroc, roc):
            metric.update(preds, target)
        matrix.update((preds > 0.5).long(), target)
        assert auroc.compute().item() == roc_auc_score(labels, scores)
        fpr, tpr, thresholds = roc.compute()
        for got, expected in zip((fpr, tpr, thresholds), roc_curve(labels, scores)):
            assert np.array_equal(got.numpy(), expected)
        assert np.array_equal(matrix.compute().numpy(), confusion_matrix(labels, scores > 0.5))
        assert auroc.states[0].n_samples == len(target)  # the local state is back
        auroc.update(preds, target)  # and still accumulates
        lonely = BinaryAUROC()
        if rank == 0:
            lonely.update(preds, target)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # rank 1: compute before update
            value = lonely.compute().item()
        assert value == roc_auc_score(labels[:150], scores[:150])
        dist.destroy_process_group()

    if __name__ == "__main__":
        mp.spawn(run, args=(int(sys.argv[1]),), nprocs=2, join=True)
    """
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_two_gloo_ranks_compute_the_whole_datas_value(tmp_path):
    script = tmp_path / "ddp_worker.py"
    script.write_text(WORKER)
    result = subprocess.run(
        [sys.executable, str(script), str(_free_port())], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
