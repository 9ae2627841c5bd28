"""Drop-ins for medpy 0.5.2's ``medpy.metric.binary``: the overlap scores
``dc``, ``jc``, ``precision``, ``recall``, ``sensitivity`` and
``specificity``, and the surface distances ``hd``, ``hd95``, ``assd`` and
``asd``, with medpy's signatures, return types and empty rules.

The overlap scores come from the 2x2 confusion counts of the two masks
(:func:`~turbometrics.segmentation.confusion_matrix`, one pass) and are
medpy's bits: the same float expressions of the same integer counts, so the
same types (``jc`` a Python float, the others NumPy float64), the same 0/0
results (``jc`` 1.0; the others NaN with NumPy's RuntimeWarning) and, for
masks of different shapes, NumPy's broadcasting (its ValueError when the
shapes do not broadcast). Masks of any dimension are accepted.

The surface distances are medpy's within 1e-12 (bit for bit with unit or integer
spacing): the same boundaries (the object minus its erosion by
``generate_binary_structure(ndim, connectivity)``, the image border counting
as background) and exact Euclidean distances, computed over the bounding
box of the two objects instead of the whole image. Masks of 1 to 3
dimensions are accepted (medpy takes any dimension).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._confusion import confusion_matrix
from ._surface_kernel import Directed, binary_distances, check_connectivity, check_spacing

__all__ = ["asd", "assd", "dc", "hd", "hd95", "jc", "precision", "recall", "sensitivity", "specificity"]


def _masks(result: Any, reference: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both masks as medpy reads them (``astype(bool)``: non-zero is the
    object), at least 1-D; bool masks are not copied."""
    return np.atleast_1d(np.asarray(result, dtype=np.bool_)), np.atleast_1d(np.asarray(reference, dtype=np.bool_))


def _counts(first: np.ndarray, second: np.ndarray) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """(tp, fp, fn, tn) of ``first`` (the result) against ``second`` (the
    reference) as NumPy int64 scalars, medpy's ``count_nonzero`` type,
    counted over the two masks broadcast together as medpy's ``&`` does."""
    if first.shape != second.shape:
        try:
            shape = np.broadcast_shapes(first.shape, second.shape)
        except ValueError:
            shapes = " ".join(str(s).replace(" ", "") for s in (first.shape, second.shape))
            raise ValueError(f"operands could not be broadcast together with shapes {shapes} ") from None
        first, second = np.broadcast_to(first, shape), np.broadcast_to(second, shape)
    counts = confusion_matrix(second, first, num_classes=2)  # rows: the reference
    return counts[1, 1], counts[0, 1], counts[1, 0], counts[0, 0]


def dc(result: Any, reference: Any) -> np.float64:
    """Dice coefficient ``2 |A & B| / (|A| + |B|)`` of the two masks
    (medpy's ``dc``; symmetric).

    Parameters
    ----------
    result, reference : array-like
        Masks: anything non-zero (NaN included) is the object. Shapes that
        differ are broadcast, as medpy's ``&`` does (the intersection over
        the broadcast masks, each size over its own mask); shapes that do
        not broadcast raise NumPy's ValueError.

    Returns
    -------
    numpy.float64
        From 0 (no overlap) to 1. NaN, with NumPy's RuntimeWarning
        ("invalid value encountered in scalar divide"), when both masks are
        empty: medpy's ``except ZeroDivisionError`` never fires on NumPy
        counts.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.segmentation.medpy import dc
    >>> dc(np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0]))
    np.float64(0.6666666666666666)
    """
    first, second = _masks(result, reference)
    tp, fp, fn, _ = _counts(first, second)
    if first.shape == second.shape:
        size_result, size_reference = tp + fp, tp + fn
    else:  # medpy counts each mask as given, not broadcast
        size_result, size_reference = np.int64(np.count_nonzero(first)), np.int64(np.count_nonzero(second))
    return 2.0 * tp / float(size_result + size_reference)


def jc(result: Any, reference: Any) -> float:
    """Jaccard coefficient ``|A & B| / |A | B|`` of the two masks (medpy's
    ``jc``; symmetric). Parameters as :func:`dc`.

    Returns
    -------
    float
        A Python float from 0 to 1; 1.0 when both masks are empty (medpy
        divides Python floats and catches the ZeroDivisionError).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.segmentation.medpy import jc
    >>> jc(np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0]))
    0.5
    """
    tp, fp, fn, _ = _counts(*_masks(result, reference))
    try:
        return float(tp) / float(tp + fp + fn)
    except ZeroDivisionError:
        return 1.0


def precision(result: Any, reference: Any) -> np.float64:
    """Precision ``tp / (tp + fp)``: the share of ``result``'s object that
    lies in ``reference``'s (medpy's ``precision``; not symmetric).
    Parameters as :func:`dc`.

    Returns
    -------
    numpy.float64
        NaN, with NumPy's RuntimeWarning ("invalid value encountered in
        divide"), when ``result`` is empty (medpy's 0.0 for that case is in
        an ``except ZeroDivisionError`` that NumPy counts never reach).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.segmentation.medpy import precision
    >>> precision(np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0]))
    np.float64(0.5)
    """
    tp, fp, _, _ = _counts(*_masks(result, reference))
    return tp / float(tp + fp)


def recall(result: Any, reference: Any) -> np.float64:
    """Recall ``tp / (tp + fn)``: the share of ``reference``'s object found
    in ``result`` (medpy's ``recall``; not symmetric). Parameters as
    :func:`dc`.

    Returns
    -------
    numpy.float64
        NaN, with NumPy's RuntimeWarning ("invalid value encountered in
        divide"), when ``reference`` is empty.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.segmentation.medpy import recall
    >>> recall(np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0]))
    np.float64(1.0)
    """
    tp, _, fn, _ = _counts(*_masks(result, reference))
    return tp / float(tp + fn)


def sensitivity(result: Any, reference: Any) -> np.float64:
    """Sensitivity: :func:`recall` (medpy's ``sensitivity``)."""
    return recall(result, reference)


def specificity(result: Any, reference: Any) -> np.float64:
    """Specificity ``tn / (tn + fp)``: the share of ``reference``'s
    background that ``result`` leaves out (medpy's ``specificity``; not
    symmetric). Parameters as :func:`dc`.

    Returns
    -------
    numpy.float64
        NaN, with NumPy's RuntimeWarning ("invalid value encountered in
        divide"), when ``reference`` has no background.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.segmentation.medpy import specificity
    >>> specificity(np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0]))
    np.float64(0.6666666666666666)
    """
    _, fp, _, tn = _counts(*_masks(result, reference))
    return tn / float(tn + fp)


def _distances(result: Any, reference: Any, voxelspacing: Any, connectivity: int) -> Directed:
    first, second = _masks(result, reference)
    if first.shape != second.shape:
        raise ValueError(f"result and reference have different shapes: {first.shape} and {second.shape}.")
    if not 1 <= first.ndim <= 3:
        raise ValueError(f"result must have 1, 2 or 3 dimensions, got shape {first.shape}.")
    spacing = check_spacing(voxelspacing, first.ndim)
    conn = check_connectivity(connectivity)
    if np.count_nonzero(first) == 0:
        raise RuntimeError("The first supplied array does not contain any binary object.")
    if np.count_nonzero(second) == 0:
        raise RuntimeError("The second supplied array does not contain any binary object.")
    return binary_distances(first, second, spacing, conn)


def hd(result: Any, reference: Any, voxelspacing: Any = None, connectivity: int = 1) -> np.float64:
    """Hausdorff distance: the largest distance from a boundary pixel of
    either object to the other object's boundary (medpy's ``hd``).

    Parameters
    ----------
    result, reference : array-like, same shape, 1 to 3 dimensions
        Binary masks (anything non-zero is the object).
    voxelspacing : float or sequence of float, default=None
        Pixel size per axis (one number for all axes; None: 1).
    connectivity : int, default=1
        Connectivity of the structuring element that defines the boundary.

    Returns
    -------
    numpy.float64

    Raises
    ------
    RuntimeError
        When either mask holds no object, with medpy's messages (``result``
        is checked first).
    """
    d = _distances(result, reference, voxelspacing, connectivity)
    return np.float64(max(d.a_to_b.max(), d.b_to_a.max()))


def hd95(result: Any, reference: Any, voxelspacing: Any = None, connectivity: int = 1) -> np.float64:
    """95th percentile of the distances of both directions pooled (medpy's
    ``hd95``: ``np.percentile`` with linear interpolation). Parameters,
    return and errors as :func:`hd`."""
    d = _distances(result, reference, voxelspacing, connectivity)
    return np.float64(np.percentile(np.hstack((d.a_to_b, d.b_to_a)), 95))


def assd(result: Any, reference: Any, voxelspacing: Any = None, connectivity: int = 1) -> np.float64:
    """Average symmetric surface distance: the mean of the distances of both
    directions pooled (medpy 0.5.2's ``assd``). Parameters, return and
    errors as :func:`hd`."""
    d = _distances(result, reference, voxelspacing, connectivity)
    return np.float64(np.concatenate([d.a_to_b, d.b_to_a]).mean())


def asd(result: Any, reference: Any, voxelspacing: Any = None, connectivity: int = 1) -> np.float64:
    """Average surface distance from ``result``'s boundary to
    ``reference``'s (medpy's ``asd``, not symmetric). Parameters, return and
    errors as :func:`hd`."""
    d = _distances(result, reference, voxelspacing, connectivity)
    return np.float64(d.a_to_b.mean())
