"""Hypothesis strategies of label-map pairs shared by the segmentation
metric tests: random and blob-shaped maps, 2-D and 3-D, with absent
classes, ignored pixels and empty predictions or ground truth."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st


def _blobs(rng: np.random.Generator, shape: tuple[int, ...], k: int) -> np.ndarray:
    """Blob-shaped labels: a coarse random grid upsampled to ``shape``."""
    coarse = rng.integers(0, k, tuple(max(1, s // 4) for s in shape))
    index = np.ix_(*[np.minimum(np.arange(s) // 4, c - 1) for s, c in zip(shape, coarse.shape)])
    return coarse[index]


@st.composite
def map_pairs(draw, max_classes: int = 6, ignore: bool = True, three_d: bool = True):
    """(y_true, y_pred, k, ignore_index): (n, ...) int maps with n >= 1."""
    k = draw(st.integers(1, max_classes))
    n = draw(st.integers(1, 3))
    dims = draw(st.sampled_from([2, 3] if three_d else [2]))
    shape = (n, *draw(st.tuples(*[st.integers(1, 9)] * dims)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["random", "blobs", "empty_pred", "empty_true", "absent", "equal"]))
    present = k if kind != "absent" else max(1, k // 2)  # classes >= present never occur
    y_true = _blobs(rng, shape, present) if kind == "blobs" else rng.integers(0, present, shape)
    y_pred = _blobs(rng, shape, present) if kind == "blobs" else rng.integers(0, present, shape)
    if kind == "empty_pred":
        y_pred[:] = 0  # every class but 0 predicted nowhere
    if kind == "empty_true":
        y_true[:] = 0
    if kind == "equal":
        y_pred = y_true.copy()
    ignore_index = None
    if ignore and draw(st.booleans()):
        ignore_index = 255
        y_true = np.where(rng.random(shape) < 0.2, 255, y_true)
    return y_true.astype(np.int64), y_pred.astype(np.int64), k, ignore_index


def torch_formats(y_true, y_pred, k, input_format):
    """(preds, target) tensors in ``input_format`` ("one-hot-float": random
    scores whose argmax is the label), as torchmetrics' drop-in tests pass
    them; torch is imported here, by the tests that have it."""
    import torch

    target, preds = torch.from_numpy(y_true), torch.from_numpy(y_pred)
    if input_format == "index":
        return preds, target, "index"

    def encoded(labels):
        return torch.nn.functional.one_hot(labels, k).movedim(-1, 1)

    if input_format == "one-hot":
        return encoded(preds), encoded(target), "one-hot"
    if input_format == "one-hot-float":
        scores = torch.rand(encoded(preds).shape, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
        return scores + 2.0 * encoded(preds), encoded(target).double(), "one-hot"
    return encoded(preds), target, "mixed"
