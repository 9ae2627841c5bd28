"""BinnedRankingState: fixed-memory ranking summaries with proven error bounds.

Scores are mapped to ``n_bins`` bins by a non-decreasing function of the
score, and each bin keeps only its positive and negative weight. Pairs of
samples in different bins are ordered exactly; only the order inside a bin
is lost, which bounds the error of every metric:

* ROC AUC (ties count one half): counting each same-bin (positive,
  negative) pair one half, the error of a pair is at most 1/2, so
  ``|AUC - value| <= sum_b pos_b * neg_b / (2 P N)``.
* Average precision (scikit-learn's step sum, ties sharing the precision
  at the end of their group): entering bin b with cumulative weights
  (T, F), the precision credited to positive weight at cumulative
  ``T + x`` lies between ``(T + x) / (T + F + neg_b + x)`` (every negative
  of the bin first) and ``(T + pos_b) / (T + F + pos_b)`` (the bin's
  positives as one tie group before its negatives), so the bin contributes
  between ``(pos_b - (F + neg_b) * log1p(pos_b / (T + F + neg_b))) / P``
  (the integral of the lower precision; for counts of at most 64
  positives the sum ``sum_k (T + k) / (T + F + neg_b + k) / P``) and
  ``pos_b * (T + pos_b) / (T + F + pos_b) / P``; ``value`` is the middle of
  the summed interval and ``max_error`` its half-width.

Both bounds need non-negative weights (a bin's sums can hide weights of
both signs, whose order inside the bin no bound on the sums can cover), so
the state refuses negative sample weights.

Bounds are for exact arithmetic; ``max_error`` is widened by 1e-12 (relative)
and 1e-13 (absolute) to cover floating-point rounding.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, cast

import numpy as np

from .. import _core
from .._common.mergeable import (
    ClassWeights,
    Serialisable,
    check_counts_or_weights,
    check_keys,
    check_mergeable,
    check_merged_counts,
    merged_pos_label,
    part_array,
    part_bool,
    part_choice,
    part_int,
    part_label,
)
from .._common.params import validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import ALL_ZERO_WEIGHTS, as_array, column_or_1d, num_samples, type_of_target
from ._binary_input import prepare_binary
from ._scores import average_precision_score, roc_auc_score

_PARTS = ("n_bins", "strategy", "range", "pos_label", "positive", "negative", "has_positive", "has_negative")
_STRATEGIES = ("bits", "uniform")
_MAX_BITS = 24
_EXACT_SUM_COUNTS = 64  # bins with at most this many positives get the exact lower sum
_RELATIVE_SLACK = 1e-12
_ABSOLUTE_SLACK = 1e-13


class BinnedValue(NamedTuple):
    """A metric of binned data: ``|true value - value| <= max_error``."""

    value: float
    max_error: float


class BinnedRankingState(ClassWeights, Serialisable):
    """Per-bin positive and negative weight of binary ranking data.

    Parameters
    ----------
    n_bins : int, default=65536
        Number of bins; with ``strategy="bits"`` a power of two from 2 to
        2**24.
    strategy : {'bits', 'uniform'}, default='bits'
        'bits': the bin is the top ``log2(n_bins)`` bits of the score's
        order-preserving 64-bit key (float64 bit pattern with the sign
        handled; -0.0 is 0.0), i.e. bins of equal relative width,
        independent of the scores' range. 'uniform': ``n_bins`` equal bins
        over ``range``; scores outside it go to the end bins.
    range : (float, float), required for 'uniform'
        ``(lo, hi)`` with ``lo < hi``, both finite.
    pos_label : int, float, bool or str, default=None
        As in :class:`RankingState`.

    Sample weights must be non-negative: the error bounds hold only for
    them (``update`` raises ValueError for a negative weight, and a
    restored state with a negative bin is refused).

    Attributes
    ----------
    positive, negative : ndarray of shape (n_bins,)
        Weight of each class per bin, bin 0 holding the lowest scores.

    Notes
    -----
    Memory: two arrays of ``n_bins`` int64 counts (float64 weights when
    weighted), whatever the data size. Merging needs identical bins.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.clip(0.3 * y + rng.random(10_000) * 0.7, 0, 1)
    >>> state = tm.BinnedRankingState.from_arrays(y, s, n_bins=1024, strategy="uniform", range=(0.0, 1.0))
    >>> auc = state.roc_auc()
    >>> abs(auc.value - tm.roc_auc_score(y, s)) <= auc.max_error
    True
    """

    def __init__(
        self,
        n_bins: int = 65536,
        *,
        strategy: str = "bits",
        range: tuple[float, float] | None = None,
        pos_label: Any = None,
    ) -> None:
        if strategy not in _STRATEGIES:
            raise ValueError(f"strategy must be one of {_STRATEGIES}, got {strategy!r}")
        if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
            raise ValueError(f"n_bins must be a positive int, got {n_bins!r}")
        n_bins = int(n_bins)
        if strategy == "bits":
            if n_bins < 2 or n_bins > 2**_MAX_BITS or n_bins & (n_bins - 1):
                raise ValueError(
                    f"n_bins must be a power of two from 2 to 2**{_MAX_BITS} for strategy='bits', got {n_bins}"
                )
            if range is not None:
                raise ValueError("range is only used with strategy='uniform'")
        else:
            if range is None or len(range) != 2:
                raise ValueError("strategy='uniform' needs range=(lo, hi)")
            lo, hi = float(range[0]), float(range[1])
            if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise ValueError(f"range must be finite with lo < hi, got {range!r}")
            range = (lo, hi)
        self.n_bins = n_bins
        self.strategy = strategy
        self.range = range
        self.pos_label = pos_label
        self._positive = np.zeros(n_bins, np.int64)
        self._negative = np.zeros(n_bins, np.int64)
        self._has_positive = False
        self._has_negative = False

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        n_bins: int = 65536,
        strategy: str = "bits",
        range: tuple[float, float] | None = None,
        n_threads: int | None = None,
    ) -> BinnedRankingState:
        """The binned state of one data set."""
        state = cls(n_bins, strategy=strategy, range=range, pos_label=pos_label)
        return state.update(y_true, y_score, sample_weight=sample_weight, n_threads=n_threads)

    @validate_params({}, bind_like_scikit_learn=False)  # array inputs as NumPy
    def update(
        self, y_true: Any, y_score: Any, *, sample_weight: Any = None, n_threads: int | None = None
    ) -> BinnedRankingState:
        """Add a batch in place (validated as the in-memory functions
        validate it; an empty batch adds nothing); returns self."""
        resolve_threads(n_threads)
        if num_samples(y_true) == 0 and num_samples(y_score) == 0:
            column_or_1d(as_array(y_score))
            if sample_weight is not None:
                self._promote()
            return self
        target = type_of_target(y_true, input_name="y_true")
        try:
            data = prepare_binary(target, y_score, self.pos_label, sample_weight)
        except ValueError as error:
            if str(error) != ALL_ZERO_WEIGHTS:
                raise
            # A batch of zero weights adds no weight (the metrics raise
            # scikit-learn's error when all the data's weights are zero).
            data = prepare_binary(target, y_score, self.pos_label, None)
            data.weights = np.zeros(data.scores.shape[0])
        is_positive = data.is_positive.astype(bool, copy=False)
        if data.weights is not None:
            if data.weights.size and data.weights.min() < 0:
                raise ValueError(
                    "BinnedRankingState needs non-negative sample weights: its error bounds hold only for them"
                )
            self._promote()
        # One counting pass: sample i goes to cell 2 * bin + is_positive.
        cells = np.bincount(self.bins_of(data.scores) * 2 + is_positive, data.weights, minlength=2 * self.n_bins)
        self._positive, self._negative = _finite_sums(self._positive, cells[1::2], self._negative, cells[0::2])
        positives = int(np.count_nonzero(is_positive))
        self._has_positive |= positives > 0
        self._has_negative |= positives < is_positive.shape[0]
        return self

    def bins_of(self, scores: Any) -> np.ndarray:
        """The bin (0 = lowest scores) of each score: a non-decreasing
        function of the score."""
        values = np.add(np.asarray(scores), 0.0, dtype=np.float64)  # one pass, one array; -0.0 -> 0.0
        if self.strategy == "uniform":
            lo, hi = cast(tuple[float, float], self.range)  # set whenever the strategy is uniform
            # Halved so that no difference overflows; every step is monotone.
            with np.errstate(over="ignore"):
                position = np.floor((values * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5) * self.n_bins)
            return np.clip(position, 0, self.n_bins - 1).astype(np.int64)
        bits = values.view(np.uint64)
        negative = (bits >> np.uint64(63)).astype(bool)
        keys = np.where(negative, ~bits, bits | np.uint64(1 << 63))
        shift = np.uint64(64 - (self.n_bins.bit_length() - 1))
        return (keys >> shift).astype(np.int64)

    def _promote(self) -> None:
        self._positive = self._positive.astype(np.float64, copy=False)
        self._negative = self._negative.astype(np.float64, copy=False)

    # -- merging -----------------------------------------------------------------------------
    def merge(self, other: BinnedRankingState) -> BinnedRankingState:
        """The state of both data sets (a new state); bins must be identical."""
        check_mergeable(self, other, ("n_bins", "strategy", "range"))
        result = BinnedRankingState(
            self.n_bins,
            strategy=self.strategy,
            range=self.range,
            pos_label=merged_pos_label(self.pos_label, other.pos_label),
        )
        result._positive, result._negative = _finite_sums(
            self._positive, other._positive, self._negative, other._negative
        )
        result._has_positive = self._has_positive or other._has_positive
        result._has_negative = self._has_negative or other._has_negative
        return result

    # -- metrics -----------------------------------------------------------------------------
    def roc_auc(self, *, n_threads: int | None = None) -> BinnedValue:
        """ROC AUC with same-bin pairs counted one half, and the bound
        ``sum_b pos_b neg_b / (2 P N)`` on its distance to the AUC of the
        unbinned data (the weights are non-negative). NaN (with
        scikit-learn's warning) when a class is absent or has no positive
        total weight."""
        self._check_some_weight()
        if not (self._has_positive and self._has_negative):
            one_class = np.array([1] if self._has_positive else [0])
            return BinnedValue(roc_auc_score(one_class, np.zeros(1)), math.nan)
        positive, negative = self._descending()
        if self.weighted:  # the AUC does not change when a class's weights are scaled
            positive, negative = _scaled(positive, positive, -31), _scaled(negative, negative, -31)
        total_positive, total_negative = float(positive.sum()), float(negative.sum())
        if not (total_positive > 0 and total_negative > 0):
            return BinnedValue(math.nan, math.nan)
        scores = np.arange(positive.shape[0] - 1, -1, -1, dtype=np.int64)
        threads = threads_for(resolve_threads(n_threads), positive.shape[0])
        area, _, _ = _core.ranking_tables.roc_auc(scores, positive, negative, None, threads)
        same_bin = float(np.dot(positive.astype(np.float64), negative.astype(np.float64)))
        bound = same_bin / (2.0 * total_positive * total_negative)
        return BinnedValue(float(area), _widened(bound))

    def average_precision(self) -> BinnedValue:
        """Average precision: the middle of the interval the bins allow,
        and its half-width (see the module notes). 0.0 with scikit-learn's
        warning when there is no positive weight."""
        self._check_some_weight()
        positive, negative = self._descending()
        positive, negative = positive.astype(np.float64), negative.astype(np.float64)
        if self.weighted:  # nor the average precision when all weights are
            both = np.concatenate([positive, negative])
            positive, negative = _scaled(positive, both, 480), _scaled(negative, both, 480)
        total_positive = float(positive.sum())
        if total_positive == 0:
            return BinnedValue(average_precision_score(np.zeros(1), np.zeros(1)), 0.0)
        before_positive = np.cumsum(positive) - positive
        before_negative = np.cumsum(negative) - negative
        predicted_high = before_positive + before_negative + positive
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            upper = np.where(positive > 0, positive * (before_positive + positive) / predicted_high, 0.0)
            entering = before_positive + before_negative + negative
            ratio = positive / entering
            growth = np.log1p(ratio)
            # A ratio past float64 (weights over 2**1000 apart): log1p(ratio) as a difference of logs
            overflow = np.isinf(ratio) & (entering > 0)
            growth[overflow] = np.log(positive[overflow]) - np.log(entering[overflow])
            lower = np.where(entering > 0, positive - (before_negative + negative) * growth, positive)
        if np.any((positive > 0) & (upper == 0)):
            raise ValueError(
                "the average precision bound of these weights underflows float64: some positive "
                "weight is below about 2**-1000 times the largest weight"
            )
        if not self.weighted:
            # Counts: the k-th positive's precision is at least
            # (T + k) / (T + F + neg + k); summed exactly for small bins.
            small = (positive > 0) & (positive <= _EXACT_SUM_COUNTS)
            exact = np.zeros(int(small.sum()))
            top, rest = before_positive[small], before_positive[small] + before_negative[small] + negative[small]
            for k in range(1, _EXACT_SUM_COUNTS + 1):
                exact += np.where(k <= positive[small], (top + k) / (rest + k), 0.0)
            lower[small] = exact
        lower = np.where(positive > 0, lower, 0.0)
        low, high = math.fsum(lower) / total_positive, math.fsum(upper) / total_positive
        return BinnedValue((low + high) / 2.0, _widened((high - low) / 2.0))

    # The names of the functions (``state.roc_auc_score()`` is ``state.roc_auc()``).
    roc_auc_score = roc_auc
    average_precision_score = average_precision

    def _check_some_weight(self) -> None:
        if (
            self.weighted
            and (self._has_positive or self._has_negative)
            and not (np.any(self._positive) or np.any(self._negative))
        ):
            raise ValueError(ALL_ZERO_WEIGHTS)

    def _descending(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-bin weights of the non-empty bins, highest scores first."""
        occupied = (self._positive != 0) | (self._negative != 0)
        return (
            np.ascontiguousarray(self._positive[occupied][::-1]),
            np.ascontiguousarray(self._negative[occupied][::-1]),
        )

    # -- serialisation ---------------------------------------------------------------------
    def _parts(self) -> dict[str, Any]:
        """The state's parts (see :class:`Serialisable`)."""
        return {
            "n_bins": self.n_bins,
            "strategy": self.strategy,
            "range": None if self.range is None else list(self.range),
            "pos_label": self.pos_label,
            "positive": self._positive,
            "negative": self._negative,
            "has_positive": self._has_positive,
            "has_negative": self._has_negative,
        }

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> BinnedRankingState:
        """The state of validated parts: bins as the constructor checks
        them; ``positive`` and ``negative`` of ``n_bins`` rows, both int64
        counts (non-negative, totalling < 2**62) or both finite non-negative
        float64 weights; ``has_positive`` / ``has_negative`` true where a bin holds
        weight of the class (and, counts, only there)."""
        check_keys("BinnedRankingState", parts, _PARTS)
        bins = _part_range(parts)
        n_bins = part_int(parts, "n_bins", low=1)
        positive, negative = part_array(parts, "positive", "if", 1), part_array(parts, "negative", "if", 1)
        if positive.dtype != negative.dtype or positive.shape != (n_bins,) or negative.shape != (n_bins,):
            raise ValueError(f"positive and negative must be of one dtype, with n_bins = {n_bins} rows")
        state = cls(  # after the shapes: the constructor allocates n_bins rows
            n_bins,
            strategy=part_choice(parts, "strategy", _STRATEGIES),
            range=bins,
            pos_label=part_label(parts),
        )
        check_counts_or_weights("positive", positive, non_negative_weights=True)
        check_counts_or_weights("negative", negative, non_negative_weights=True)
        state._positive, state._negative = positive, negative
        for name, weights in (("has_positive", positive), ("has_negative", negative)):
            has, nonzero = part_bool(parts, name), bool(np.any(weights != 0))
            if (nonzero and not has) or (has != nonzero and not state.weighted):
                raise ValueError(f"{name} disagrees with the bins")
            setattr(state, "_" + name, has)
        return state

    def __repr__(self) -> str:
        return (
            f"BinnedRankingState(n_bins={self.n_bins}, strategy={self.strategy!r}, range={self.range!r}, "
            f"positive={self._positive.sum()}, negative={self._negative.sum()})"
        )


def _part_range(parts: dict[str, Any]) -> tuple[float, float] | None:
    """The ``range`` part: None or two real numbers."""
    value = parts["range"]
    if value is None:
        return None
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(
            isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_)) for x in value
        )
    ):
        raise ValueError(f"range must be None or two numbers, got {value!r}")
    return float(value[0]), float(value[1])


def _finite_sums(
    positive: np.ndarray, more_positive: np.ndarray, negative: np.ndarray, more_negative: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The per-bin sums; ValueError if counts would total 2**62 or more or
    a float64 sum overflows."""
    check_merged_counts("positive", positive, more_positive)
    check_merged_counts("negative", negative, more_negative)
    with np.errstate(over="ignore"):
        positive, negative = positive + more_positive, negative + more_negative
    if positive.dtype.kind == "f" and not (np.isfinite(positive).all() and np.isfinite(negative).all()):
        raise ValueError("a bin's weight overflows float64 (weights sum past 1.8e308)")
    return positive, negative


def _scaled(weights: np.ndarray, among: np.ndarray, exponent: int) -> np.ndarray:
    """``weights`` times the power of two that brings the largest magnitude
    ``among`` to [2**exponent, 2**(exponent + 1)): exact but for weights
    below 2**-1000 times the largest, so metrics of ratios of the weights
    are unchanged, and sums of up to 2**24 bins (and, from exponent 480,
    products of two weights) neither overflow nor underflow for weights
    of 1e308 or 5e-324."""
    largest = float(np.abs(among).max()) if among.size else 0.0
    if largest == 0.0:
        return weights
    return np.ldexp(weights, exponent + 1 - math.frexp(largest)[1])


def _widened(bound: float) -> float:
    return bound * (1.0 + _RELATIVE_SLACK) + _ABSOLUTE_SLACK
