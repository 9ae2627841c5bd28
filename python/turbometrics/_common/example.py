"""Synthetic scored binary predictions, for the CLI, benchmarks and tests.

The data imitate the output of a fitted logistic model: each sample has a
latent log-odds, its label is drawn from the matching Bernoulli
distribution, and its score is the model's (noisy) estimate of that
probability. Rounding the scores produces the many tied values that real
classifiers emit, which is the case ranking metrics must handle carefully.
"""

from __future__ import annotations

import numpy as np

__all__ = ["example_data", "synthetic_scores"]

# Mean and spread of the latent log-odds; with these about 30% of the
# labels are positive.
_LOGIT_MEAN = -1.2
_LOGIT_SCALE = 1.5
# Spread of the model's error on the log-odds scale (a perfect model has 0).
_MODEL_NOISE = 1.0


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """Logistic function, computed in place on ``z`` and returned."""
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1.0
    np.reciprocal(z, out=z)
    return z


def synthetic_scores(n: int, seed: int = 0, decimals: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n`` labelled scores from a noisy logistic model.

    Parameters
    ----------
    n : int
        Number of samples; must be non-negative.
    seed : int, default=0
        Seed of the :func:`numpy.random.default_rng` generator, so the same
        arguments always give the same arrays.
    decimals : int or None, default=None
        Round the scores to this many decimals (creating ties); ``None``
        keeps full float64 precision, where ties are very rare.

    Returns
    -------
    y_true : ndarray of shape (n,), dtype int64
        Binary labels in {0, 1}, about 30% of them 1.
    y_score : ndarray of shape (n,), dtype float64
        Predicted probability of the positive class, in [0, 1].
    """
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
    rng = np.random.default_rng(seed)
    logit = rng.normal(_LOGIT_MEAN, _LOGIT_SCALE, size=n)
    estimate = logit + rng.normal(0.0, _MODEL_NOISE, size=n)
    y_true = (rng.random(n) < _sigmoid(logit)).astype(np.int64)
    y_score = _sigmoid(estimate)
    if decimals is not None:
        np.round(y_score, decimals, out=y_score)
    return y_true, y_score


def example_data(n: int = 1_000_000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The built-in example of ``turbometrics evaluate``.

    Scores from a noisy logistic model rounded to 3 decimals, so there are
    at most 1001 distinct scores and heavy ties; about 30% of the labels are
    positive and the ROC AUC is about 0.76.

    Parameters
    ----------
    n : int, default=1_000_000
        Number of samples.
    seed : int, default=0
        Random seed; the result is a deterministic function of ``n`` and
        ``seed``.

    Returns
    -------
    y_true : ndarray of shape (n,), dtype int64
        Binary labels in {0, 1}.
    y_score : ndarray of shape (n,), dtype float64
        Scores in [0, 1] with 3 decimals.

    Examples
    --------
    >>> from turbometrics._common.example import example_data
    >>> y_true, y_score = example_data(1000)
    >>> y_true.shape, y_score.shape
    ((1000,), (1000,))
    """
    return synthetic_scores(n, seed=seed, decimals=3)
