"""Binned Gaussian KDE (``kde(..., method="binned")``) in one and two dimensions.

Binning and interpolation are compiled (``_core.density.linear_bin``,
``_core.density.grid_interpolate``); the convolutions use NumPy's FFT.

The data are linearly binned on a regular grid of spacing ``delta = h / 16``
(16 nodes per bandwidth) covering the data's bounding box widened by ``R``
on every side, the binned weights are convolved with the Gaussian by FFT,
and the grid density is interpolated to the query points with 4-point
(cubic Lagrange) interpolation along each axis.

Error control. Linear binning moves each data point's kernel by at most a
half cell; its leading error is ``a (1 - a) delta^2 / 2 * K''`` for a point at
fraction ``a`` of its cell. That term is removed by a second binned
convolution (weights ``w a (1 - a) delta^2 / 2`` per axis, convolved with
the kernel's second derivative along that axis), which leaves an error of
order ``delta^3 K'''`` (at most ``0.016 delta^3 |K'''|``); cubic
interpolation adds at most ``(9 / 384) delta^4 |f''''|``. Where the
density is at least 1e-3 of its peak, the dominant kernels are within
about 3.7 bandwidths of the point and ``|K^(k)| / K`` is bounded, which
gives a relative error below 2e-4 with 16 nodes per bandwidth. The
guaranteed (and tested) bound is:

    |binned - exact| <= 1e-3 * exact wherever exact >= 1e-3 * max(exact).

``R = h sqrt(2 ln(1000 W / w_max))`` (W the total, w_max the largest
weight): at distance R from every data point the density is below 1e-3 of
its peak. Query points outside the grid (farther than R from the data's
bounding box along some axis) are evaluated exactly, by the same kernel sum
as ``method="exact"``. When the grid would need more than 2**22 nodes (data
spread over more than ~100 bandwidths in 2-D), the exact method is used
instead, so the bound always holds. Tiny negative values produced by FFT
round-off far in the tails are clipped to 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .. import _core
from .._common.threads import threads_for

NODES_PER_BANDWIDTH = 16
MAX_GRID_NODES = 1 << 22
_KERNEL_RADIUS = math.sqrt(2.0 * 37.0)  # exp(-37) ~ 1e-16: the truncated Gaussian's tail is below round-off


def _fast_length(size: int) -> int:
    """Smallest 5-smooth integer >= size (fast for pocketfft)."""
    best = 1 << max(0, (size - 1).bit_length())
    power5 = 1
    while power5 < best:
        power35 = power5
        while power35 < best:
            value = power35
            while value < size:
                value *= 2
            best = min(best, value)
            power35 *= 3
        power5 *= 5
    return best


def binned_density(
    data: np.ndarray,
    weights: np.ndarray | None,
    points: np.ndarray,
    kernel: str,
    h: float,
    total_weight: float,
    exact: Callable[[np.ndarray], np.ndarray],
    threads: int,
) -> np.ndarray:
    """Gaussian KDE of data (n, d), d in {1, 2}, at points (m, d) by binning and FFT.

    ``exact(points)`` must return the exact density at some points; it is
    used for points outside the grid and when the grid would be too large.
    """
    d = data.shape[1]
    if kernel != "gaussian":
        raise ValueError(f"method='binned' supports the gaussian kernel only, got kernel={kernel!r}.")
    if d > 2:
        raise ValueError(f"method='binned' is for one- and two-dimensional data; the data have {d} dimensions.")
    data = np.asarray(data, dtype=np.float64)
    points = np.ascontiguousarray(points, dtype=np.float64)
    largest_weight = 1.0 if weights is None else float(weights.max())
    delta = h / NODES_PER_BANDWIDTH
    reach = h * math.sqrt(2.0 * math.log(1000.0 * total_weight / largest_weight))
    low = data.min(axis=0) - reach - 2.0 * delta
    high = data.max(axis=0) + reach + 2.0 * delta
    sizes = [math.ceil((high[k] - low[k]) / delta) + 1 for k in range(d)]
    if math.prod(sizes) > MAX_GRID_NODES:
        return exact(points)

    # Linear binning of the weights and of the second-order corrections (C++).
    bins = _core.density.linear_bin(data, weights, [float(v) for v in low], delta, sizes)

    radius = math.ceil(_KERNEL_RADIUS * NODES_PER_BANDWIDTH)
    fft_shape = [_fast_length(size + 2 * radius) for size in sizes]
    offsets = np.arange(-radius, radius + 1) / NODES_PER_BANDWIDTH  # in bandwidths
    profile = np.exp(-0.5 * offsets * offsets)
    second = (offsets * offsets - 1.0) * profile / (h * h)  # d^2/dx^2 of the profile

    def spectrum_1d(values: np.ndarray, length: int, last: bool) -> np.ndarray:
        padded = np.zeros(length)
        padded[: values.size] = values
        padded = np.roll(padded, -radius)  # centre the kernel at index 0
        return np.fft.rfft(padded) if last else np.fft.fft(padded)

    if d == 1:
        k0 = spectrum_1d(profile, fft_shape[0], True)
        k2 = spectrum_1d(second, fft_shape[0], True)
        spectrum = np.fft.rfft(bins[0], fft_shape[0]) * k0
        spectrum -= np.fft.rfft(bins[1], fft_shape[0]) * k2
        grid = np.fft.irfft(spectrum, fft_shape[0])[: sizes[0]]
    else:
        kx0 = spectrum_1d(profile, fft_shape[0], False)[:, None]
        kx2 = spectrum_1d(second, fft_shape[0], False)[:, None]
        ky0 = spectrum_1d(profile, fft_shape[1], True)[None, :]
        ky2 = spectrum_1d(second, fft_shape[1], True)[None, :]
        spectrum = np.fft.rfft2(bins[0], fft_shape) * (kx0 * ky0)
        spectrum -= np.fft.rfft2(bins[1], fft_shape) * (kx2 * ky0)
        spectrum -= np.fft.rfft2(bins[2], fft_shape) * (kx0 * ky2)
        grid = np.fft.irfft2(spectrum, fft_shape)[: sizes[0], : sizes[1]]
    grid *= 1.0 / (total_weight * (2.0 * math.pi) ** (d / 2.0) * h**d)

    # Cubic interpolation at points within the grid (C++); exact sums outside it.
    grid = np.ascontiguousarray(grid)
    result = _core.density.grid_interpolate(
        grid, [float(v) for v in low], delta, points, threads_for(threads, points.shape[0])
    )
    outside = np.isnan(result)
    if outside.any():
        result[outside] = exact(points[outside])
    return result
