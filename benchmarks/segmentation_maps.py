"""Label maps shared by the segmentation benchmarks (bench_segmentation.py,
bench_segmentation_metrics.py, bench_surface_distance.py).

The issue's three dataset presets (``--dataset``):

* ``cityscapes``: 1024 x 2048 maps, 19 classes, 2 maps in a batch;
* ``ade20k``: 512 x 512 maps, 150 classes, 8 maps in a batch;
* ``ct``: one 300 x 512 x 512 volume (slices, rows, columns), 14 classes
  (background and 13 organs, as BTCV's abdominal CT).

The 2-D maps are blobs: Voronoi regions of 60 seeds (class labels drawn at
random), the prediction being the same regions with every seed moved by
about 4 pixels, so that the boundaries differ as a model's do. The CT volume
is a few large organs: class 1 a body ellipsoid cut by the volume's ends,
classes 2 to 13 ellipsoids of various sizes inside it (the larger painted
first), the rest air (class 0); the prediction moves each organ by about 2
voxels and scales its radii by about 5 %. ``--quick`` divides every side by 8
(a smoke test), and ``--slices N`` keeps the central N slices of each map's
first axis (a cropped volume, for references too slow or too large for the
whole one).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np


@dataclasses.dataclass(frozen=True)
class Dataset:
    """A preset: ``images`` maps of ``shape`` with ``classes`` classes, of
    which the central ``slices`` of the first axis are kept (all if None)."""

    name: str
    images: int
    shape: tuple[int, ...]
    classes: int
    slices: int | None = None

    @property
    def map_shape(self) -> tuple[int, ...]:
        """The shape of one map, after the crop."""
        return self.shape if self.slices is None else (self.slices, *self.shape[1:])

    def describe(self) -> str:
        sides = " x ".join(map(str, self.map_shape))
        crop = f" (the central {self.slices} of {self.shape[0]})" if self.slices is not None else ""
        count = f"{self.images} maps of " if self.images > 1 else "one map of "
        return f"{self.name}: {count}{sides}{crop}, {self.classes} classes"


DATASETS = {
    "cityscapes": Dataset("cityscapes", 2, (1024, 2048), 19),
    "ade20k": Dataset("ade20k", 8, (512, 512), 150),
    "ct": Dataset("ct", 1, (300, 512, 512), 14),
}


def preset(name: str, *, quick: bool = False, slices: int | None = None) -> Dataset:
    """The preset ``name``; with ``quick`` every side divided by 8 (at least
    8 pixels) and at most 2 maps; ``slices`` as in :class:`Dataset`."""
    dataset = DATASETS[name]
    if quick:
        shape = tuple(max(8, side // 8) for side in dataset.shape)
        dataset = dataclasses.replace(dataset, shape=shape, images=min(2, dataset.images))
    if slices is not None and not 0 < slices <= dataset.shape[0]:
        raise SystemExit(f"--slices must be in 1..{dataset.shape[0]} for {name}")
    return dataclasses.replace(dataset, slices=slices)


def dataset_maps(dataset: Dataset, *, batch: bool = True, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_pred)`` uint8 for the preset: a batch (images, *map_shape)
    with ``batch``, else one map of ``map_shape`` (the first image's). A
    cropped map is the central slices of the whole one."""
    make = organs if dataset.name == "ct" else regions
    pairs = [make(dataset.shape, dataset.classes, seed=seed + i) for i in range(dataset.images if batch else 1)]
    start = (dataset.shape[0] - dataset.map_shape[0]) // 2
    crop = slice(start, start + dataset.map_shape[0])
    y_true, y_pred = (np.ascontiguousarray(np.stack([pair[i][crop] for pair in pairs])) for i in (0, 1))
    return (y_true, y_pred) if batch else (y_true[0], y_pred[0])


def voronoi(shape: Sequence[int], points: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The label of each pixel's nearest point (uint8), in any dimension."""
    grid = np.indices(tuple(shape), dtype=np.float32)
    best = np.full(tuple(shape), np.inf, dtype=np.float32)
    out = np.zeros(tuple(shape), dtype=np.uint8)
    for point, label in zip(points, labels, strict=True):
        distance = sum((axis - np.float32(x)) ** 2 for axis, x in zip(grid, point, strict=True))
        closer = distance < best
        best[closer] = distance[closer]
        out[closer] = label
    return out


def regions(
    shape: Sequence[int], classes: int, *, seeds: int = 60, shift: float = 4.0, noise: float = 0.0, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Voronoi regions of ``seeds`` points labelled at random, and the same
    regions with every point moved by N(0, ``shift``) pixels per axis and a
    fraction ``noise`` of the pixels relabelled at random."""
    rng = np.random.default_rng(seed)
    points = rng.uniform(0, 1, (seeds, len(shape))) * np.asarray(shape)
    labels = rng.integers(0, classes, seeds)
    moved = points + rng.normal(0, shift, points.shape)
    y_true, y_pred = voronoi(shape, points, labels), voronoi(shape, moved, labels)
    if noise:
        changed = rng.random(y_pred.shape) < noise
        y_pred[changed] = rng.integers(0, classes, int(changed.sum()))
    return y_true, y_pred


def _paint(out: np.ndarray, centre: np.ndarray, radii: np.ndarray, label: int) -> None:
    """Set the pixels of ``out`` inside the axis-aligned ellipsoid to ``label``
    (only its bounding box is computed)."""
    lo = [max(0, int(np.floor(c - r))) for c, r in zip(centre, radii, strict=True)]
    hi = [min(n, int(np.ceil(c + r)) + 1) for n, c, r in zip(out.shape, centre, radii, strict=True)]
    if any(h <= low for low, h in zip(lo, hi, strict=True)):
        return
    box = tuple(slice(low, h) for low, h in zip(lo, hi, strict=True))
    axes = np.ogrid[box]
    inside = sum(((axis - c) / r) ** 2 for axis, c, r in zip(axes, centre, radii, strict=True)) <= 1
    out[box][inside] = label


def organs(shape: Sequence[int], classes: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A CT-like volume: air (0), a body (1) and ``classes - 2`` organs, and
    a prediction with each organ moved by N(0, 2) voxels per axis and its
    radii scaled by N(1, 0.05) (the body's by N(1, 0.01))."""
    rng = np.random.default_rng(seed)
    size = np.asarray(shape, dtype=np.float64)
    body_centre, body_radii = size / 2, size * np.r_[0.7, [0.36] * (len(shape) - 1)][: len(shape)]
    shapes = []
    for _ in range(classes - 2):
        radii = size * rng.uniform(0.05, 0.16, len(shape))
        centre = body_centre + rng.uniform(-0.55, 0.55, len(shape)) * (body_radii - radii).clip(0)
        shapes.append((centre, radii))
    shapes.sort(key=lambda s: -np.prod(s[1]))
    y_true, y_pred = np.zeros(tuple(shape), np.uint8), np.zeros(tuple(shape), np.uint8)
    _paint(y_true, body_centre, body_radii, 1)
    _paint(y_pred, body_centre, body_radii * rng.normal(1, 0.01, len(shape)), 1)
    for label, (centre, radii) in enumerate(shapes, start=2):
        _paint(y_true, centre, radii, label)
        _paint(y_pred, centre + rng.normal(0, 2, len(shape)), radii * rng.normal(1, 0.05, len(shape)), label)
    return y_true, y_pred


def random_maps(shape: Sequence[int], classes: int, dtype: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Every pixel drawn independently (the worst case for counting tables)."""
    rng = np.random.default_rng(seed)
    return tuple(rng.integers(0, classes, tuple(shape)).astype(dtype) for _ in range(2))  # type: ignore[return-value]
