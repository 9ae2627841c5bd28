"""The calibration and score benchmarks' data (fixed seed)."""

from __future__ import annotations

import numpy as np


def make_probabilities(
    n: int, k: int
) -> tuple[np.random.Generator, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rng, proba, y, p1, y1, w): Dirichlet(0.3) class probabilities (n, k) with
    uniform class labels y; a binary column p1 = proba[:, 0] renormalised
    against proba[:, 1] with labels y1 drawn from it; uniform weights w. The
    generator is returned for further draws."""
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.full(k, 0.3), n)
    y = rng.integers(0, k, n)
    p1 = proba[:, 0] / proba[:, :2].sum(axis=1)
    y1 = (rng.random(n) < p1).astype(np.int64)
    w = rng.random(n)
    return rng, proba, y, p1, y1, w
