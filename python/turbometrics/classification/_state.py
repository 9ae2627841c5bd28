"""A mergeable classification evaluation: the confusion counts of a stream.

``ConfusionState`` accumulates what every classification metric reads, in
memory independent of the number of samples:

* binary / multiclass labels: the sorted labels seen and the K x K confusion
  table over them (int64 counts; float64 sums once a batch had float
  weights), with which labels occurred in ``y_true``;
* multilabel indicator matrices: per column the (weighted) counts of true,
  predicted and both, the number of rows predicted exactly, and the samples
  grouped by their triple (true positives, predicted labels, true labels),
  on which every per-sample ratio depends (so 'samples' averages are exact).

Every metric is computed by the same code as the in-memory function (the
state stands in for the in-memory ``TargetCounts``), so results equal the
in-memory function on the concatenated batches: bit-for-bit unweighted, to
rounding (rtol 1e-12) weighted, whatever the split and merge order.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .._common.mergeable import (
    CountedSamples,
    Serialisable,
    check_counts_or_weights,
    check_keys,
    check_mergeable,
    check_sorted_distinct,
    part_array,
    part_bool,
    part_choice,
    part_int,
)
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, str_options, validate_params
from .._common.threads import resolve_threads
from .._common.validation import (
    ALL_ZERO_WEIGHTS,
    as_array,
    check_consistent_length,
    check_sample_weight,
    distinct_values,
    num_samples,
)
from ._confusion import (
    SampleGroups,
    TargetCounts,
    labelled_table,
    normalized,
    stacked_one_vs_rest,
    table_label_sums,
)
from ._params import FLAG, KAPPA_WEIGHTS, REPLACE_UNDEFINED, WEIGHTS
from ._prf import JACCARD_CONSTRAINTS, PRFS_CONSTRAINTS, jaccard_from_counts, prfs_from_counts, set_wise_labels
from ._scores import (
    accuracy_from_counts,
    balanced_accuracy_from_table,
    cohen_kappa_from_counts,
    matthews_from_table,
)
from ._targets import check_targets, encode, exact_counts, exact_sum, sorted_union

_PARTS = (
    "_fixed",
    "_layout",
    "_n",
    "_weighted",
    "_nonzero",
    "_total",
    "_labels",
    "_table",
    "_observed",
    "_seen_true",
    "_width",
    "_sums",
    "_exact",
    "_group_keys",
    "_group_count",
    "_group_weight",
)
_LABEL_KINDS = "biufU"
_EMPTY = "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is required."
_NO_SAMPLES = "ConfusionState keeps no per-sample counts: samplewise=True is not available (average='samples' is)."
_SUBSET = (
    "ConfusionState groups samples over all label columns: average='samples' with labels selecting a "
    "subset of the columns is not available."
)


def _is_string(labels: np.ndarray) -> bool:
    if labels.dtype.kind == "U":
        return True
    return labels.dtype.kind == "O" and labels.size > 0 and isinstance(labels.flat[0], str)


def _label_kind(labels: np.ndarray) -> str:
    return "string" if _is_string(labels) else "numeric"


def _add(a: Any, b: Any) -> Any:
    """Sum of two count arrays or totals, float64 when either is float;
    integer counts are added exactly (float64 where a sum leaves int64)."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        if a.dtype != b.dtype:
            return a.astype(np.float64) + b.astype(np.float64)
        if a.dtype.kind in "iu" and a.size and max(-int(a.min()), int(a.max()), -int(b.min()), int(b.max())) >= 2**62:
            return exact_counts(a.astype(object) + b.astype(object))
    return a + b


class _StateCounts:
    """The state seen through the interface of the in-memory
    ``TargetCounts`` (what the shared metric code reads)."""

    def __init__(self, state: ConfusionState) -> None:
        if state.n_samples == 0:
            raise ValueError(_EMPTY)
        self.weighted = state.weighted
        self.n_samples = state.n_samples
        self.total = state._total
        self._state = state
        if state._layout == "indicator":
            self.kind = "multilabel-indicator"
            self.labels: np.ndarray = np.arange(state._width)
            self.true_labels: np.ndarray | None = None
            return
        observed = state._observed
        self.labels = state._labels[observed]
        self.true_labels = state._labels[state._seen_true]
        self._table = state._table[np.ix_(observed, observed)]
        self.kind = "binary" if self.labels.shape[0] <= 2 else "multiclass"

    def raise_for_zero_weights(self) -> _StateCounts:
        """scikit-learn's error when every sample weight is zero; returns self."""
        if not self._state._nonzero:
            raise ValueError(ALL_ZERO_WEIGHTS)
        return self

    def table(self) -> np.ndarray:
        return self._table

    def promoted_table(self, common: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """The state keeps the exactly matched table only, whatever ``common``."""
        return self.labels, self._table

    def label_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return table_label_sums(self.labels, self._table)

    def indicator_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        sums = self._state._sums
        return sums[0], sums[1], sums[2]

    def sample_groups(self, columns: np.ndarray | None) -> SampleGroups:
        width = self._state._width
        if columns is not None and not (
            columns.shape[0] == width and np.array_equal(np.sort(columns), np.arange(width))
        ):
            raise ValueError(_SUBSET)
        return self._state._groups

    def samplewise(self, columns: np.ndarray | None) -> Any:
        raise ValueError(_NO_SAMPLES)


class ConfusionState(CountedSamples, Serialisable):
    """Mergeable confusion counts of binary, multiclass or multilabel
    predictions.

    Parameters
    ----------
    labels : array-like, default=None
        Fix the label set (binary / multiclass input): a batch holding any
        other label raises ValueError, and only states with the same labels
        merge. None: the labels are those seen, and merging takes the union
        (re-indexing the tables). Either way the metrics see the labels that
        occurred, exactly as the in-memory functions on the concatenated
        data do; pass ``labels=`` to a metric to choose its labels.

    Notes
    -----
    Memory: O(K^2) for K labels; multilabel input with L columns O(L) plus
    one row per distinct (tp, predicted, true) triple (at most (L + 1)^3).
    Weights are accumulated in float64 (int64 while they are integers);
    an unweighted batch merged with weighted ones counts each sample with
    weight 1. Results equal the in-memory functions (scikit-learn 1.9.1) on
    the concatenated batches: exactly when unweighted, to rounding when
    weighted (float32 weights are summed in float64). Not available from a
    state: ``multilabel_confusion_matrix(samplewise=True)`` and
    ``average="samples"`` over a subset of the label columns. Label values
    of a multilabel indicator are only checked per batch (a batch of {0, 1}
    merged with one of {0, 2} counts nonzero entries; the in-memory
    function would reject the concatenation).

    Examples
    --------
    >>> import turbometrics as tm
    >>> a = tm.ConfusionState.from_arrays(["cat", "dog"], ["cat", "cat"])
    >>> b = tm.ConfusionState.from_arrays(["pig", "dog"], ["pig", "dog"])
    >>> merged = a + b
    >>> merged.confusion_matrix()
    array([[1, 0, 0],
           [1, 1, 0],
           [0, 0, 1]])
    >>> round(merged.f1(average="macro"), 6)
    0.777778
    """

    def __init__(self, *, labels: Any = None) -> None:
        self._fixed: np.ndarray | None = None if labels is None else np.unique(np.asarray(labels))
        if self._fixed is not None and (self._fixed.ndim != 1 or self._fixed.size == 0):
            raise ValueError("labels must be a non-empty 1-D array of label values")
        self._layout: str | None = None  # None (no data), "labels" or "indicator"
        self._n = 0
        self._weighted = False
        self._nonzero = False  # some sample has a nonzero weight
        self._total: Any = 0
        # binary / multiclass
        self._labels = self._fixed if self._fixed is not None else np.zeros(0)
        k = self._labels.shape[0]
        self._table = np.zeros((k, k), dtype=np.int64)
        self._observed = np.zeros(k, dtype=bool)
        self._seen_true = np.zeros(k, dtype=bool)
        # multilabel
        self._width = 0
        self._sums = np.zeros((3, 0), dtype=np.int64)  # true, predicted, both per column
        self._exact: Any = 0
        self._groups = SampleGroups(np.zeros(0, dtype=np.int64), 0, np.zeros(0, dtype=np.int64), None)

    # -- construction ----------------------------------------------------------------
    @classmethod
    def from_arrays(
        cls, y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None, n_threads: int | None = None
    ) -> ConfusionState:
        """The state of one batch (see :meth:`update`)."""
        return cls(labels=labels).update(y_true, y_pred, sample_weight=sample_weight, n_threads=n_threads)

    @validate_params({}, bind_like_scikit_learn=False)  # array inputs as NumPy
    def update(
        self, y_true: Any, y_pred: Any, *, sample_weight: Any = None, n_threads: int | None = None
    ) -> ConfusionState:
        """Add a batch in place and return self.

        The batch is checked as scikit-learn checks the targets of a
        classification metric (same errors); an empty batch adds nothing.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
            Labels (numbers, bools or strings), or indicator matrices.
        sample_weight : array-like of shape (n_samples,), default=None
        n_threads : int, default=None
            Threads for the counting pass; the state is identical for every
            thread count.

        Raises
        ------
        ValueError
            For invalid targets (as the in-memory functions), labels of
            another type (string vs number) or layout (indicator vs labels)
            than earlier batches, or labels outside a fixed label set.
        """
        threads = resolve_threads(n_threads)
        if num_samples(as_array(y_true)) == 0:
            check_consistent_length(y_true, y_pred, sample_weight)
            return self
        batch = _of_class_indices(y_true, y_pred, self._fixed) if sample_weight is None else None
        if batch is None:
            try:
                targets = check_targets(y_true, y_pred, sample_weight, threads=threads)
            except ValueError as error:
                if str(error) != ALL_ZERO_WEIGHTS:
                    raise
                # Valid in a batch; the metrics raise it if every weight is zero.
                targets = check_targets(y_true, y_pred, threads=threads)
                targets.sample_weight = check_sample_weight(
                    sample_weight, targets.y_true.shape[0], force_float=False, check_values=False
                )
            batch = ConfusionState._of_batch(TargetCounts(targets, threads), self._fixed)
        merged = self.merge(batch)
        self.__dict__.update(merged.__dict__)
        return self

    @staticmethod
    def _of_batch(counts: TargetCounts, fixed: np.ndarray | None) -> ConfusionState:
        state = ConfusionState(labels=fixed)
        state._n = counts.n_samples
        state._weighted = counts.weighted
        weight = counts.targets.sample_weight
        state._nonzero = weight is None or bool(np.count_nonzero(weight))
        state._total = (
            counts.n_samples
            if weight is None
            else (exact_sum(weight) if weight.dtype.kind in "biu" else float(np.sum(weight, dtype=np.float64)))
        )
        if counts.kind == "multilabel-indicator":
            if fixed is not None:
                raise ValueError(
                    "labels= fixes the labels of binary or multiclass targets; got multilabel indicator input"
                )
            targets = counts.targets
            state._layout = "indicator"
            state._width = int(counts.labels.shape[0])
            state._sums = np.stack(counts.indicator_sums())
            exact = ~np.any(targets.y_true != targets.y_pred, axis=1)
            state._exact = (
                int(np.count_nonzero(exact))
                if weight is None
                else float(np.dot(exact, np.asarray(weight, dtype=np.float64)))
            )
            state._groups = counts.sample_groups(None)
            return state
        state._layout = "labels"
        labels, table = counts.labels, counts.table()
        seen_true = np.isin(
            labels, cast(np.ndarray, counts.true_labels), kind="sort"
        )  # NumPy's table kind fails on big-endian input
        if fixed is None:
            state._labels, state._table = labels, table
            state._observed = np.ones(labels.shape[0], dtype=bool)
            state._seen_true = seen_true
            return state
        if _label_kind(labels) != _label_kind(fixed):
            raise ValueError(
                f"Mix of label input types (string and number): the state's labels are {fixed} and "
                f"the batch holds {labels}."
            )
        index = encode(labels, fixed)
        if np.any(index < 0):
            raise ValueError(
                f"y_true and y_pred hold labels {labels[index < 0]} that are not among the state's labels {fixed}"
            )
        state._table = np.zeros((fixed.shape[0],) * 2, dtype=table.dtype)
        state._table[np.ix_(index, index)] = table
        state._observed[index] = True
        state._seen_true[index] = seen_true
        return state

    # -- merging ---------------------------------------------------------------------
    @property
    def labels(self) -> np.ndarray:
        """The sorted labels seen (column indices for indicator input)."""
        if self._layout == "indicator":
            return np.arange(self._width)
        return self._labels[self._observed]

    def merge(self, other: ConfusionState) -> ConfusionState:
        """A new state holding the samples of both.

        Raises
        ------
        ValueError
            If the states have different fixed labels, label types (string
            vs number), layouts (indicator vs labels) or indicator widths.
        """
        check_mergeable(self, other)
        if (self._fixed is None) != (other._fixed is None) or (
            self._fixed is not None and not np.array_equal(self._fixed, cast(np.ndarray, other._fixed))
        ):
            raise ValueError(
                f"cannot merge ConfusionStates with different fixed labels ({self._fixed} and {other._fixed})"
            )
        if self._layout is None or other._layout is None:
            return _copy(other if self._layout is None else self)
        if self._layout != other._layout:
            raise ValueError("cannot merge ConfusionStates of multilabel indicator and of binary/multiclass targets")
        out = _copy(self)
        out._n = self._n + other._n
        out._weighted = self._weighted or other._weighted
        out._nonzero = self._nonzero or other._nonzero
        out._total = self._total + other._total
        if self._layout == "indicator":
            if self._width != other._width:
                raise ValueError("Multi-label binary indicator input with different numbers of labels")
            out._sums = _add(self._sums, other._sums)
            out._exact = self._exact + other._exact
            out._groups = self._groups.merge(other._groups)
            return out
        if self._fixed is not None:
            out._table = _add(self._table, other._table)
            out._observed = self._observed | other._observed
            out._seen_true = self._seen_true | other._seen_true
            return out
        mine, theirs = self._labels, other._labels
        if _label_kind(mine) != _label_kind(theirs):
            raise ValueError(f"Mix of label input types (string and number) across batches: {mine} and {theirs}.")
        labels = sorted_union(mine, theirs)
        out._labels = labels
        out._observed = np.ones(labels.shape[0], dtype=bool)
        out._seen_true = np.zeros(labels.shape[0], dtype=bool)
        tables = []
        for part in (self, other):
            # the union may promote labels to floats they round to: two labels can become one
            index = encode(part._labels, labels, exact=False)
            tables.append(np.zeros((labels.shape[0],) * 2, dtype=part._table.dtype))
            np.add.at(tables[-1], np.ix_(index, index), part._table)
            out._seen_true[index] |= part._seen_true
        out._table = _add(*tables)
        return out

    # -- metrics ---------------------------------------------------------------------
    @validate_params(
        {"labels": [ARRAY_LIKE, NONE], "normalize": [str_options({"true", "pred", "all"}), NONE]},
        bind_like_scikit_learn=False,
    )
    def confusion_matrix(self, *, labels: Any = None, normalize: str | None = None) -> np.ndarray:
        """As :func:`turbometrics.confusion_matrix` on the state's samples."""
        return normalized(labelled_table(_StateCounts(self).raise_for_zero_weights(), labels), normalize)

    @validate_params({"labels": [ARRAY_LIKE, NONE], "samplewise": [BOOLEAN]}, bind_like_scikit_learn=False)
    def multilabel_confusion_matrix(self, *, labels: Any = None, samplewise: bool = False) -> np.ndarray:
        """As :func:`turbometrics.multilabel_confusion_matrix` (not
        ``samplewise``: the state keeps no per-sample counts)."""
        return stacked_one_vs_rest(_StateCounts(self).raise_for_zero_weights(), labels, bool(samplewise))

    @validate_params(PRFS_CONSTRAINTS, bind_like_scikit_learn=False)
    def precision_recall_fscore_support(
        self,
        *,
        beta: float = 1.0,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = None,
        warn_for: Any = ("precision", "recall", "f-score"),
        zero_division: Any = "warn",
    ) -> tuple:
        """As :func:`turbometrics.precision_recall_fscore_support`."""
        return self._prfs(beta, labels, pos_label, average, warn_for, zero_division)

    def _prfs(
        self, beta: float, labels: Any, pos_label: Any, average: str | None, warn_for: Any, zero_division: Any
    ) -> tuple:
        counts = _StateCounts(self)
        labels = set_wise_labels(counts, average, labels, pos_label)
        counts.raise_for_zero_weights()
        return prfs_from_counts(counts, beta, labels, average, warn_for, zero_division)

    @validate_params(PRFS_CONSTRAINTS, bind_like_scikit_learn=False, name="precision_score")
    def precision(
        self, *, labels: Any = None, pos_label: Any = 1, average: str | None = "binary", zero_division: Any = "warn"
    ) -> Any:
        """As :func:`turbometrics.precision_score`."""
        return self._prfs(1.0, labels, pos_label, average, ("precision",), zero_division)[0]

    @validate_params(PRFS_CONSTRAINTS, bind_like_scikit_learn=False, name="recall_score")
    def recall(
        self, *, labels: Any = None, pos_label: Any = 1, average: str | None = "binary", zero_division: Any = "warn"
    ) -> Any:
        """As :func:`turbometrics.recall_score`."""
        return self._prfs(1.0, labels, pos_label, average, ("recall",), zero_division)[1]

    @validate_params(PRFS_CONSTRAINTS, bind_like_scikit_learn=False, name="fbeta_score")
    def fbeta(
        self,
        *,
        beta: float,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """As :func:`turbometrics.fbeta_score`."""
        return self._prfs(beta, labels, pos_label, average, ("f-score",), zero_division)[2]

    @validate_params(PRFS_CONSTRAINTS, bind_like_scikit_learn=False, name="f1_score")
    def f1(
        self, *, labels: Any = None, pos_label: Any = 1, average: str | None = "binary", zero_division: Any = "warn"
    ) -> Any:
        """As :func:`turbometrics.f1_score`."""
        return self._prfs(1, labels, pos_label, average, ("f-score",), zero_division)[2]

    @validate_params(JACCARD_CONSTRAINTS, bind_like_scikit_learn=False, name="jaccard_score")
    def jaccard(
        self, *, labels: Any = None, pos_label: Any = 1, average: str | None = "binary", zero_division: Any = "warn"
    ) -> Any:
        """As :func:`turbometrics.jaccard_score`."""
        counts = _StateCounts(self)
        labels = set_wise_labels(counts, average, labels, pos_label)
        counts.raise_for_zero_weights()
        return jaccard_from_counts(counts, labels, average, zero_division)

    @validate_params({"normalize": FLAG}, bind_like_scikit_learn=False, name="accuracy_score")
    def accuracy(self, *, normalize: bool = True) -> float:
        """As :func:`turbometrics.accuracy_score` (subset accuracy for
        indicator input)."""
        counts = _StateCounts(self).raise_for_zero_weights()
        if self._layout == "indicator":
            correct, total = self._exact, self._total
        else:
            table = counts.table()
            correct, total = np.trace(table), (table.sum() if self._weighted else self._n)
        return accuracy_from_counts(correct, total, normalize, self._weighted)

    @validate_params({"adjusted": FLAG}, bind_like_scikit_learn=False, name="balanced_accuracy_score")
    def balanced_accuracy(self, *, adjusted: bool = False) -> float:
        """As :func:`turbometrics.balanced_accuracy_score`."""
        return balanced_accuracy_from_table(labelled_table(_StateCounts(self).raise_for_zero_weights(), None), adjusted)

    @validate_params(
        {"labels": WEIGHTS, "weights": KAPPA_WEIGHTS, "replace_undefined_by": REPLACE_UNDEFINED},
        bind_like_scikit_learn=False,
        name="cohen_kappa_score",
    )
    def cohen_kappa(self, *, labels: Any = None, weights: str | None = None, replace_undefined_by: Any = np.nan) -> Any:
        """As :func:`turbometrics.cohen_kappa_score` (y1 = y_true)."""
        counts = _StateCounts(self).raise_for_zero_weights()
        return cohen_kappa_from_counts(counts, labels, weights, replace_undefined_by)

    def matthews_corrcoef(self) -> float:
        """As :func:`turbometrics.matthews_corrcoef`."""
        return matthews_from_table(labelled_table(_StateCounts(self).raise_for_zero_weights(), None))

    # The names of the functions (``state.f1_score(...)`` is ``state.f1(...)``).
    precision_score = precision
    recall_score = recall
    fbeta_score = fbeta
    f1_score = f1
    jaccard_score = jaccard
    accuracy_score = accuracy
    balanced_accuracy_score = balanced_accuracy
    cohen_kappa_score = cohen_kappa

    # -- serialisation -------------------------------------------------------------
    def _parts(self) -> dict[str, Any]:
        """The state's parts (see :class:`Serialisable`): its attributes,
        the sample groups as ``_group_keys``, ``_group_count``,
        ``_group_weight`` (None when unweighted)."""
        parts = dict(self.__dict__)
        groups = parts.pop("_groups")
        parts.update(_group_keys=groups.keys, _group_count=groups.count, _group_weight=groups.weight)
        for name in ("_total", "_exact"):
            parts[name] = parts[name].item() if isinstance(parts[name], np.generic) else parts[name]
        return parts

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> ConfusionState:
        """The state of validated parts (version 0.1.0 pickles hold the
        groups as one ``_groups`` tuple): see :func:`_check_labels_layout`
        and :func:`_check_indicator_layout` for what is checked."""
        parts = dict(parts)
        if "_groups" in parts:
            groups = parts.pop("_groups")
            if not isinstance(groups, tuple) or len(groups) != 4:
                raise ValueError("_groups must be a (keys, width, count, weight) tuple")
            parts.update(_group_keys=groups[0], _group_count=groups[2], _group_weight=groups[3])
        check_keys("ConfusionState", parts, _PARTS)
        state = cls.__new__(cls)
        fixed = parts["_fixed"]
        state._fixed = None if fixed is None else part_array(parts, "_fixed", _LABEL_KINDS, 1, wide=False)
        if state._fixed is not None:
            check_sorted_distinct("_fixed", state._fixed)
            if state._fixed.size == 0:
                raise ValueError("_fixed must not be empty")
        state._layout = part_choice(parts, "_layout", (None, "labels", "indicator"))
        state._n = part_int(parts, "_n")
        state._weighted, state._nonzero = part_bool(parts, "_weighted"), part_bool(parts, "_nonzero")
        state._total, state._exact = _part_number(parts, "_total"), _part_number(parts, "_exact")
        if (state._layout is None) != (state._n == 0) or (state._n == 0 and state._nonzero):
            raise ValueError(f"_layout {state._layout!r}, _n {state._n} and _nonzero disagree")
        if not state._weighted and (state._total != state._n or not isinstance(state._total, int)):
            raise ValueError(f"_total of an unweighted state must be _n = {state._n}, got {state._total!r}")
        _check_labels_layout(state, parts)
        _check_indicator_layout(state, parts)
        if state._n and not state._nonzero:  # every weight was zero: nothing summed
            weights = state._table if state._layout == "labels" else state._sums
            if not state._weighted or state._total != 0 or np.any(weights != 0):
                raise ValueError("_nonzero is false, but the state holds weight")
        return state

    def __repr__(self) -> str:
        kind = {None: "empty", "labels": f"labels={len(self.labels)}", "indicator": f"indicator columns={self._width}"}[
            self._layout
        ]
        return f"ConfusionState({kind}, n_samples={self._n}, weighted={self._weighted})"


def _of_class_indices(y_true: Any, y_pred: Any, fixed: np.ndarray | None) -> ConfusionState | None:
    """The state of an unweighted batch of class indices 0 .. K-1 against
    the fixed labels 0 .. K-1 (the metric classes' case), counted with one
    ``bincount``; None for any other batch. Such a batch passes every check
    of the general path, whose state it equals (the same table, labels
    seen and counts); tests/classification/test_confusion_state.py
    compares the two."""
    if fixed is None or fixed.dtype.kind not in "iu" or fixed[0] != 0 or fixed[-1] != fixed.shape[0] - 1:
        return None
    pair = (y_true, y_pred)
    if not all(isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype.kind in "iu" for a in pair):
        return None
    k = fixed.shape[0]
    if y_true.shape != y_pred.shape or min(a.min() for a in pair) < 0 or max(a.max() for a in pair) >= k:
        return None
    true, pred = (a.astype(np.intp, copy=False) for a in pair)
    table = np.bincount(true * k + pred, minlength=k * k).astype(np.int64, copy=False).reshape(k, k)
    state = ConfusionState(labels=fixed)
    state._layout = "labels"
    state._n = state._total = y_true.shape[0]
    state._nonzero = True
    state._table = table
    state._seen_true = table.sum(axis=1) > 0
    state._observed = state._seen_true | (table.sum(axis=0) > 0)
    return state


def _copy(state: ConfusionState) -> ConfusionState:
    out = ConfusionState.__new__(ConfusionState)
    out.__dict__.update(state.__dict__)
    return out


def _part_number(parts: dict[str, Any], name: str) -> Any:
    """A finite int or float (not a bool)."""
    value = parts[name]
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, (int, float, np.integer, np.floating))
        or (not np.isfinite(value))
    ):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return value.item() if isinstance(value, np.generic) else value


def _check_table(name: str, values: np.ndarray, weighted: bool) -> None:
    """Counts (int64, non-negative, total < 2**62) unless weighted; weights
    int64 or float64 and finite."""
    if not weighted and values.dtype.kind != "i":
        raise ValueError(f"{name} of an unweighted state must be int64 counts")
    if weighted and values.dtype.kind == "i":
        if values.size and np.abs(values.astype(np.float64)).max() >= 2.0**62:
            raise ValueError(f"{name} weights must be below 2**62 in magnitude")
        return
    check_counts_or_weights(name, values)


def _check_labels_layout(state: ConfusionState, parts: dict[str, Any]) -> None:
    """Binary / multiclass parts: sorted distinct labels (the fixed ones, if
    fixed; else all observed), a K x K table, ``_observed`` / ``_seen_true``
    flags of the labels that occur in the table (unweighted: exactly
    those; weighted: at least those), ``_seen_true`` within ``_observed``;
    unweighted counts adding up to ``_n``. Without this layout: nothing
    counted."""
    labels = part_array(parts, "_labels", _LABEL_KINDS, 1, wide=False)
    check_sorted_distinct("_labels", labels)
    k = labels.shape[0]
    table = part_array(parts, "_table", "if", 2)
    observed, seen_true = part_array(parts, "_observed", "b", 1), part_array(parts, "_seen_true", "b", 1)
    if table.shape != (k, k) or observed.shape != (k,) or seen_true.shape != (k,):
        raise ValueError(f"_table must be {k} x {k} and _observed, _seen_true of length {k} (the labels)")
    if state._fixed is not None and not (
        labels.dtype.kind == state._fixed.dtype.kind and np.array_equal(labels, state._fixed)
    ):
        raise ValueError("_labels must be the fixed labels")
    _check_table("_table", table, state._weighted)
    rows, columns = np.any(table != 0, axis=1), np.any(table != 0, axis=0)
    if labels.dtype.kind == "f":
        # update() refuses float labels that are not whole numbers (scikit-learn's
        # "continuous", infinity included): only fixed labels can be, never counted
        counted = labels if state._fixed is None else labels[rows | columns | observed | seen_true]
        if not (np.isfinite(counted).all() and distinct_values(counted, 0)[1]):
            raise ValueError("_labels of the samples counted must be whole numbers")
    if state._layout != "labels":
        if k and (state._fixed is None or observed.any() or seen_true.any() or (rows | columns).any()):
            raise ValueError("a state without binary/multiclass data has no labels or counts")
    else:
        occurring = rows | columns
        if (
            np.any(seen_true & ~observed)
            or np.any(rows & ~seen_true)
            or np.any(occurring & ~observed)
            or (state._fixed is None and not observed.all())
            or not seen_true.any()
        ):
            raise ValueError("_observed and _seen_true disagree with the table")
        if not state._weighted and (
            np.any(occurring != observed) or np.any(rows != seen_true) or int(table.sum()) != state._n
        ):
            raise ValueError(
                f"the counts of an unweighted state must add up to _n = {state._n} and occur "
                "exactly for the labels observed"
            )
        if abs(float(table.sum()) - float(state._total)) > 1e-9 * float(np.abs(table).sum()):
            raise ValueError(f"_total {state._total!r} disagrees with the table")
    state._labels, state._table, state._observed, state._seen_true = labels, table, observed, seen_true


def _check_indicator_layout(state: ConfusionState, parts: dict[str, Any]) -> None:
    """Multilabel parts: ``_width`` columns (positive), per column the true,
    predicted and both sums (both at most either), sample groups with
    sorted distinct keys of valid (tp, predicted, true) triples over the
    width, their counts adding up to ``_n`` and (unweighted) their label
    sums to the column sums, and the exactly predicted rows at most
    ``_n``. Without this layout: width 0 and nothing counted."""
    width = part_int(parts, "_width", high=2**20)
    sums = part_array(parts, "_sums", "if", 2)
    keys, count = part_array(parts, "_group_keys", "i", 1), part_array(parts, "_group_count", "i", 1)
    weight = None if parts["_group_weight"] is None else part_array(parts, "_group_weight", "f", 1)
    if sums.shape != (3, width) or count.shape != keys.shape or (weight is not None and weight.shape != keys.shape):
        raise ValueError(f"_sums must be 3 x _width ({width}) and the group arrays of one length")
    if state._layout != "indicator":
        if width or keys.size or state._exact != 0 or weight is not None:
            raise ValueError("a state without multilabel data has no columns or sample groups")
    else:
        base = width + 1
        if width == 0 or state._fixed is not None or (weight is None) == state._weighted:
            raise ValueError("_width, _fixed and _group_weight disagree with the multilabel layout")
        _check_table("_sums", sums, state._weighted)
        check_sorted_distinct("_group_keys", keys)
        check_counts_or_weights("_group_count", count)
        if weight is not None:
            check_counts_or_weights("_group_weight", weight)
        if keys.size and (keys[0] < 0 or keys[-1] >= base**3):
            raise ValueError("_group_keys must be (tp, predicted, true) triples of the width")
        tp, predicted, true = keys // (base * base), (keys // base) % base, keys % base
        if np.any(tp > np.minimum(predicted, true)) or int(count.sum()) != state._n:
            raise ValueError(f"_group_keys must have tp <= predicted, true and _group_count add up to _n = {state._n}")
        if np.any(sums[2] > np.minimum(sums[0], sums[1])) and not state._weighted:
            raise ValueError("_sums: true positives above the true or predicted count of a column")
        # A row is predicted exactly iff tp == predicted == true.
        group = count if weight is None else weight
        exact = (tp == predicted) & (tp == true)
        expected = [group[exact].sum(), group.sum()] + [np.dot(group, part) for part in (true, predicted, tp)]
        found = [state._exact, state._total] + list(sums.sum(axis=1))
        if not state._weighted and (
            not isinstance(state._exact, int) or any(int(a) != int(b) for a, b in zip(found, expected))
        ):
            raise ValueError("_sums, _exact and _total disagree with the sample groups")
        scale = float(np.abs(group).sum())
        if state._weighted and any(abs(float(a) - float(b)) > 1e-9 * scale for a, b in zip(found, expected)):
            raise ValueError("_sums, _exact and _total disagree with the sample groups")
    state._width, state._sums = width, sums
    state._groups = SampleGroups(keys, width, count, weight)
