"""Plots of evaluation results (matplotlib, an optional extra).

``pip install 'turbometrics[plot]'``. Every function computes its numbers
with turbometrics' own metric functions (one call per quantity), draws on
the given ``ax`` (or a new figure), labels its axes, sets a title and a
legend, and returns the Axes. matplotlib is imported only when a function
is called; without it they raise ImportError saying how to install it.

- :func:`roc`: ROC curve(s) with the AUC in the legend.
- :func:`precision_recall`: precision-recall curve(s) with the average
  precision, and the chance level (the prevalence).
- :func:`threshold_curves`: precision, recall and F1 against the decision
  threshold, the best-F1 threshold marked.
- :func:`reliability_diagram`: accuracy against confidence per bin, with
  the ECE, and the samples per bin in a histogram panel below.
- :func:`coco_precision_recall`: COCO precision-recall curves per IoU
  threshold (averaged over categories, or per category).
"""

from ._binary import precision_recall, roc, threshold_curves
from ._calibration import reliability_diagram
from ._coco import coco_precision_recall

__all__ = ["coco_precision_recall", "precision_recall", "reliability_diagram", "roc", "threshold_curves"]
