"""Evaluation parameters, as ``pycocotools.cocoeval.Params``."""

from __future__ import annotations

from typing import Any

import numpy as np


def _evenly_spaced(start: float, stop: float, step: float) -> np.ndarray:
    """``np.linspace`` with the point count pycocotools derives from a step
    (``np.arange`` would drift past the stop)."""
    return np.linspace(start, stop, int(np.round((stop - start) / step)) + 1, endpoint=True)


#: pycocotools' keypoint OKS sigmas for the 17 COCO person keypoints.
COCO_KEYPOINT_SIGMAS = (
    np.array([0.26, 0.25, 0.25, 0.35, 0.35, 0.79, 0.79, 0.72, 0.72, 0.62, 0.62, 1.07, 1.07, 0.87, 0.87, 0.89, 0.89])
    / 10.0
)


class Params:
    """Parameters of a COCO evaluation (defaults of pycocotools 2.0.11).

    Attributes
    ----------
    imgIds, catIds : list
        Images and categories to evaluate (all of the ground truth by
        default; ``COCOeval`` fills them).
    iouThrs : ndarray
        IoU thresholds, ``np.linspace(.5, .95, 10)``.
    recThrs : ndarray
        Recall thresholds, ``np.linspace(0, 1, 101)``.
    maxDets : list of int
        Detections kept per image, ``[1, 10, 100]`` (``[20]`` for keypoints).
    areaRng, areaRngLbl : list
        Area ranges (inclusive bounds) and their labels: all, small, medium,
        large (all, medium, large for keypoints).
    useCats : int
        1 to match within categories; 0 to pool all categories per image.
    kpt_oks_sigmas : ndarray
        Per-keypoint OKS sigmas (keypoints only).
    iouType : str
        ``'bbox'``, ``'segm'`` or ``'keypoints'``.
    useSegm : None
        Deprecated: 1 means ``'segm'``, 0 means ``'bbox'``.

    Examples
    --------
    >>> from turbometrics.coco import Params
    >>> p = Params(iouType="bbox")
    >>> p.iouThrs[:3], p.maxDets, p.areaRngLbl
    (array([0.5 , 0.55, 0.6 ]), [1, 10, 100], ['all', 'small', 'medium', 'large'])
    """

    def setDetParams(self) -> None:
        """Reset to the box and mask defaults."""
        self.imgIds: list[Any] = []
        self.catIds: list[Any] = []
        self.iouThrs = _evenly_spaced(0.5, 0.95, 0.05)
        self.recThrs = _evenly_spaced(0.0, 1.00, 0.01)
        self.maxDets = [1, 10, 100]
        self.areaRng = [[0**2, 1e5**2], [0**2, 32**2], [32**2, 96**2], [96**2, 1e5**2]]
        self.areaRngLbl = ["all", "small", "medium", "large"]
        self.useCats = 1

    def setKpParams(self) -> None:
        """Reset to the keypoint defaults."""
        self.imgIds = []
        self.catIds = []
        self.iouThrs = _evenly_spaced(0.5, 0.95, 0.05)
        self.recThrs = _evenly_spaced(0.0, 1.00, 0.01)
        self.maxDets = [20]
        self.areaRng = [[0**2, 1e5**2], [32**2, 96**2], [96**2, 1e5**2]]
        self.areaRngLbl = ["all", "medium", "large"]
        self.useCats = 1
        self.kpt_oks_sigmas = COCO_KEYPOINT_SIGMAS.copy()

    def __init__(self, iouType: str = "segm") -> None:
        if iouType == "segm" or iouType == "bbox":
            self.setDetParams()
        elif iouType == "keypoints":
            self.setKpParams()
        else:
            raise Exception("iouType not supported")
        self.iouType = iouType
        self.useSegm = None
