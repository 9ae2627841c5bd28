"""Segmentation: metrics over label maps.

The area's primitive is the confusion matrix of two label maps
(:func:`confusion_matrix`): K x K int64 counts, rows the true label,
columns the predicted one, for a whole dataset or per image, counted in one
pass at memory speed from maps of any dimension (2-D images, 3-D volumes,
batches) read in place.
"""

from ._confusion import confusion_matrix

__all__ = ["confusion_matrix"]
