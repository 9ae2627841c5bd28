"""The segmentation metrics over label maps: IoU, Dice, precision, recall,
F-beta, per-class and pixel accuracy and generalised Dice, every one from
one pass of :func:`~turbometrics.segmentation.confusion_matrix` (the area's
primitive), in float64 from its exact int64 counts.

Each reference's convention is a choice of ``aggregate``, ``average`` and
``empty`` (:mod:`turbometrics.segmentation._conventions`; the guide's table
lays them side by side).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._common.params import validate_params
from . import _metrics
from ._confusion import _CONSTRAINTS as _MAP_CONSTRAINTS, confusion_matrix
from ._conventions import AGGREGATE, AVERAGE, BETA, EMPTY, WEIGHT_TYPE
from ._state import _image_sums

_CONSTRAINTS = {
    **_MAP_CONSTRAINTS,
    "aggregate": AGGREGATE,
    "average": AVERAGE,
    "empty": EMPTY,
    "beta": BETA,
    "weight_type": WEIGHT_TYPE,
}

_COMMON = """y_true, y_pred : array-like of int, same shape
        Label maps, as :func:`confusion_matrix` reads them (any dimension;
        the first axis is the image unless ``aggregate="dataset"``).
    num_classes : int
        K; labels are 0 .. K - 1.
    ignore_index : int, default=None
        Pixels whose true label is this value are not counted.
    aggregate : {"dataset", "image", "none"}, default="dataset"
        ``"dataset"``: the counts of all images are added, then scored
        (mmsegmentation's ``IoUMetric``, Cityscapes). ``"image"``: each
        image is scored, then the images' scores that are not NaN are
        averaged (torchmetrics' ``MeanIoU`` and ``DiceScore``, MONAI's
        ``DiceMetric`` and ``MeanIoU`` with ``reduction="mean"``; per class
        with ``average=None``, MONAI's ``"mean_batch"``). ``"none"``: each
        image's scores, shape (n_images,) or (n_images, K).
    reduce_zero_label, label_map, n_threads
        As in :func:`confusion_matrix`."""

_AVERAGE = """average : {"macro", "micro", "weighted"} or None, default="macro"
        ``"macro"``: the mean of the classes' scores that are not NaN (NaN
        if none is). ``"micro"``: numerators and denominators summed over
        the classes, then divided. ``"weighted"``: the classes' scores
        weighted by their true pixels (NaN scores count 0). None: the
        per-class scores, shape (K,) (or (n_images, K) with
        ``aggregate="none"``)."""

_EMPTY = """empty : "nan", "no_true" or float, default="nan"
        The score of a class whose denominator is 0 (for IoU and Dice: no
        true and no predicted pixel). ``"nan"``: NaN, left out of every
        mean (mmsegmentation, Cityscapes, torchmetrics). A number: that
        score (MONAI's ``ignore_empty=False`` is 1.0). ``"no_true"``: NaN
        for every class without true pixels, even a predicted one (MONAI's
        ``ignore_empty=True``)."""

_NOTES = """Notes
    -----
    One pass over the maps (:func:`confusion_matrix`, per image unless
    ``aggregate="dataset"``), then float64 arithmetic on exact int64
    counts: no float32 sums, which mmsegmentation 1.x and MONAI use and
    which stop being exact past 2**24 pixels per class. Equal to the same
    metric of a :class:`SegmentationState` of the maps
    (:meth:`SegmentationState.score`), whatever their split into shards."""


def _sums(
    y_true: Any,
    y_pred: Any,
    num_classes: int,
    ignore_index: int | None,
    aggregate: str,
    reduce_zero_label: bool,
    label_map: Mapping[int, int] | None,
    n_threads: int | None,
) -> np.ndarray:
    """(n, 3, K) int64 per-class sums of the maps (n = 1 for the dataset)."""
    per_image = aggregate != "dataset"
    counts = confusion_matrix(
        y_true,
        y_pred,
        num_classes=num_classes,
        ignore_index=ignore_index,
        per_image=per_image,
        reduce_zero_label=reduce_zero_label,
        label_map=label_map,
        n_threads=n_threads,
    )
    sums = _image_sums(counts if per_image else counts[None])
    if per_image and sums.shape[0] == 0:
        raise ValueError("aggregate='image' or 'none' needs at least one image; got 0 images.")
    return sums


def _docstring(title: str, formula: str, parameters: str, example: str) -> str:
    """A metric's numpydoc docstring from its parts and the shared ones."""
    return f"""{title}

    {formula}

    Parameters
    ----------
    {_COMMON}
    {parameters}

    Returns
    -------
    float or ndarray of float64
        A float, or per class (K,) with ``average=None``, per image with
        ``aggregate="none"``.

    Raises
    ------
    ValueError
        As :func:`confusion_matrix` (shapes, labels outside [0, K)), and
        for ``aggregate="image"`` or ``"none"`` over no image.
    InvalidParameterError
        For an ``average``, ``aggregate`` or ``empty`` not listed above.

    {_NOTES}

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import segmentation
    >>> y_true = np.array([[0, 0, 1], [1, 2, 255]], dtype=np.uint8)
    >>> y_pred = np.array([[0, 1, 1], [1, 2, 0]], dtype=np.uint8)
{example}
    """


def _score(metric: str, y_true: Any, y_pred: Any, options: dict[str, Any], **scoring: Any) -> Any:
    sums = _sums(
        y_true,
        y_pred,
        options["num_classes"],
        options["ignore_index"],
        options["aggregate"],
        options["reduce_zero_label"],
        options["label_map"],
        options["n_threads"],
    )
    return _metrics.score(metric, sums, aggregate=options["aggregate"], empty=options["empty"], **scoring)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def iou(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    average: str | None = "macro",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("iou", y_true, y_pred, options, average=average)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def dice(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    average: str | None = "macro",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("dice", y_true, y_pred, options, average=average)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def fbeta(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    num_classes: int,
    ignore_index: int | None = None,
    average: str | None = "macro",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("fbeta", y_true, y_pred, options, average=average, beta=float(beta))


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def precision(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    average: str | None = "macro",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("precision", y_true, y_pred, options, average=average)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def recall(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    average: str | None = "macro",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("recall", y_true, y_pred, options, average=average)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def class_accuracy(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    average: str | None = "macro",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("recall", y_true, y_pred, options, average=average)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def pixel_accuracy(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("pixel_accuracy", y_true, y_pred, options)


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def generalized_dice(
    y_true: Any,
    y_pred: Any,
    *,
    num_classes: int,
    ignore_index: int | None = None,
    weight_type: str = "square",
    aggregate: str = "dataset",
    empty: Any = "nan",
    reduce_zero_label: bool = False,
    label_map: Mapping[int, int] | None = None,
    n_threads: int | None = None,
) -> Any:
    options = dict(locals())
    return _score("generalized_dice", y_true, y_pred, options, weight_type=weight_type)


iou.__doc__ = _docstring(
    "Intersection over union (Jaccard index) of label maps, per class.",
    "``IoU_k = tp_k / (t_k + p_k - tp_k)``: true positives over the union of the\n"
    "    class's true and predicted pixels. Cityscapes' class IoU (its\n"
    "    ``evalPixelLevelSemanticLabeling``: ignored pixels skipped, a class with\n"
    "    no true and no predicted pixel NaN, mean over the others) is\n"
    '    ``aggregate="dataset", empty="nan", average="macro"``, the defaults;\n'
    "    so is mmsegmentation's ``mIoU``.",
    f"{_AVERAGE}\n    {_EMPTY}",
    """    >>> segmentation.iou(y_true, y_pred, num_classes=3, ignore_index=255, average=None)
    array([0.5       , 0.66666667, 1.        ])
    >>> round(segmentation.iou(y_true, y_pred, num_classes=3, ignore_index=255), 6)
    0.722222""",
)
dice.__doc__ = _docstring(
    "Dice coefficient (F1 of pixels) of label maps, per class.",
    "``Dice_k = 2 tp_k / (t_k + p_k)`` (mmsegmentation's ``mDice``, torchmetrics'\n"
    "    ``dice_score``, MONAI's ``DiceMetric``, by the choice of ``aggregate``\n"
    "    and ``empty``).",
    f"{_AVERAGE}\n    {_EMPTY}",
    """    >>> segmentation.dice(y_true, y_pred, num_classes=3, ignore_index=255, average=None)
    array([0.66666667, 0.8       , 1.        ])""",
)
fbeta.__doc__ = _docstring(
    "F-beta score of label maps, per class.",
    "``F_k = (1 + beta^2) tp_k / (beta^2 t_k + p_k)`` (mmsegmentation's\n"
    "    ``mFscore`` with its ``beta``); ``beta=1`` is Dice. mmsegmentation takes\n"
    "    it from precision and recall, so a class predicted but never true (or\n"
    "    true but never predicted) is NaN there and 0 here; elsewhere they agree.",
    f"beta : float\n        The weight of recall against precision (> 0).\n    {_AVERAGE}\n    {_EMPTY}",
    """    >>> segmentation.fbeta(y_true, y_pred, beta=2.0, num_classes=3, ignore_index=255, average=None)
    array([0.55555556, 0.90909091, 1.        ])""",
)
precision.__doc__ = _docstring(
    "Precision of label maps, per class.",
    "``precision_k = tp_k / p_k``: of the pixels predicted as the class, the\n"
    "    share that is (mmsegmentation's ``mPrecision``).",
    f"{_AVERAGE}\n    {_EMPTY}",
    """    >>> segmentation.precision(y_true, y_pred, num_classes=3, ignore_index=255, average=None)
    array([1.        , 0.66666667, 1.        ])""",
)
recall.__doc__ = _docstring(
    "Recall (sensitivity) of label maps, per class.",
    "``recall_k = tp_k / t_k``: of the class's true pixels, the share\n"
    "    predicted as it (mmsegmentation's ``mRecall``; the same numbers as\n"
    "    :func:`class_accuracy`).",
    f"{_AVERAGE}\n    {_EMPTY}",
    """    >>> segmentation.recall(y_true, y_pred, num_classes=3, ignore_index=255, average=None)
    array([0.5, 1. , 1. ])""",
)
class_accuracy.__doc__ = _docstring(
    "Per-class accuracy of label maps (mmsegmentation's ``Acc`` and ``mAcc``).",
    "``acc_k = tp_k / t_k``: of the class's true pixels, the share labelled\n"
    "    right, which is the class's recall; its macro average is ``mAcc``.",
    f"{_AVERAGE}\n    {_EMPTY}",
    """    >>> segmentation.class_accuracy(y_true, y_pred, num_classes=3, ignore_index=255)
    0.8333333333333334""",
)
pixel_accuracy.__doc__ = _docstring(
    "Pixel accuracy of label maps (mmsegmentation's ``aAcc``).",
    "``sum_k tp_k / sum_k t_k``: the share of the counted pixels (those not\n"
    "    ignored) whose predicted label is the true one.",
    'empty : "nan" or float, default="nan"\n'
    '        The score of an image (or dataset) with no counted pixel ("no_true"\n'
    '        is read as "nan").',
    """    >>> segmentation.pixel_accuracy(y_true, y_pred, num_classes=3, ignore_index=255)
    0.8""",
)
generalized_dice.__doc__ = _docstring(
    "Generalised Dice of label maps (Sudre et al., 2017).",
    "``2 sum_k w_k tp_k / sum_k w_k (t_k + p_k)`` with ``w_k = 1 / t_k^2``\n"
    '    (``"square"``), ``1 / t_k`` (``"simple"``) or 1 (``"linear"``). A\n'
    "    class without true pixels gets the largest finite weight of its image\n"
    "    (or dataset), as MONAI's ``compute_generalized_dice``; 1 if no class\n"
    "    has true pixels.",
    'weight_type : {"square", "simple", "linear"}, default="square"\n'
    "        The classes' weights.\n"
    '    empty : "nan" or float, default="nan"\n'
    '        The score when the weighted denominator is 0 ("no_true" is read\n'
    '        as "nan").',
    """    >>> round(segmentation.generalized_dice(y_true, y_pred, num_classes=3, ignore_index=255), 6)
    0.875""",
)
