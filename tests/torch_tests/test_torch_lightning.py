"""Lightning's ``self.log(name, metric)`` logs ``turbometrics.torch``'s
classes: a tiny LightningModule trained for two epochs on the CPU logs the
epoch's ``BinaryAUROC``, ``BinaryAveragePrecision`` and
``BinaryCalibrationError`` from ``validation_step`` and the batch's
``BinaryAUROC`` (``forward``) from ``training_step``; the logged values are
float64 and equal, with ``==``, turbometrics' functions (scikit-learn's bits)
on the data of that epoch (or batch) alone, so Lightning's ``reset`` between
epochs is checked too; a checkpoint holds the weights without the metrics'
states."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pl = pytest.importorskip("pytorch_lightning")

import turbometrics as tm  # noqa: E402
from turbometrics.torch import BinaryAUROC, BinaryAveragePrecision, BinaryCalibrationError  # noqa: E402

pytestmark = [
    pytest.mark.bits,
    # pytorch_lightning 2.6.6's own use of torch 2.13's deprecated LeafSpec (not the metrics')
    pytest.mark.filterwarnings("ignore:.*isinstance\\(treespec, LeafSpec\\).*:FutureWarning"),
]


class _Module(pl.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(4, 1)
        self.train_auroc = BinaryAUROC()
        self.auroc = BinaryAUROC()
        self.average_precision = BinaryAveragePrecision()
        self.calibration = BinaryCalibrationError(n_bins=10)
        self.validation_seen: list[tuple[torch.Tensor, torch.Tensor]] = []
        self.last_train_batch: tuple[torch.Tensor, torch.Tensor] | None = None

    def _probabilities(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.linear(x).squeeze(1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.linear(x).squeeze(1)
        self.train_auroc(logits, y)  # forward: the batch's value, logged on the step
        self.log("train_auroc", self.train_auroc, on_step=True, on_epoch=False)
        self.last_train_batch = (logits.detach().clone(), y)
        return torch.nn.functional.binary_cross_entropy_with_logits(logits, y.float())

    def on_validation_epoch_start(self) -> None:
        self.validation_seen = []

    def validation_step(self, batch, batch_idx):
        x, y = batch
        probabilities = self._probabilities(x)
        self.validation_seen.append((probabilities.clone(), y))
        self.auroc(probabilities, y)
        self.average_precision.update(probabilities, y)
        self.calibration.update(probabilities, y)
        self.log("val_auroc", self.auroc, on_epoch=True)
        self.log("val_ap", self.average_precision, on_epoch=True)
        self.log("val_ece", self.calibration, on_epoch=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.5)


def _loader(n: int, seed: int):
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 4, generator=generator)
    y = (x[:, 0] + torch.randn(n, generator=generator) > 0).long()
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=64)


def test_self_log_logs_the_exact_epoch_and_step_values(tmp_path):
    torch.manual_seed(0)
    module = _Module()
    trainer = pl.Trainer(
        accelerator="cpu",
        max_epochs=2,
        logger=pl.loggers.CSVLogger(tmp_path),
        enable_progress_bar=False,
        enable_checkpointing=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
        log_every_n_steps=1,
        default_root_dir=tmp_path,
    )
    trainer.fit(module, _loader(256, 1), _loader(192, 2))

    scores = torch.cat([p for p, _ in module.validation_seen]).numpy()  # float32, as logged
    labels = torch.cat([y for _, y in module.validation_seen]).numpy()
    assert len(labels) == 192  # the second epoch's validation data alone
    state = tm.CalibrationState(10, mode="binary")
    state.update(labels, scores)
    expected = {
        "val_auroc": tm.roc_auc_score(labels, scores),
        "val_ap": tm.average_precision_score(labels, scores),
        "val_ece": state.ece(),
    }
    assert module.last_train_batch is not None
    logits, y = module.last_train_batch
    expected["train_auroc"] = tm.roc_auc_score(y.numpy(), 1 / (1 + np.exp(-logits.double().numpy())))
    for metrics in (trainer.callback_metrics, trainer.logged_metrics):
        for name, value in expected.items():
            assert metrics[name].dtype == torch.float64, name
            assert metrics[name].item() == value, name
    # Lightning reset the metrics at the epoch's end
    assert module.auroc.states[0].n_samples == 0
    assert module.calibration.states[0].n_samples == 0
    # a checkpoint holds the weights alone (the metrics' states are not in state_dict, as the guide says)
    trainer.save_checkpoint(tmp_path / "last.ckpt")
    assert set(torch.load(tmp_path / "last.ckpt", weights_only=True)["state_dict"]) == {"linear.weight", "linear.bias"}
