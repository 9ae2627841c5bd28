"""Segmentation: metrics over label maps.

The area's primitive is the confusion matrix of two label maps
(:func:`confusion_matrix`): K x K int64 counts, rows the true label,
columns the predicted one, for a whole dataset or per image, counted in one
pass at memory speed from maps of any dimension (2-D images, 3-D volumes,
batches) read in place. :class:`SegmentationState` keeps these counts for
a stream of maps and merges exactly, with per-image class sums when asked.
"""

from ._confusion import confusion_matrix
from ._instance_iou import (
    CITYSCAPES_AVERAGE_INSTANCE_SIZES,
    CITYSCAPES_CATEGORIES,
    CITYSCAPES_IGNORED_CLASSES,
    InstanceIoUState,
    instance_iou,
)
from ._metrics import class_average as class_average, nanmean as nanmean  # for turbometrics.torch's classes
from ._scores import class_accuracy, dice, fbeta, generalized_dice, iou, pixel_accuracy, precision, recall
from ._state import SegmentationState
from ._surface import average_surface_distance, hausdorff_distance, surface_dice
from ._torchmetrics_options import (  # for turbometrics.torch's classes
    check_dice_options as check_dice_options,
    check_format_options as check_format_options,
)

__all__ = [
    "CITYSCAPES_AVERAGE_INSTANCE_SIZES",
    "CITYSCAPES_CATEGORIES",
    "CITYSCAPES_IGNORED_CLASSES",
    "InstanceIoUState",
    "SegmentationState",
    "average_surface_distance",
    "class_accuracy",
    "confusion_matrix",
    "dice",
    "fbeta",
    "generalized_dice",
    "hausdorff_distance",
    "instance_iou",
    "iou",
    "pixel_accuracy",
    "precision",
    "recall",
    "surface_dice",
]
