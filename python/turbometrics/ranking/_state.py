"""RankingState: a mergeable summary of binary ranking data.

The state is the ranking primitive itself: the table of distinct scores in
descending order with the positive and negative weight at each (per row,
not cumulative). The table of two data sets' concatenation is the linear
merge of their tables, so states built anywhere (per batch, per worker,
per shard) merge into the table of all the data, and every metric is the
in-memory function's sweep over that table.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from .. import _core
from .._common.mergeable import (
    ClassWeights,
    Serialisable,
    check_counts_or_weights,
    check_keys,
    check_mergeable,
    check_merged_counts,
    check_sorted_distinct,
    merged_pos_label,
    part_array,
    part_bool,
    part_int,
    part_label,
)
from .._common.params import BOOLEAN, NONE, real_interval, str_options, validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import ALL_ZERO_WEIGHTS, as_array, column_or_1d, num_samples, type_of_target
from ._binary_input import kernel_scores, prepare_binary, scores_in_dtype
from ._intervals import (
    _CONFIDENCE,
    _POSITIVE_INT,
    _RANDOM_STATE,
    ConfidenceInterval,
    bootstrap_auc_interval,
    delong_interval,
    roc_auc_ci,
)
from ._scores import (
    _warn_if_no_positive,
    _warn_if_one_class,
    average_precision_score,
    precision_recall_curve,
    roc_auc_from_area,
    roc_auc_score,
    roc_curve,
)
from ._thresholds import _POSITIVE_REAL, BestThreshold, best_threshold

_PARTS = ("pos_label", "scores", "score_dtype", "positive", "negative", "samples", "has_positive", "has_negative")
_THRESHOLD_METRICS = {"f1", "fbeta", "youden", "accuracy", "balanced_accuracy", "mcc"}


class RankingState(ClassWeights, Serialisable):
    """The table of distinct scores of binary ranking data; mergeable.

    ``RankingState()`` is empty; :meth:`from_arrays` builds a state from
    data and :meth:`update` adds a batch in place. ``a.merge(b)`` (or
    ``a + b``, ``sum(states)``) is the state of both data sets. Metrics
    (:meth:`roc_auc`, :meth:`average_precision`, :meth:`roc_curve`,
    :meth:`precision_recall_curve`, :meth:`best_threshold`,
    :meth:`roc_auc_ci`) equal the in-memory functions on all the data
    (scikit-learn 1.9.1's values, warnings and errors) with ``y_true`` the
    indicator of ``pos_label``: bit for bit when unweighted, whatever the
    split and merge order; to rounding (rtol 1e-12) when weighted, where
    weights are summed per row, then cumulated.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class of the labels given to :meth:`update`. None:
        labels must be {0, 1} or {-1, 1} (1 is positive), as in
        scikit-learn.

    Attributes
    ----------
    scores : ndarray
        Distinct scores, descending, in the score dtype (that of
        ``np.concatenate`` of all batches' scores; -0.0 and 0.0 are one
        score, carrying the sign of the last zero seen).
    positive, negative : ndarray of int64 (unweighted) or float64 (weighted)
        Weight of each class at each score.
    weighted : bool
        Whether weights were given (merging weighted with unweighted data
        promotes to weighted: unweighted samples weigh 1).
    pos_label
        The positive class used by :meth:`update`.

    Notes
    -----
    Memory is O(distinct scores): a score plus two 8-byte weights per row.
    Labels, scores and weights are validated per batch, as the in-memory
    functions validate them (same errors); a batch may be empty, and a
    batch whose weights are all zero adds no rows (the error scikit-learn
    raises for all-zero weights is raised by the metrics when all the
    data's weights are zero).

    Weights may be negative, as in scikit-learn. :meth:`roc_auc` then
    follows scikit-learn on the curve: where the false positive rate
    decreases somewhere it raises scikit-learn's ValueError "x is neither
    increasing nor decreasing : [...]", else it returns the trapezoids'
    area (which may lie outside [0, 1]). The state keeps each score's summed
    weights, not the samples, so the rates in that message print zeros as
    0. where scikit-learn's per-sample cumulative sums may give -0.

    Examples
    --------
    >>> import turbometrics as tm
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.5, 0.9]
    >>> a = tm.RankingState.from_arrays(y[:3], s[:3])
    >>> b = tm.RankingState.from_arrays(y[3:], s[3:])
    >>> merged = a + b
    >>> merged.roc_auc() == tm.roc_auc_score(y, s)
    True
    >>> round(merged.average_precision(), 6)  # sklearn.metrics.average_precision_score: 0.866667
    0.866667
    >>> merged.scores
    array([0.9 , 0.8 , 0.5 , 0.4 , 0.35, 0.1 ])
    """

    def __init__(self, *, pos_label: Any = None) -> None:
        self.pos_label = pos_label
        # Kernel dtype; both None until data (or a dtype) is seen, and set together
        # (Any: mypy cannot follow that the one is None exactly when the other is).
        self._scores: Any = None
        self._score_dtype: Any = None
        self._positive = np.zeros(0, np.int64)
        self._negative = np.zeros(0, np.int64)
        self._samples = 0  # samples seen, zero-weight ones included
        self._has_positive = False  # a sample of each class seen
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
        n_threads: int | None = None,
    ) -> RankingState:
        """The state of one data set (validated as the in-memory functions
        validate it; empty input gives an empty state of its score dtype)."""
        return cls(pos_label=pos_label).update(y_true, y_score, sample_weight=sample_weight, n_threads=n_threads)

    @classmethod
    def from_table(cls, scores: Any, positive: Any, negative: Any, *, pos_label: Any = None) -> RankingState:
        """A state from its table: distinct scores in strictly descending
        order (NaN not allowed) and the per-row (not cumulative) weight of
        each class; integer weights (non-negative counts, totalling less
        than 2**62) make an unweighted state, finite float weights a
        weighted one. Validated as an unpickled state is (ValueError naming
        the field)."""
        scores, positive, negative = (np.asarray(a) for a in (scores, positive, negative))
        if scores.ndim != 1 or positive.shape != scores.shape or negative.shape != scores.shape:
            raise ValueError("scores, positive and negative must be 1-D arrays of one length")
        if scores.dtype.kind not in "biuf":
            raise ValueError(f"scores must be numbers, got dtype {scores.dtype}")
        weighted = positive.dtype.kind == "f" or negative.dtype.kind == "f"
        if not weighted and (positive.dtype.kind not in "biu" or negative.dtype.kind not in "biu"):
            raise ValueError("positive and negative must be integer (counts) or float (weights) arrays")
        for name, values in (("positive", positive), ("negative", negative)):
            check_counts_or_weights(name, values)  # before the cast, which would wrap uint64 counts
        weight_dtype = np.float64 if weighted else np.int64
        positive, negative = np.array(positive, weight_dtype), np.array(negative, weight_dtype)
        return cls._from_parts(
            {
                "pos_label": pos_label,
                "scores": np.array(kernel_scores(scores)),
                "score_dtype": scores.dtype.str,
                "positive": positive,
                "negative": negative,
                "samples": int(scores.shape[0]),
                "has_positive": bool(np.any(positive != 0)),
                "has_negative": bool(np.any(negative != 0)),
            }
        )

    @validate_params({}, bind_like_scikit_learn=False)  # array inputs as NumPy
    def update(
        self, y_true: Any, y_score: Any, *, sample_weight: Any = None, n_threads: int | None = None
    ) -> RankingState:
        """Add a batch in place (labels with this state's ``pos_label``);
        returns self."""
        threads = resolve_threads(n_threads)
        batch = _batch_state(y_true, y_score, sample_weight, self.pos_label, threads)
        merged = self._merged_with(batch, threads)
        self.__dict__.update(merged.__dict__)
        return self

    # -- merging -----------------------------------------------------------------------------
    def merge(self, other: RankingState, *, n_threads: int | None = None) -> RankingState:
        """The state of this state's data followed by ``other``'s (a new
        state). Associative and commutative, except that a merged zero
        score carries the sign of the later operand's zero."""
        check_mergeable(self, other)
        return self._merged_with(other, resolve_threads(n_threads))

    def _merged_with(self, other: RankingState, threads: int) -> RankingState:
        result = RankingState(pos_label=merged_pos_label(self.pos_label, other.pos_label))
        result._samples = self._samples + other._samples
        result._has_positive = self._has_positive or other._has_positive
        result._has_negative = self._has_negative or other._has_negative
        if self._score_dtype is None or other._score_dtype is None:
            source = other if self._score_dtype is None else self
            if source._score_dtype is not None:
                result._set_table(source._scores, source._positive, source._negative, source._score_dtype)
            return result
        dtype = np.result_type(self._score_dtype, other._score_dtype)
        kernel_dtype = kernel_scores(np.zeros(0, dtype)).dtype
        weight_dtype = np.float64 if self.weighted or other.weighted else np.int64
        check_merged_counts("positive", self._positive, other._positive)
        check_merged_counts("negative", self._negative, other._negative)
        a = (
            self._scores.astype(kernel_dtype, copy=False),
            self._positive.astype(weight_dtype, copy=False),
            self._negative.astype(weight_dtype, copy=False),
        )
        b = (
            other._scores.astype(kernel_dtype, copy=False),
            other._positive.astype(weight_dtype, copy=False),
            other._negative.astype(weight_dtype, copy=False),
        )
        rows = a[0].shape[0] + b[0].shape[0]
        scores, positive, negative = _core.ranking_tables.merge_tables(*a, *b, threads_for(threads, rows))
        result._set_table(scores, positive, negative, dtype)
        return result

    def _set_table(self, scores: np.ndarray, positive: np.ndarray, negative: np.ndarray, dtype: np.dtype) -> None:
        for array in (scores, positive, negative):
            array.flags.writeable = False
        self._scores, self._positive, self._negative = scores, positive, negative
        self._score_dtype = np.dtype(dtype)

    # -- the table ---------------------------------------------------------------------------
    @property
    def scores(self) -> np.ndarray:
        if self._scores is None:
            return np.zeros(0, np.float64)
        return scores_in_dtype(self._scores, self._score_dtype)

    @property
    def total_positive(self) -> Any:
        """Total positive weight: an int when unweighted, else the float64
        sum (to rounding: the sweeps cumulate row by row)."""
        return _total(self._positive)

    @property
    def total_negative(self) -> Any:
        return _total(self._negative)

    @property
    def n_samples(self) -> int:
        """Samples added, those of zero weight included."""
        return int(self._samples)

    def __len__(self) -> int:
        return int(self._positive.shape[0])

    def __repr__(self) -> str:
        kind = "weighted" if self.weighted else "unweighted"
        return (
            f"RankingState({len(self)} distinct scores, {kind}, positive={self.total_positive}, "
            f"negative={self.total_negative}, pos_label={self.pos_label!r})"
        )

    def split(self, edges: Any) -> list[RankingState]:
        """The states of score ranges: with ``edges`` strictly descending,
        bucket 0 holds scores >= edges[0], bucket i scores in
        [edges[i], edges[i-1]) and the last bucket scores below edges[-1].
        Buckets know only their rows (samples of zero weight are in none)."""
        edges = np.asarray(edges)
        if edges.ndim != 1 or (edges.dtype.kind == "f" and np.isnan(edges).any()):
            raise ValueError("edges must be a 1-D array of numbers, not NaN")
        if edges.shape[0] > 1 and not np.all(edges[1:] < edges[:-1]):
            raise ValueError("edges must be strictly descending")
        scores = self.scores
        ascending = scores[::-1]
        cuts = [0] + [int(scores.shape[0] - np.searchsorted(ascending, edge, side="left")) for edge in edges]
        cuts.append(int(scores.shape[0]))
        buckets = []
        for begin, end in itertools.pairwise(cuts):
            bucket = RankingState(pos_label=self.pos_label)
            if self._score_dtype is not None:
                bucket._set_table(
                    self._scores[begin:end], self._positive[begin:end], self._negative[begin:end], self._score_dtype
                )
            bucket._samples = end - begin
            bucket._has_positive = bool(np.any(bucket._positive != 0))
            bucket._has_negative = bool(np.any(bucket._negative != 0))
            buckets.append(bucket)
        return buckets

    # -- metrics -----------------------------------------------------------------------------
    @validate_params({"max_fpr": [real_interval(0.0, 1, "right"), NONE]}, bind_like_scikit_learn=False)
    def roc_auc(self, *, max_fpr: float | None = None, n_threads: int | None = None) -> float:
        """:func:`turbometrics.roc_auc_score` of the data (binary, positive
        = ``pos_label``): NaN with an UndefinedMetricWarning when one class
        is absent; with ``max_fpr``, McClish's standardised partial AUC."""
        degenerate = self._degenerate()
        if degenerate is not None:
            return roc_auc_score(**degenerate, max_fpr=max_fpr)
        if not (self._has_positive and self._has_negative):  # NaN with scikit-learn's warning
            one_class = np.array([1] if self._has_positive else [0])
            return roc_auc_score(one_class, np.zeros(1, self._score_dtype), max_fpr=max_fpr)
        partial_fpr = None if max_fpr is None or max_fpr == 1 else float(max_fpr)
        args, threads = self._kernel_args(n_threads)
        area, positives, negatives = _core.ranking_tables.roc_auc(*args, partial_fpr, threads)
        return roc_auc_from_area(
            area,
            positives,
            negatives,
            partial_fpr,
            lambda: _core.ranking_tables.roc_curve(*args, True, threads),
            signed=self.weighted and bool((self._positive < 0).any() or (self._negative < 0).any()),
        )

    def average_precision(self, *, n_threads: int | None = None) -> float:
        """:func:`turbometrics.average_precision_score` of the data: the
        correctly rounded exact sum of the per-threshold terms, clipped at
        0; 0.0 with a UserWarning when there is no positive weight."""
        degenerate = self._degenerate()
        if degenerate is not None:
            return average_precision_score(**degenerate)
        args, threads = self._kernel_args(n_threads)
        value, positives, _ = _core.ranking_tables.average_precision(*args, threads)
        _warn_if_no_positive(positives)
        return float(value)

    # The names of the functions (``state.roc_auc_score()`` is ``state.roc_auc()``).
    roc_auc_score = roc_auc
    average_precision_score = average_precision

    @validate_params({"drop_intermediate": [BOOLEAN]}, bind_like_scikit_learn=False)
    def roc_curve(
        self, *, drop_intermediate: bool = True, n_threads: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`turbometrics.roc_curve` of the data: (fpr, tpr,
        thresholds), thresholds float64 starting at +inf."""
        degenerate = self._degenerate()
        if degenerate is not None:
            return roc_curve(**degenerate, drop_intermediate=drop_intermediate)
        args, threads = self._kernel_args(n_threads)
        fpr, tpr, thresholds, positives, negatives = _core.ranking_tables.roc_curve(
            *args, bool(drop_intermediate), threads
        )
        _warn_if_one_class(positives, negatives)
        return fpr, tpr, thresholds

    @validate_params({"drop_intermediate": [BOOLEAN]}, bind_like_scikit_learn=False)
    def precision_recall_curve(
        self, *, drop_intermediate: bool = False, n_threads: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`turbometrics.precision_recall_curve` of the data:
        (precision, recall, thresholds), thresholds increasing in the score
        dtype."""
        degenerate = self._degenerate()
        if degenerate is not None:
            return precision_recall_curve(**degenerate, drop_intermediate=drop_intermediate)
        args, threads = self._kernel_args(n_threads)
        precision, recall, thresholds, positives, _ = _core.ranking_tables.precision_recall_curve(
            *args, bool(drop_intermediate), threads
        )
        _warn_if_no_positive(positives)
        return precision, recall, scores_in_dtype(thresholds, self._score_dtype)

    @validate_params(
        {"metric": [str_options(_THRESHOLD_METRICS)], "beta": [_POSITIVE_REAL]}, bind_like_scikit_learn=False
    )
    def best_threshold(self, metric: str = "f1", *, beta: float = 1.0, n_threads: int | None = None) -> BestThreshold:
        """:func:`turbometrics.best_threshold` of the data."""
        degenerate = self._degenerate()
        if degenerate is not None:
            return best_threshold(**degenerate, metric=metric, beta=beta)
        kernel_metric = "fbeta" if metric == "f1" else metric
        kernel_beta = 1.0 if metric == "f1" else float(beta)
        args, threads = self._kernel_args(n_threads)
        best = _core.ranking_tables.best_threshold(*args, kernel_metric, kernel_beta, threads)
        return BestThreshold(
            best["threshold"], best["value"], best["precision"], best["recall"], best["tpr"], best["fpr"]
        )

    @validate_params(
        {
            "confidence": [_CONFIDENCE],
            "method": [str_options({"delong", "bootstrap"})],
            "n_bootstraps": [_POSITIVE_INT],
            "random_state": [_RANDOM_STATE],
        },
        bind_like_scikit_learn=False,
    )
    def roc_auc_ci(
        self,
        *,
        confidence: float = 0.95,
        method: str = "delong",
        n_bootstraps: int = 2000,
        random_state: Any = None,
        n_threads: int | None = None,
    ) -> ConfidenceInterval:
        """:func:`turbometrics.roc_auc_ci` of the data (unweighted states
        only, as the in-memory function takes no weights)."""
        if self.weighted:
            raise ValueError("roc_auc_ci is not defined for a weighted state")
        degenerate = self._degenerate()
        if degenerate is not None:
            return roc_auc_ci(
                **degenerate, confidence=confidence, method=method, n_bootstraps=n_bootstraps, random_state=random_state
            )
        args, threads = self._kernel_args(n_threads)
        if method == "delong":
            return delong_interval(*_core.ranking_tables.roc_auc_delong(*args, threads), confidence)
        return bootstrap_auc_interval(
            self._scores.astype(np.float64, copy=False),
            self._positive,
            self._negative,
            confidence,
            n_bootstraps,
            random_state,
            threads,
        )

    # -- range-partition parts ---------------------------------------------------------------
    def roc_auc_part(self, above_positive: Any, above_negative: Any, *, n_threads: int | None = None) -> Any:
        """This state's rows' share of twice the ROC area, given the weight
        at higher scores: the sum over rows of
        ``negative_r * (2 * positive_above_r + positive_r)``, with
        ``positive_above_r`` including ``above_positive``. Unweighted: an
        exact int (the parts of a range partition add up to
        ``2 * P * N * AUC``); weighted: a float in weight units. The caller
        divides the sum of the parts by ``2 * P * N``."""
        if self._scores is None:
            return 0 if not self.weighted else 0.0
        args, threads = self._kernel_args(n_threads)
        return _core.ranking_tables.roc_auc_part(
            *args, self._weight(above_positive), self._weight(above_negative), threads
        )

    def average_precision_part(
        self, above_positive: Any, above_negative: Any, total_positive: Any, *, n_threads: int | None = None
    ) -> int:
        """The exact sum of this state's per-row average-precision terms,
        each computed in float64 as :meth:`average_precision` computes it
        (cumulative weights including the weight above), as an int scaled
        by ``2**AP_SCALE``. The parts of a range partition add up to the
        whole: ``max(0.0, sum(parts) / 2**AP_SCALE)`` is the average
        precision, bit for bit."""
        if self._scores is None:
            return 0
        args, threads = self._kernel_args(n_threads)
        return _core.ranking_tables.average_precision_part(
            *args, self._weight(above_positive), self._weight(above_negative), float(total_positive), threads
        )

    # -- serialisation ---------------------------------------------------------------------
    def _parts(self) -> dict[str, Any]:
        """The state's parts (see :class:`Serialisable`); ``scores`` and
        ``score_dtype`` are None until data (or a dtype) was seen."""
        return {
            "pos_label": self.pos_label,
            "scores": self._scores,
            "score_dtype": None if self._score_dtype is None else self._score_dtype.str,
            "positive": self._positive,
            "negative": self._negative,
            "samples": self._samples,
            "has_positive": self._has_positive,
            "has_negative": self._has_negative,
        }

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> RankingState:
        """The state of validated parts: scores in the kernel dtype of
        ``score_dtype``, strictly descending, not NaN; ``positive`` and
        ``negative`` of their length, both int64 counts (non-negative,
        totalling < 2**62) or both finite float64 weights; ``samples`` at
        least the rows; ``has_positive`` / ``has_negative`` true where the
        table holds weight of the class (and, counts, only there)."""
        check_keys("RankingState", parts, _PARTS)
        state = cls(pos_label=part_label(parts))
        positive, negative = part_array(parts, "positive", "if", 1), part_array(parts, "negative", "if", 1)
        if positive.dtype != negative.dtype or positive.shape != negative.shape:
            raise ValueError("positive and negative must be of one dtype and length")
        check_counts_or_weights("positive", positive)
        check_counts_or_weights("negative", negative)
        score_dtype = _score_dtype(parts["score_dtype"])
        if score_dtype is None:
            if parts["scores"] is not None or positive.shape[0] != 0:
                raise ValueError("scores: a state without score_dtype has no rows")
            state._positive, state._negative = positive, negative
        else:
            kernel = kernel_scores(np.zeros(0, score_dtype)).dtype
            scores = part_array(parts, "scores", kernel.kind, 1, wide=False)
            if scores.dtype != kernel or scores.shape != positive.shape:
                raise ValueError(
                    f"scores must be {kernel} of the length of positive and negative (score_dtype {score_dtype})"
                )
            check_sorted_distinct("scores", scores, descending=True)
            _check_scores_fit(scores, score_dtype)
            state._set_table(scores, positive, negative, score_dtype)
        state._samples = part_int(parts, "samples", low=positive.shape[0])
        state._has_positive, state._has_negative = part_bool(parts, "has_positive"), part_bool(parts, "has_negative")
        for name, weights, has in (
            ("has_positive", positive, state._has_positive),
            ("has_negative", negative, state._has_negative),
        ):
            nonzero = bool(np.any(weights != 0))
            if (nonzero and not has) or (has and state._samples == 0) or (has != nonzero and not state.weighted):
                raise ValueError(f"{name} disagrees with the table")
        return state

    # -- helpers -----------------------------------------------------------------------------
    def _kernel_args(self, n_threads: int | None) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int]:
        threads = threads_for(resolve_threads(n_threads), len(self))
        return (self._scores, self._positive, self._negative), threads

    def _weight(self, value: Any) -> Any:
        return float(value) if self.weighted else int(value)

    def _degenerate(self) -> dict | None:
        """Data the in-memory functions reject or treat specially without
        looking at the table (no sample at all, or every weight zero): the
        smallest data set with the same outcome, as keyword arguments
        (y_true, y_score and, when weighted, sample_weight); else None."""
        dtype = self._score_dtype if self._score_dtype is not None else np.dtype(np.float64)
        if self._samples == 0:
            labels = np.zeros(0, np.int64)
        elif self.weighted and len(self) == 0:
            labels = np.array([1] * self._has_positive + [0] * self._has_negative)
        else:
            return None
        data = {"y_true": labels, "y_score": np.zeros(labels.shape[0], dtype)}
        if self.weighted:
            data["sample_weight"] = np.zeros(labels.shape[0])
        return data


def _batch_state(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any, threads: int) -> RankingState:
    """The state of one batch, validated as the in-memory functions validate."""
    state = RankingState(pos_label=pos_label)
    if num_samples(y_true) == 0 and num_samples(y_score) == 0:
        scores = column_or_1d(as_array(y_score))
        weight_dtype = np.int64 if sample_weight is None else np.float64
        state._set_table(
            kernel_scores(scores).copy(), np.zeros(0, weight_dtype), np.zeros(0, weight_dtype), scores.dtype
        )
        return state
    target = type_of_target(y_true, input_name="y_true")
    data = prepare_binary(target, y_score, pos_label, sample_weight, kernel_checks=True)
    scores, is_positive, weights, kernel_threads = data.kernel_args(threads)
    try:
        with data.raising_value_errors():
            table = _core.ranking.score_table(scores, is_positive, weights, kernel_threads, data.check_values, True)
    except ValueError as error:
        if weights is None or str(error) != ALL_ZERO_WEIGHTS:
            raise
        empty = np.zeros(0, np.float64)
        table = (np.zeros(0, scores.dtype), empty, empty.copy())
    state._set_table(*table, data.score_dtype)
    state._samples = int(is_positive.shape[0])
    positives = int(np.count_nonzero(is_positive))
    state._has_positive, state._has_negative = positives > 0, positives < state._samples
    return state


def _score_dtype(value: Any) -> np.dtype | None:
    """The score dtype a state names (None, or a numeric or bool dtype)."""
    if value is None:
        return None
    try:
        dtype = np.dtype(value) if isinstance(value, str) else None
    except (TypeError, ValueError):
        dtype = None
    if dtype is None or dtype.kind not in "biuf":
        raise ValueError(f"score_dtype must be None or a numeric dtype's name, got {value!r}")
    return dtype


def _check_scores_fit(scores: np.ndarray, score_dtype: np.dtype) -> None:
    """Every score of a table (in its kernel dtype) is a value of the
    state's ``score_dtype``, as :func:`scores_in_dtype` needs: 0 or 1 for
    bool, in range for integers, exactly representable for floats, and
    finite unless ``score_dtype`` is wider than the kernel's float64 (update
    refuses infinite scores; only a long double's overflow becomes one)."""
    if score_dtype.kind == "f" and score_dtype.itemsize <= scores.dtype.itemsize and np.isinf(scores).any():
        raise ValueError(f"scores of score_dtype {score_dtype} must be finite")
    if score_dtype.kind == "b":
        fits = bool(scores.shape[0] == 0 or scores.max() <= 1)
    else:
        with np.errstate(all="ignore"):
            fits = bool(np.array_equal(scores.astype(score_dtype).astype(scores.dtype), scores))
    if not fits:
        raise ValueError(f"scores must be values of score_dtype {score_dtype}")


def _total(weights: np.ndarray) -> Any:
    return float(weights.sum()) if weights.dtype.kind == "f" else int(weights.sum())
