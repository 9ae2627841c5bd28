"""Hypothesis strategies of the surface-distance tests: pairs of binary
masks and label maps of 1 to 3 dimensions, random or blob-shaped, with
objects touching the border, empty ones and single pixels, and spacings."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st


def blobs(rng: np.random.Generator, shape: tuple[int, ...], k: int) -> np.ndarray:
    """A coherent label map: the label of the nearest of a few random seeds."""
    grid = np.indices(shape).reshape(len(shape), -1).T
    seeds = rng.integers(0, np.array(shape), size=(int(rng.integers(1, 6)), len(shape)))
    labels = rng.integers(0, k, size=len(seeds))
    nearest = ((grid[:, None, :] - seeds[None, :, :]) ** 2).sum(-1).argmin(1)
    return labels[nearest].reshape(shape)


@st.composite
def label_pairs(draw: st.DrawFn, max_dims: int = 3, max_side: int = 12, max_classes: int = 5, min_dims: int = 1):
    """(a, b, k): two label maps of one shape with labels in [0, k)."""
    ndim = draw(st.integers(min_dims, max_dims))
    shape = tuple(draw(st.lists(st.integers(1, max_side), min_size=ndim, max_size=ndim)))
    k = draw(st.integers(1, max_classes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["random", "blobs", "sparse"]))
    maps = []
    for _ in range(2):
        if kind == "random":
            m = rng.integers(0, k, size=shape)
        elif kind == "blobs":
            m = blobs(rng, shape, k)
        else:  # mostly background, a few pixels of the other classes
            m = np.where(rng.random(shape) < 0.1, rng.integers(0, k, size=shape), 0)
        maps.append(m.astype(np.int64))
    return maps[0], maps[1], k


@st.composite
def mask_pairs(draw: st.DrawFn, max_dims: int = 3, max_side: int = 12, min_dims: int = 1):
    """(a, b): two bool masks of one shape (either may be empty)."""
    a, b, _ = draw(label_pairs(max_dims=max_dims, max_side=max_side, max_classes=3, min_dims=min_dims))
    cls = draw(st.integers(0, 2))
    return a == cls, b == cls


def spacings(ndim: int):
    """None, or one finite positive spacing per axis (anisotropic)."""
    value = st.floats(0.25, 4.0, allow_nan=False, allow_infinity=False)
    return st.one_of(st.none(), st.lists(value, min_size=ndim, max_size=ndim).map(tuple))
