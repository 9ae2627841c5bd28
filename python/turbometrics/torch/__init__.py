"""torch tensors in, torch tensors out: the exact metric classes and, in
``turbometrics.torch.functional``, the exact on-device ranking program.

The classes have torchmetrics 1.9's names and constructor arguments for its
exact modes and compute on turbometrics' mergeable states (scikit-learn's
values, bit for bit, as float64 tensors); torchmetrics, where installed, is
their base (``torchmetrics.Metric``). docs/guide/torch.md describes them.

torch is imported by this package only; ``import turbometrics`` does not
import it.
"""

from ._calibration import BinaryCalibrationError, MulticlassCalibrationError
from ._classification import MulticlassConfusionMatrix
from ._ranking import (
    BinaryAUROC,
    BinaryAveragePrecision,
    BinaryPrecisionRecallCurve,
    BinaryROC,
    MulticlassAUROC,
    MulticlassAveragePrecision,
)
from ._segmentation import DiceScore, MeanIoU

__all__ = [
    "BinaryAUROC",
    "BinaryAveragePrecision",
    "BinaryCalibrationError",
    "BinaryPrecisionRecallCurve",
    "BinaryROC",
    "DiceScore",
    "MeanIoU",
    "MulticlassAUROC",
    "MulticlassAveragePrecision",
    "MulticlassCalibrationError",
    "MulticlassConfusionMatrix",
]
