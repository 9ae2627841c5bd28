"""The states of one set of rows of an Evaluator (all rows, or one group):
:class:`Part`, and the exact sums of the proper scores, :class:`ScoreSum`."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from .._common.columns import column_names, columns, records
from .._common.input_error import first_line
from .._common.mergeable import check_keys, part_array, part_bool, part_int
from .._common.serial import EXACT_SUM_LIMBS, ints_from_limbs, limbs_from_ints
from .._common.validation import ALL_ZERO_WEIGHTS
from ..calibration import exact_score_sums
from ..states import CalibrationState, ConfusionState, RankingState

_SCALE_BITS = 1100  # an exact sum's integer is worth 2**-_SCALE_BITS
_ONE = 1 << _SCALE_BITS
_LARGEST = int(np.finfo(np.float64).max) << _SCALE_BITS
_SUM_FIELDS = ("sums", "n", "weighted", "nonzero_weight", "rows_sum_to_one")
_EMPTY = "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required."
_NOT_ONE = "The y_prob values do not sum to one. Make sure to pass probabilities."
STATE_KINDS: dict[str, type[Any]] = {
    "ranking": RankingState,
    "confusion": ConfusionState,
    "calibration": CalibrationState,
}


class ScoreSum:
    """The Brier score's or the log loss's exact sums: the sum of each row's
    ``w * loss`` (the term :func:`~turbometrics.brier_score_loss` or
    :func:`~turbometrics.log_loss` computes) and of the weights (1 per row
    of unweighted batches), as fixed-point ints worth ``2**-1100``. Merging
    adds the ints, so the sums of any split of the rows are the same; the
    value is their quotient, correctly rounded."""

    def __init__(self, score: str) -> None:
        self.score = score  # "brier" or "log"
        self.total = 0
        self.weight = 0
        self.n = 0
        self.weighted = False  # some batch had weights
        self.nonzero_weight = False  # some weight was not zero (unweighted rows are)
        self.rows_sum_to_one = True  # every row of probabilities summed to one

    def update(
        self, y: np.ndarray, prob: np.ndarray, weight: np.ndarray | None, rows_sum_to_one: bool, n_threads: int | None
    ) -> None:
        total, weights = exact_score_sums(y, prob, weight, self.score, n_threads)
        self.total += total
        n = y.shape[0]
        self.weight += (n << _SCALE_BITS) if weight is None else weights
        self.n += n
        self.weighted |= weight is not None
        self.nonzero_weight |= n > 0 if weight is None else bool(np.any(weight != 0))
        self.rows_sum_to_one &= rows_sum_to_one

    def merge(self, other: ScoreSum) -> None:
        self.total += other.total
        self.weight += other.weight
        self.n += other.n
        self.weighted |= other.weighted
        self.nonzero_weight |= other.nonzero_weight
        self.rows_sum_to_one &= other.rows_sum_to_one

    def value(self, halve: bool) -> float:
        """The mean loss, ``total / weight`` correctly rounded (halved for
        the Brier score of two columns, as ``scale_by_half="auto"``), with
        the warning and errors of the in-memory function.

        Raises
        ------
        ValueError
            Without rows, or when every weight is zero.
        ZeroDivisionError
            When the weights (some not zero) sum to zero.
        """
        if self.n == 0:
            raise ValueError(_EMPTY)
        if not self.rows_sum_to_one:
            warnings.warn(_NOT_ONE, UserWarning)
        if not self.nonzero_weight:
            raise ValueError(ALL_ZERO_WEIGHTS)
        if self.weight == 0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        mean = self.total / self.weight  # int / int: correctly rounded
        return mean * 0.5 if halve else mean

    def parts(self, prefix: str) -> dict[str, Any]:
        return {
            f"{prefix}sums": limbs_from_ints([self.total, self.weight]),
            f"{prefix}n": self.n,
            f"{prefix}weighted": self.weighted,
            f"{prefix}nonzero_weight": self.nonzero_weight,
            f"{prefix}rows_sum_to_one": self.rows_sum_to_one,
        }

    @classmethod
    def from_parts(cls, score: str, parts: Mapping[str, Any], prefix: str) -> ScoreSum:
        """The sums of :meth:`parts`, checked: finite as floats, a total of
        non-negative losses when no weight is negative, unweighted weights
        counting the rows."""
        sums = cls(score)
        limbs = part_array(parts, f"{prefix}sums", "u", 2)
        if limbs.shape != (2, EXACT_SUM_LIMBS):
            raise ValueError(f"{prefix}sums must have shape (2, {EXACT_SUM_LIMBS}), got {limbs.shape}")
        sums.total, sums.weight = ints_from_limbs(limbs)
        sums.n = part_int(parts, f"{prefix}n")
        sums.weighted = part_bool(parts, f"{prefix}weighted")
        sums.nonzero_weight = part_bool(parts, f"{prefix}nonzero_weight")
        sums.rows_sum_to_one = part_bool(parts, f"{prefix}rows_sum_to_one")
        if not (abs(sums.total) < _LARGEST and abs(sums.weight) < _LARGEST):
            raise ValueError(f"{prefix}sums must be finite as floats")
        if not sums.weighted and (sums.weight != sums.n << _SCALE_BITS or sums.total < 0):
            raise ValueError(f"{prefix}sums: an unweighted sum must count its {sums.n} rows and be non-negative")
        if not sums.weighted and sums.nonzero_weight != (sums.n > 0):
            raise ValueError(f"{prefix}nonzero_weight disagrees with the rows")
        return sums


class Part:
    """The states of one set of rows (all rows, or one group): only those
    the metrics read (``needs``: "ranking", "class_ranking", "confusion",
    "calibration", "brier", "log").

    Attributes
    ----------
    ranking : RankingState or None
        Binary labels against the 1-D score (positive label 1).
    class_ranking : list of RankingState or None
        Multiclass: class k against the rest, on column k.
    confusion : ConfusionState or None
        Labels against the predicted labels, every class 0 .. K-1.
    calibration : CalibrationState or None
        Binary, or top-label for (n, K) probabilities.
    sums : dict of ScoreSum
        "brier" and "log", those needed.
    n_samples : int
    """

    def __init__(self, n_classes: int, n_bins: int, multiclass: bool, needs: Collection[str]) -> None:
        self.n_classes, self.n_bins, self.multiclass = n_classes, n_bins, multiclass
        self.needs = frozenset(needs)
        self.ranking = RankingState(pos_label=1) if "ranking" in needs else None
        self.class_ranking = [RankingState(pos_label=1) for _ in range(n_classes)] if "class_ranking" in needs else None
        self.confusion = ConfusionState(labels=np.arange(n_classes)) if "confusion" in needs else None
        self.calibration = CalibrationState(n_bins) if "calibration" in needs else None
        self.sums = {score: ScoreSum(score) for score in ("brier", "log") if score in needs}
        self.n_samples = 0

    def keep_only(self, needs: Collection[str]) -> None:
        """Drop the states that ``needs`` leaves out."""
        self.needs = self.needs & frozenset(needs)
        for kind in ("ranking", "class_ranking", "confusion", "calibration"):
            if kind not in self.needs:
                setattr(self, kind, None)
        self.sums = {score: sums for score, sums in self.sums.items() if score in self.needs}

    def update(
        self,
        y: np.ndarray,
        score: np.ndarray,
        predicted: np.ndarray | None,
        weight: np.ndarray | None,
        rows_sum_to_one: bool,
        n_threads: int | None,
        proba: np.ndarray | None = None,
    ) -> None:
        """Add rows, already checked: ``y`` class indices (int8 0/1 when
        binary), ``score`` float64 or float32 1-D or (n, K), ``predicted`` the
        predicted classes (when a confusion state is kept), ``proba`` the
        scores in their float32 or float16 dtype for the proper scores
        (None: ``score``)."""
        if self.ranking is not None:
            self.ranking.update(y, score, sample_weight=weight, n_threads=n_threads)
        if self.class_ranking is not None:
            for k, state in enumerate(self.class_ranking):
                state.update((y == k).view(np.int8), score[:, k], sample_weight=weight, n_threads=n_threads)
        if self.confusion is not None:
            self.confusion.update(y, predicted, sample_weight=weight, n_threads=n_threads)
        if self.calibration is not None:
            self.calibration.update(y, score, sample_weight=weight, n_threads=n_threads)
        for sums in self.sums.values():
            sums.update(y, score if proba is None else proba, weight, rows_sum_to_one, n_threads)
        self.n_samples += y.shape[0]

    def merge(self, other: Part) -> None:
        """Add ``other``'s rows (a part of the same kind) in place."""
        if self.ranking is not None and other.ranking is not None:
            self.ranking = self.ranking.merge(other.ranking)
        if self.class_ranking is not None and other.class_ranking is not None:
            self.class_ranking = [a.merge(b) for a, b in zip(self.class_ranking, other.class_ranking)]
        if self.confusion is not None and other.confusion is not None:
            self.confusion = self.confusion.merge(other.confusion)
        if self.calibration is not None and other.calibration is not None:
            self.calibration = self.calibration.merge(other.calibration)
        for score, sums in self.sums.items():
            sums.merge(other.sums[score])
        self.n_samples += other.n_samples

    def states(self) -> dict[str, Any]:
        """The states by part name ("ranking", "class_ranking_<k>", ...)."""
        out: dict[str, Any] = {}
        for kind in STATE_KINDS:
            if getattr(self, kind) is not None:
                out[kind] = getattr(self, kind)
        for k, state in enumerate(self.class_ranking or ()):
            out[f"class_ranking_{k}"] = state
        return out


def part_columns(parts: list[Part]) -> dict[str, Any]:
    """Parts of the same kind (the whole, then each group) as columns
    (:mod:`turbometrics._common.columns`): ``n_samples``, then per state
    ``<name>.<field>`` ("ranking.scores", "class_ranking_2.positive"...)
    and per exact sum ``<score>.<field>`` ("log.sums"...)."""
    out: dict[str, Any] = {"n_samples": [part.n_samples for part in parts]}
    for name in parts[0].states():
        out.update(columns([part.states()[name]._parts() for part in parts], f"{name}."))
    for score in parts[0].sums:
        out.update(columns([part.sums[score].parts("") for part in parts], f"{score}."))
    return out


def column_prefixes(template: Part) -> tuple[str, ...]:
    """The prefixes of :func:`part_columns`' names for parts like ``template``."""
    return (*(f"{name}." for name in template.states()), *(f"{score}." for score in template.sums))


def parts_of_columns(template: Part, parts: Mapping[str, Any], count: int) -> list[Part]:
    """The ``count`` parts of :func:`part_columns`, each state validated by
    its own constructor (as its ``from_bytes`` validates it) and checked
    to hold the part's rows and to merge with ``template``'s (an empty
    part of the problem).

    Raises
    ------
    ValueError
        For a state that does not load, or that disagrees.
    """
    counts = parts.get("n_samples")
    if not isinstance(counts, list) or len(counts) != count:
        raise ValueError(f"n_samples must be a list of {count} counts")
    loaded = []
    for n in counts:
        part = copy.copy(template)  # the problem's settings; its states come from the columns
        part.class_ranking = [] if template.class_ranking is not None else None
        part.sums = {}
        part.n_samples = part_int({"n_samples": n}, "n_samples")
        loaded.append(part)
    for name, empty in template.states().items():
        prefix = f"{name}."
        kind = type(empty)
        for index, record in enumerate(records(parts, prefix, column_names(parts, prefix), count)):
            part = loaded[index]
            where = "overall" if index == 0 else f"group {index - 1}"
            try:
                state = kind._from_parts(record)
            except (TypeError, ValueError) as error:
                raise ValueError(f"{where}: {name}: {first_line(error)}") from None
            if state.n_samples != part.n_samples:
                raise ValueError(f"{where}: {name} holds {state.n_samples} samples, not {part.n_samples}")
            _check_like(f"{where}: {name}", state, empty)
            if name.startswith("class_ranking_"):
                assert part.class_ranking is not None
                part.class_ranking.append(state)
            else:
                setattr(part, name, state)
    for score in template.sums:
        prefix = f"{score}."
        for index, record in enumerate(records(parts, prefix, column_names(parts, prefix), count)):
            part = loaded[index]
            check_keys(f"{score} sums", record, _SUM_FIELDS)
            sums = ScoreSum.from_parts(score, record, "")
            if sums.n != part.n_samples:
                raise ValueError(f"{score}.n is {sums.n}, not {part.n_samples}")
            part.sums[score] = sums
    return loaded


def _check_like(name: str, loaded: Any, empty: Any) -> None:
    """A loaded state merges with the part's own empty state: same
    parameters (pos_label, n_bins, the classes 0 .. K-1)."""
    try:
        empty.merge(loaded)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
