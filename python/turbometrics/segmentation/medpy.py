"""Drop-ins for the surface distances of medpy 0.5.2's ``medpy.metric.binary``:
``hd``, ``hd95``, ``assd`` and ``asd``, with medpy's signatures, return types
(NumPy float64 scalars) and empty rules (RuntimeError).

The values are medpy's within 1e-12 (bit for bit with unit or integer
spacing): the same boundaries (the object minus its erosion by
``generate_binary_structure(ndim, connectivity)``, the image border counting
as background) and exact Euclidean distances, computed over the bounding
box of the two objects instead of the whole image. Masks of 1 to 3
dimensions are accepted (medpy takes any dimension).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._surface_kernel import Directed, binary_distances, check_connectivity, check_spacing

__all__ = ["asd", "assd", "hd", "hd95"]


def _distances(result: Any, reference: Any, voxelspacing: Any, connectivity: int) -> Directed:
    first = np.atleast_1d(np.asarray(result).astype(np.bool_))
    second = np.atleast_1d(np.asarray(reference).astype(np.bool_))
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
