"""``turbometrics.Evaluator``: several metrics at once, per group, fed batch
by batch, mergeable across processes, on the mergeable states."""

from __future__ import annotations

import inspect
import math
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np

from .._common.input_error import first_line, shown
from .._common.params import NONE, REAL, STRING, Constraint, real_interval, validate_params
from .._common.threads import resolve_threads
from .._common.validation import (
    assert_all_finite,
    check_consistent_length,
    check_dimensions,
    check_sample_weight,
    column_or_1d,
)
from .._registry import canonical
from ..calibration import checked_probabilities
from ..io import missing
from ..ranking import check_probability_rows
from ._grouped import OVERALL, GroupedParts
from ._metrics import (
    BINARY_METRICS,
    DEFAULT_BINARY,
    DEFAULT_MULTICLASS,
    MULTICLASS_METRICS,
    Compute,
    Problem,
    UserMetric,
    checked_options,
)
from ._part import Part, column_prefixes, part_columns, parts_of_columns

__all__ = ["Evaluator"]

_POSITIVE_INT = Constraint(
    "an int in the range [1, inf)",
    lambda value: isinstance(value, Integral) and not isinstance(value, (bool, np.bool_)) and int(value) >= 1,
)
_KEY_TYPES = (str, int, float, bool)  # group labels and class labels: JSON values


def _as_label(value: Any, what: str) -> Any:
    """A group or class label as a Python str, int, float or bool.

    Raises
    ------
    TypeError
        For any other value (it could not be serialised).
    """
    if isinstance(value, np.generic):
        value = value.item()
    if not isinstance(value, _KEY_TYPES):
        raise TypeError(f"{what} must be text, numbers or booleans, not {type(value).__name__} ({shown(value)})")
    return value


class Evaluator(GroupedParts[Part]):
    """Several metrics at once, overall and per group, fed batch by batch,
    merged across processes and computed exactly.

    An Evaluator holds the mergeable states its metrics read, one set for
    all rows and one per group: :class:`~turbometrics.RankingState`
    (``roc_auc``, ``roc_auc_ci``, ``average_precision``, ``best_f1``; for
    multiclass ``roc_auc`` one per class, one-vs-rest),
    :class:`~turbometrics.ConfusionState` of the predicted classes
    (``accuracy``, ``precision``, ``f1``, ``mcc``...),
    :class:`~turbometrics.CalibrationState` (``ece``), and exact sums
    (``brier``, ``log_loss``). No metric keeps the rows: memory grows with
    the distinct scores (ranking metrics) and the groups, not the rows.

    Parameters
    ----------
    metrics : sequence of str, or dict, default=None
        Metric names, of the vocabulary the command line and
        :func:`~turbometrics.evaluate_parquet` share. Binary: ``roc_auc``,
        ``roc_auc_ci``, ``average_precision``, ``best_f1`` (also gives
        ``best_f1_threshold``), ``accuracy``, ``balanced_accuracy``,
        ``precision``, ``recall``, ``f1``, ``jaccard``, ``mcc`` (alias
        ``matthews_corrcoef``), ``cohen_kappa``, ``ece``, ``mce``,
        ``rmsce``, ``brier``, ``log_loss``. Multiclass: ``roc_auc``
        (one-vs-rest, macro), ``accuracy``, ``balanced_accuracy``,
        ``f1_macro``, ``f1_weighted``, ``mcc``, ``cohen_kappa``, ``ece``,
        ``mce``, ``rmsce`` (top label), ``brier``, ``log_loss``. None: the
        defaults of ``turbometrics evaluate`` (binary: ``roc_auc``,
        ``roc_auc_ci``, ``average_precision``, ``best_f1``, ``accuracy``,
        ``precision``, ``recall``, ``f1``, ``ece``; multiclass:
        ``roc_auc``, ``accuracy``, ``balanced_accuracy``, ``f1_macro``,
        ``ece``, ``brier``, ``log_loss``).

        A dict, as torchmetrics' ``MetricCollection`` takes, maps names
        to their options (keyword arguments of the state method that
        computes the metric, such as ``{"f1": {"zero_division": 1.0}}``;
        JSON values; ``roc_auc_ci``, ``best_f1``, ``brier``, ``log_loss``
        and the multiclass ``roc_auc`` take none), or to ``None`` (no
        options), or to a :class:`~turbometrics.evaluator.UserMetric`, a
        metric of your own over one of the states.
    classes : int or sequence, default=None
        None: binary, labels 0 and 1 (or booleans) with 1-D scores, the
        score or probability of class 1. An int K (at least 2): multiclass,
        labels 0 .. K-1 with (n, K) probabilities. A sequence of K distinct
        labels (text or numbers): multiclass, column k the probability of
        ``classes[k]``. Multiclass metrics are those of the class indices
        (``labels=range(K)``), so a class absent from a group still counts.
    pos_label : int, float, bool or str, default=None
        Binary: the positive class, as the functions' ``pos_label``; the
        labels of a batch are then ``pos_label`` and at most one other.
        None: labels must be {0, 1} or {-1, 1} (per batch) or booleans, 1
        (True) positive, as in scikit-learn; other labels (text, {1, 2})
        raise scikit-learn's ValueError asking for ``pos_label``. The
        metrics are those of the functions on ``y_true == pos_label``
        (``roc_auc_score``, which has no ``pos_label``, on that indicator).
    threshold : float, default=0.5
        Binary: a row is predicted positive when its score is at or above
        it (compared in float64).
    n_bins : int, default=15
        Uniform bins of ``ece``.
    confidence : float, default=0.95
        Level of ``roc_auc_ci`` (DeLong).
    by : str, default=None
        The name of the group dimension: the index name of :meth:`to_pandas`.
    n_threads : int, default=None
        Threads of the kernels (results do not depend on it); not saved.

    Notes
    -----
    **Exactness.** The states merge exactly, so without weights every
    value is the same, bit for bit, for any split of the rows into batches
    and any order of updates and merges; with weights so are ``ece``,
    ``brier`` and ``log_loss`` (exact sums), while the ranking and
    confusion states add float weights per batch, so their values agree
    across splits to rounding (bit for bit when the weights' sums are exact:
    integers, dyadic fractions). Against the in-memory functions on the
    concatenated rows (and so scikit-learn 1.9.1):

    * ``roc_auc``, ``average_precision``, ``best_f1`` (value and
      threshold), ``roc_auc_ci``, the multiclass ``roc_auc`` and every
      confusion metric are equal bit for bit without weights, and to
      rounding (rtol 1e-12) with weights, as the states are
      (docs/guide/states.md);
    * ``ece`` to rounding (rtol 1e-12): the state's bin sums are exact,
      the function's are float sums;
    * ``brier`` and ``log_loss`` are the exact sum of the function's own
      per-row terms (computed in float32 or float16 for such
      probabilities, as the function computes them) divided by the exact
      sum of the weights, correctly
      rounded; the function rounds both sums as it adds them, so the two
      differ by a few ulps (at most 3 on 400 random inputs of up to 1e5
      rows; docs/guide/evaluator.md).

    **Undefined values and errors.** A metric that the in-memory function
    leaves undefined is NaN with that function's warning (one class in a
    group: ``roc_auc`` is NaN with ``UndefinedMetricWarning``). A metric
    that raises on the whole data (all weights zero) raises ValueError
    naming it from :meth:`compute`; for one group its value is NaN and a
    warning names the group and the metric. Warnings of a group's metrics
    are re-issued as ``"group <label>: <metric>: <message>"`` (same
    category), those of the whole data as ``"<metric>: <message>"``.

    **Groups.** Any str, int, float or bool labels; rows whose group is
    null (None, NaN, pandas' NA) count in the overall values only, as
    pandas' ``groupby(dropna=True)`` leaves them out.

    **Threads.** One Evaluator may be shared by threads: :meth:`update`,
    :meth:`merge` (holding both Evaluators' locks), :meth:`reset`,
    :meth:`compute`, :meth:`to_pandas`, :meth:`to_bytes`, pickling and
    copying take its lock, so concurrent calls run one at a time and each
    sees every batch wholly or not at all (the kernels inside each call
    still use ``n_threads``).

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> ev = tm.Evaluator(["roc_auc", "accuracy", "log_loss"])
    >>> y = np.array([0, 1, 1, 0, 1, 0])
    >>> p = np.array([0.2, 0.8, 0.6, 0.4, 0.3, 0.1])
    >>> _ = ev.update(y[:3], p[:3], groups=["a", "a", "b"]).update(y[3:], p[3:], groups=["b", "a", "b"])
    >>> result = ev.compute()
    >>> result["overall"]["roc_auc"] == tm.roc_auc_score(y, p)
    True
    >>> sorted(result["by_group"])
    ['a', 'b']
    """

    _VERSION = 2  # 2: the states by columns (1: an archive per state and group)

    @validate_params(
        {
            "threshold": [REAL],
            "n_bins": [_POSITIVE_INT],
            "confidence": [real_interval(0, 1, "neither")],
            "by": [STRING, NONE],
        },
        bind_like_scikit_learn=False,
    )
    def __init__(
        self,
        metrics: Sequence[str] | Mapping[str, Mapping[str, Any] | UserMetric] | None = None,
        *,
        classes: int | Sequence[Any] | None = None,
        pos_label: Any = None,
        threshold: float = 0.5,
        n_bins: int = 15,
        confidence: float = 0.95,
        by: str | None = None,
        n_threads: int | None = None,
    ) -> None:
        if isinstance(threshold, (bool, np.bool_)) or not math.isfinite(threshold):
            raise ValueError(f"threshold must be a finite number, got {threshold!r}")
        if n_threads is not None:
            resolve_threads(n_threads)  # its ValueError / TypeError for a bad count
        self.classes = _checked_classes(classes)
        multiclass = self.classes is not None
        self.pos_label = _checked_pos_label(pos_label, multiclass)
        n_classes = 2 if self.classes is None else self.classes if isinstance(self.classes, int) else len(self.classes)
        self.problem = Problem(
            multiclass=multiclass,
            n_classes=n_classes,
            threshold=float(threshold),
            n_bins=int(n_bins),
            confidence=float(confidence),
            n_threads=n_threads,
        )
        self.metrics, self.options, self.user_metrics = _checked_metrics(metrics, multiclass)
        # name -> (the states it reads, how it is computed); made once, read per batch and group
        self._table: dict[str, tuple[tuple[str, ...], Compute]] = dict(
            MULTICLASS_METRICS if multiclass else BINARY_METRICS
        )
        self._table.update({name: user.entry(name, multiclass) for name, user in self.user_metrics.items()})
        self.by = by
        self._lookup = (
            None if not isinstance(self.classes, tuple) else {label: k for k, label in enumerate(self.classes)}
        )
        self._lock = threading.RLock()  # see "Threads" in the class notes
        self.reset()

    # -- parameters ----------------------------------------------------------------------
    @property
    def threshold(self) -> float:
        return self.problem.threshold

    @property
    def n_bins(self) -> int:
        return self.problem.n_bins

    @property
    def confidence(self) -> float:
        return self.problem.confidence

    @property
    def n_threads(self) -> int | None:
        return self.problem.n_threads

    @property
    def multiclass(self) -> bool:
        """Whether the evaluator is multiclass (``classes`` given)."""
        return self.problem.multiclass

    @property
    def n_samples(self) -> int:
        """Rows added (null groups included)."""
        return self._overall.n_samples

    @property
    def n_samples_by_group(self) -> dict[Any, int]:
        """Rows added per group, in natural order."""
        return {key: self._groups[key].n_samples for key in self.groups}

    def _needs(self) -> set[str]:
        return {kind for name in self.metrics for kind in self._table[name][0]}

    def _part(self) -> Part:
        p = self.problem
        return Part(p.n_classes, p.n_bins, p.multiclass, self._needs())

    def _drop_metrics(self, names: Iterable[str]) -> None:
        """Stop computing ``names`` (for the command line, which drops the
        probability metrics at the first scores outside [0, 1]); the states
        only they read are dropped."""
        with self._lock:
            dropped = set(names)
            self.metrics = tuple(name for name in self.metrics if name not in dropped)
            self.options = {name: value for name, value in self.options.items() if name not in dropped}
            self.user_metrics = {name: value for name, value in self.user_metrics.items() if name not in dropped}
            needs = self._needs()
            for part in (self._overall, *self._groups.values()):
                part.keep_only(needs)

    def reset(self) -> Evaluator:
        """Forget every row (the metrics and options stay); returns self."""
        with self._lock:
            self._overall = self._part()
            self._groups: dict[Any, Part] = {}
        return self

    def __repr__(self) -> str:
        classes = "" if self.classes is None else f", classes={self.classes!r}"
        classes += "" if self.pos_label is None else f", pos_label={self.pos_label!r}"
        return f"Evaluator({list(self.metrics)!r}{classes}, n_samples={self.n_samples}, groups={len(self._groups)})"

    # -- input -----------------------------------------------------------------------------
    @validate_params({}, bind_like_scikit_learn=False)  # array inputs as NumPy
    def update(self, y_true: Any, y_score: Any, *, sample_weight: Any = None, groups: Any = None) -> Evaluator:
        """Add a batch of rows in place; returns self.

        Parameters
        ----------
        y_true : array-like of shape (n,)
            Binary: ``pos_label`` and one other label, or without it 0 and 1,
            -1 and 1, or booleans. Multiclass: class indices
            0 .. K-1 (``classes=K``) or labels among ``classes``.
        y_score : array-like of shape (n,) or (n, K)
            Binary: the score or probability of the positive class (1, or
            ``pos_label``; probabilities in
            [0, 1] for ``ece``, ``brier``, ``log_loss``). Multiclass: the
            probability of each class. float64 and float32 are read in
            place (the states give the same values for float32 as for its
            float64 widening; thresholds and row sums are compared in
            float64), other dtypes as float64, except that ``brier`` and
            ``log_loss`` compute float16 probabilities in their dtype, as
            the functions do.
        sample_weight : array-like of shape (n,), default=None
        groups : array-like of shape (n,), default=None
            The group of each row: str, int, float or bool labels; null
            (None, NaN, pandas' NA) rows count overall only.

        NumPy arrays, lists, pandas, polars and pyarrow columns, and torch
        CPU tensors are accepted. An empty batch is accepted.

        Raises
        ------
        ValueError
            For labels that are not those of the problem, scores of the
            wrong shape, NaN or infinite values, probabilities outside
            [0, 1] when a probability metric is asked for, multiclass rows
            that do not sum to one for ``roc_auc``, inconsistent lengths,
            and as the states reject their input (invalid weights).
        TypeError
            For group labels that are not text, numbers or booleans.
        """
        with self._lock:
            return self._update(y_true, y_score, sample_weight, groups)

    def _update(self, y_true: Any, y_score: Any, sample_weight: Any, groups: Any) -> Evaluator:
        check_consistent_length(y_true, y_score, sample_weight, groups)
        y = self._labels(y_true)
        proba = self._scores(y_score, y.shape[0])  # float32 and float16 kept for brier and log_loss
        score = proba if proba.dtype == np.float32 else proba.astype(np.float64, copy=False)  # float32 in place
        n = y.shape[0]
        if n == 0:
            return self
        weight = None
        if sample_weight is not None:
            weight = check_sample_weight(sample_weight, n, check_values=False).astype(np.float64, copy=False)
            assert_all_finite(weight, input_name="sample_weight")
        needs = self._needs()
        rows_sum_to_one = True
        if needs & {"calibration", "brier", "log"}:
            rows_sum_to_one = checked_probabilities(proba, self.n_threads)
        if "class_ranking" in needs:
            # the rows' float64 sums, as one column (no float64 copy of float32 scores)
            check_probability_rows(score.sum(axis=1, dtype=np.float64)[:, None])
        predicted = None
        if "confusion" in needs:
            predicted = score.argmax(axis=1) if self.multiclass else (score >= np.float64(self.threshold)).view(np.int8)
        coded = None if groups is None else _factorize(groups)
        # The batch's parts are built first and merged once all are built, so a batch that a state
        # refuses leaves the Evaluator as it was.
        batch = self._part()
        batch.update(y, score, predicted, weight, rows_sum_to_one, self.n_threads, proba)
        by_group = (
            {}
            if coded is None
            else self._group_parts(*coded, batch, y, score, predicted, weight, rows_sum_to_one, proba)
        )
        self._overall.merge(batch)
        for key, part in by_group.items():
            self._group(key).merge(part)
        return self

    def _labels(self, y_true: Any) -> np.ndarray:
        """Class indices: int8 0/1 (binary) or int64 0 .. K-1."""
        y = column_or_1d(y_true)
        if not self.multiclass:
            return _binary_labels(y, self.pos_label)
        if self._lookup is None:
            k = self.problem.n_classes
            if y.dtype.kind in "biu" or (y.dtype.kind == "f" and bool(np.all(y == np.round(y)))):
                indices = y.astype(np.int64)
                outside = (indices < 0) | (indices >= k)
                if not outside.any():
                    return indices
                bad = y[np.argmax(outside)]
            else:
                bad = y[0] if y.dtype.kind not in "f" else y[np.argmax(y != np.round(y))]
            raise ValueError(f"y_true must hold class indices 0 .. {k - 1}, got {shown(bad)}")
        if y.shape[0] == 0:
            return np.zeros(0, np.int64)
        try:
            unique, inverse = np.unique(y, return_inverse=True)
        except TypeError:  # labels that do not sort: look each one up
            unique, inverse = np.array(list(dict.fromkeys(y.tolist())), dtype=object), None
        codes = []
        for label in unique.tolist():
            code = self._lookup.get(label, -1) if isinstance(label, _KEY_TYPES) else -1
            if code < 0:
                raise ValueError(f"y_true holds {shown(label)}, which is not one of the classes {list(self._lookup)}")
            codes.append(code)
        table = np.asarray(codes, dtype=np.int64)
        if inverse is None:
            positions = {label: i for i, label in enumerate(unique.tolist())}
            return table[np.fromiter((positions[v] for v in y.tolist()), dtype=np.int64, count=y.shape[0])]
        return table[inverse.reshape(-1)]

    def _scores(self, y_score: Any, n: int) -> np.ndarray:
        """Finite scores, 1-D (binary) or (n, K): float32 and float16 as
        they are (the probability functions compute in them), others as
        float64."""
        array = np.asarray(y_score)
        if n == 0 and array.size == 0:
            return np.zeros((0, self.problem.n_classes) if self.multiclass else 0)
        if array.dtype.kind in "USV" or (array.dtype.kind == "O" and not _numbers(array)):
            raise ValueError("y_score must be numbers")
        check_dimensions(array)  # complex numbers: scikit-learn's error
        if array.dtype not in (np.float32, np.float16):
            array = array.astype(np.float64, copy=False)
        if self.multiclass:
            k = self.problem.n_classes
            if array.ndim != 2 or array.shape[1] != k:
                raise ValueError(f"y_score must have shape (n, {k}) (one probability per class), got {array.shape}")
        else:
            if array.ndim == 2 and array.shape[1] == 1:
                array = array.reshape(-1)
            if array.ndim != 1:
                raise ValueError(
                    f"y_score must be 1-D for a binary Evaluator (the score of class 1), got shape {array.shape}; "
                    "pass classes= for multiclass probabilities"
                )
        assert_all_finite(array)
        return array

    def _group_parts(
        self,
        keys: list[Any],
        codes: np.ndarray,
        whole: Part,
        y: np.ndarray,
        score: np.ndarray,
        predicted: np.ndarray | None,
        weight: np.ndarray | None,
        rows_sum_to_one: bool,
        proba: np.ndarray,
    ) -> dict[Any, Part]:
        """The parts of the batch's groups (``whole``, the batch's part,
        when one group holds every row)."""
        counts = np.bincount(codes[codes >= 0], minlength=len(keys))
        if len(keys) == 1 and counts[0] == y.shape[0]:
            return {keys[0]: whole}
        order = np.argsort(codes, kind="stable")[int(np.count_nonzero(codes < 0)) :]
        parts = {}
        for key, stop, count in zip(keys, np.cumsum(counts), counts):
            if count:
                rows = order[stop - count : stop]
                parts[key] = part = self._part()
                part.update(
                    y[rows],
                    score[rows],
                    None if predicted is None else predicted[rows],
                    None if weight is None else weight[rows],
                    rows_sum_to_one,
                    self.n_threads,
                    proba[rows],
                )
        return parts

    # -- merging -----------------------------------------------------------------------------
    def _check_mergeable(self, other: Any) -> None:
        if not isinstance(other, Evaluator):
            raise TypeError(f"cannot merge an Evaluator with {type(other).__name__}")
        for name in (
            "metrics",
            "options",
            "user_metrics",
            "classes",
            "pos_label",
            "threshold",
            "n_bins",
            "confidence",
            "by",
        ):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                raise ValueError(f"cannot merge Evaluators with different {name}: {mine!r} and {theirs!r}")

    def merge(self, other: Evaluator) -> Evaluator:
        """Add ``other``'s rows (an Evaluator of the same metrics, classes
        and options) in place; returns self.

        Raises
        ------
        TypeError
            If ``other`` is not an Evaluator.
        ValueError
            If it has other metrics, classes, threshold, n_bins,
            confidence or ``by``.
        """
        self._check_mergeable(other)
        return self._merge_parts(other)

    # -- results -----------------------------------------------------------------------------
    def compute(self) -> dict[str, dict[str, Any]]:
        """The metrics: ``{"overall": {name: value}, "by_group": {group:
        {name: value}}, "gap": {name: max - min over groups}}``.

        Values are Python floats (NaN where undefined), ``[lower, upper]``
        for ``roc_auc_ci``; ``best_f1`` adds ``best_f1_threshold``. Groups
        come in natural order (numbers, then text). ``gap`` holds every
        scalar metric when there are groups: the largest minus the smallest
        finite group value (NaN with fewer than two); ``{}`` without groups.

        Raises
        ------
        ValueError
            Without rows, or naming a metric that raises on the whole
            data (for a group, it is NaN with a warning instead).
        """
        with self._lock:
            if self.n_samples == 0:
                raise ValueError("the Evaluator has no rows: call update() first")
            return self._results()

    def _values(self, part: Part, group: Any) -> dict[str, Any]:
        """The metrics of one part; ``group`` None for the whole data."""
        table = self._table
        return metric_values(
            self.metrics, lambda name: table[name][1](part, self.problem, self.options.get(name, {})), group
        )

    def to_pandas(self) -> Any:
        """The values as a pandas DataFrame: one row per group, in natural
        order, after a first row ``"overall"``; the index is named ``by``
        (or "group"); ``roc_auc_ci`` becomes ``roc_auc_ci_lower`` and
        ``roc_auc_ci_upper``; ``n_samples`` is the last column. Needs pandas.

        Raises
        ------
        ValueError
            As :meth:`compute`, or when a group is labelled "overall".
        """
        with self._lock:
            result = self.compute()
            counts = self._counts("n_samples")
        return results_frame(result, {"n_samples": counts}, self.by, ("lower", "upper"))

    # -- serialisation ---------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The Evaluator as bytes that :meth:`from_bytes` reads back (a
        ``.npz`` archive and a JSON header, nothing pickled; see
        ``RankingState.to_bytes``), written under the
        Evaluator's lock, so a concurrent :meth:`update` is in it wholly or
        not at all."""
        if self.user_metrics:
            raise TypeError(
                f"an Evaluator with user-defined metrics ({', '.join(self.user_metrics)}) has no bytes: "
                "they are code, which to_bytes does not write (pickle the Evaluator)"
            )
        with self._lock:
            return super().to_bytes()

    def _fields(self) -> dict[str, Any]:
        return {
            "metrics": list(self.metrics),
            **({"options": self.options} if self.options else {}),
            **({"user_metrics": self.user_metrics} if self.user_metrics else {}),
            "classes": list(self.classes) if isinstance(self.classes, tuple) else self.classes,
            **({} if self.pos_label is None else {"pos_label": self.pos_label}),
            "threshold": self.threshold,
            "n_bins": self.n_bins,
            "confidence": self.confidence,
            "by": self.by,
        }

    def _parts(self) -> dict[str, Any]:
        """The options, the group labels, and the states of the whole and
        of each group by columns (``_part.part_columns``): a group costs
        what its states hold."""
        keys = self.groups
        parts: dict[str, Any] = {**self._fields(), "groups": keys}
        parts.update(part_columns([self._overall, *(self._groups[key] for key in keys)]))
        return parts

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> Evaluator:
        """An Evaluator of its parts: the options are checked as the
        constructor checks them, and the class count and bins against what
        the arrays hold before any state is built; each state by its
        ``from_bytes``; the groups' labels (distinct, not NaN) and rows
        against the whole's."""
        absent = [name for name in (*_field_names(), "groups") if name not in parts]
        if absent:
            raise ValueError(f"Evaluator: missing fields {absent}")
        fields = {name: parts[name] for name in _field_names()}
        fields["pos_label"] = parts.get("pos_label")  # written when set (bytes of 0.1 have none)
        if isinstance(fields["classes"], list):
            fields["classes"] = tuple(fields["classes"])
        if not isinstance(fields["metrics"], list):
            raise ValueError(f"metrics must be a list of names, got {fields['metrics']!r}")
        options, user = parts.get("options", {}), parts.get("user_metrics", {})
        if not isinstance(options, dict) or not isinstance(user, dict):
            raise ValueError("options and user_metrics must be dicts")
        if options or user:
            fields["metrics"] = {
                name: user[name] if name in user else options.get(name, {}) for name in fields["metrics"]
            }
        keys = parts["groups"]
        if not isinstance(keys, list):
            raise ValueError("groups must be a list of labels")
        _check_sizes(fields, parts)
        try:
            evaluator = cls(**fields)
        except (TypeError, ValueError) as error:
            raise ValueError(f"Evaluator: {first_line(error)}") from None
        labels = [_as_label(key, "groups") if isinstance(key, _KEY_TYPES) else None for key in keys]
        if None in labels or len(set(labels)) != len(labels) or any(label != label for label in labels):
            raise ValueError("groups must be distinct str, int, float or bool labels, not NaN")
        template = evaluator._part()
        known, prefixes = {*_field_names(), "groups", "n_samples"}, column_prefixes(template)
        known.update(name for name in ("pos_label", "options", "user_metrics") if name in parts)
        unknown = sorted(name for name in parts if name not in known and not name.startswith(prefixes))
        if unknown:
            raise ValueError(f"Evaluator: unknown fields {unknown[:5]}")
        loaded = parts_of_columns(template, parts, len(labels) + 1)
        evaluator._overall, evaluator._groups = loaded[0], dict(zip(labels, loaded[1:]))
        total = sum(part.n_samples for part in evaluator._groups.values())
        if total > evaluator.n_samples:
            raise ValueError(f"the groups hold {total} rows, more than the {evaluator.n_samples} of the whole")
        return evaluator


def _check_sizes(fields: Mapping[str, Any], parts: Mapping[str, Any]) -> None:
    """Refuse a class count or bin count that the arrays cannot hold,
    before an Evaluator of them builds its states: with ``K`` classes
    the parts hold ``K`` one-vs-rest ranking states (multiclass
    ``roc_auc``, each its own columns) or a ``K x K`` confusion table, and with ``n_bins`` bins
    a calibration state three exact sums per bin (at least 8 bytes each).

    Raises
    ------
    ValueError
        Naming the field.
    """
    classes, n_bins, metrics = fields["classes"], fields["n_bins"], fields["metrics"]
    size = sum(value.nbytes for value in parts.values() if isinstance(value, np.ndarray))
    n_classes = 2 if classes is None else classes if isinstance(classes, int) else len(classes)
    if not isinstance(n_classes, int) or not all(isinstance(name, str) for name in metrics):
        return  # the constructor's checks name the problem
    table = MULTICLASS_METRICS if classes is not None else BINARY_METRICS
    needs = {kind for name in metrics if name in table for kind in table[name][0]}
    if "class_ranking" in needs and n_classes > len(parts):
        raise ValueError(f"classes: {n_classes} classes need more states than the bytes hold")
    if "confusion" in needs and n_classes * n_classes * 8 > size:
        raise ValueError(f"classes: {n_classes} classes need a larger confusion table than the bytes hold")
    if "calibration" in needs and isinstance(n_bins, int) and n_bins * 3 * 8 > size:
        raise ValueError(f"n_bins: {n_bins} bins need more exact sums than the bytes hold")


def metric_values(names: Iterable[str], compute: Callable[[str], Mapping[str, Any]], group: Any) -> dict[str, Any]:
    """The values of the metrics ``names`` of one part (``compute(name)``:
    a metric's result entries) as Python floats (or lists of them);
    ``group`` None for the whole data. Warnings are re-issued with the
    group and the metric's name in front; a ValueError, TypeError or
    ZeroDivisionError raises ValueError naming the metric for the whole
    data, and makes the metric NaN with a warning for a group."""
    where = "" if group is None else f"group {group}: "
    values: dict[str, Any] = {}
    for name in names:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = compute(name)
            except (ValueError, TypeError, ZeroDivisionError) as error:
                if group is None:
                    raise ValueError(f"{name}: {first_line(error)}") from None
                caught.append(warnings.WarningMessage(first_line(error), UserWarning, "", 0))
                result = {name: math.nan} if name != "best_f1" else {name: math.nan, f"{name}_threshold": math.nan}
        for warning in caught:
            warnings.warn(f"{where}{name}: {first_line(warning.message)}", warning.category, stacklevel=4)
        values.update({key: _python(value) for key, value in result.items()})
    return values


def results_frame(
    result: Mapping[str, Any], counts: Mapping[str, Mapping[Any, int]], by: str | None, suffixes: Sequence[str] | None
) -> Any:
    """``compute()``'s result as a pandas DataFrame: a row ``"overall"``,
    then one per group; a list value becomes one column per item, named
    ``<name>_<suffix>`` (``suffixes``, or the item's index when None); the
    ``counts`` columns (name -> {row: count}) come last.

    Raises
    ------
    ValueError
        When a group is labelled "overall".
    """
    import pandas as pd

    if OVERALL in result["by_group"]:
        raise ValueError(f"a group is labelled {OVERALL!r}: use compute()")
    rows = {OVERALL: result["overall"], **result["by_group"]}
    records = []
    for key, values in rows.items():
        record = {}
        for name, value in values.items():
            if isinstance(value, list):
                names = suffixes if suffixes is not None else range(len(value))
                record.update({f"{name}_{suffix}": item for suffix, item in zip(names, value)})
            else:
                record[name] = value
        record.update({column: counted[key] for column, counted in counts.items()})
        records.append(record)
    return pd.DataFrame.from_records(records, index=pd.Index(list(rows), name=by or "group", dtype=object))


def _field_names() -> tuple[str, ...]:
    return ("metrics", "classes", "threshold", "n_bins", "confidence", "by")


def _numbers(array: np.ndarray) -> bool:
    return all(isinstance(v, (Real, np.number, np.bool_)) for v in array.flat)


def _python(value: Any) -> Any:
    """A metric value as a Python float (a list of them for intervals)."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [_python(v) for v in value]
    return float(value)


def _checked_pos_label(pos_label: Any, multiclass: bool) -> Any:
    """``pos_label`` as None or a Python str, int, float (not NaN) or bool.

    Raises
    ------
    ValueError
        For a multiclass Evaluator or NaN.
    TypeError
        For another type.
    """
    if pos_label is None:
        return None
    if multiclass:
        raise ValueError("pos_label is for binary Evaluators; a multiclass one takes classes=")
    label = _as_label(pos_label, "pos_label")
    if isinstance(label, float) and math.isnan(label):
        raise ValueError("pos_label must not be NaN")
    return label


def _binary_labels(y: np.ndarray, pos_label: Any) -> np.ndarray:
    """``y == pos_label`` as int8 (1 positive); without ``pos_label`` y must
    be {0, 1}, {-1, 1} or booleans, as scikit-learn requires.

    Raises
    ------
    ValueError
        scikit-learn's message for NaN or infinite labels, and for other
        labels without ``pos_label``; with it, for more than two labels or
        two of which neither is ``pos_label``.
    """
    if y.shape[0] == 0:
        return np.zeros(0, np.int8)
    if y.dtype.kind == "f":
        assert_all_finite(y, input_name="y_true")  # scikit-learn's "Input y_true contains NaN."
    if pos_label is None:
        if y.dtype.kind == "b":
            return y.view(np.int8)
        if y.dtype.kind in "iuf":
            positive = y == 1
            if bool(np.all(positive | (y == 0))) or bool(np.all(positive | (y == -1))):
                return positive.view(np.int8)
        listed = ", ".join(repr(label) for label in _distinct(y))
        raise ValueError(
            f"y_true takes value in {{{listed}}} and pos_label is not specified: either make y_true take value "
            "in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    positive = np.asarray(y == pos_label) if y.dtype.kind not in "US" or isinstance(pos_label, str) else None
    if positive is None or positive.shape != y.shape:  # text against a number: equal to none
        positive = np.zeros(y.shape[0], dtype=bool)
    rest = y[~positive]
    if rest.shape[0] and not bool(np.all(rest == rest[0])):
        labels = _distinct(y)
        if len(labels) == 2:
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {labels}")
        raise ValueError(
            f"y_true holds {len(labels)} labels ({shown(labels[:5])}), a binary Evaluator two; "
            "pass classes= for multiclass labels"
        )
    return positive.view(np.int8)


def _distinct(y: np.ndarray) -> list[Any]:
    """The distinct labels of ``y``, sorted where they sort."""
    try:
        return list(np.unique(y).tolist())
    except TypeError:  # labels that do not sort
        return list(dict.fromkeys(y.tolist()))


def _checked_classes(classes: Any) -> int | tuple[Any, ...] | None:
    """``classes`` as None, an int K >= 2 or a tuple of K >= 2 distinct labels.

    Raises
    ------
    ValueError
        For fewer than two classes or repeated labels.
    TypeError
        For labels that are not text, numbers or booleans.
    """
    if classes is None:
        return None
    if isinstance(classes, Integral) and not isinstance(classes, (bool, np.bool_)):
        if int(classes) < 2:
            raise ValueError(f"classes must be at least 2, got {int(classes)}")
        return int(classes)
    if isinstance(classes, (str, bytes)) or not isinstance(classes, Iterable):
        raise TypeError(f"classes must be None, an int or a sequence of labels, not {type(classes).__name__}")
    labels = tuple(_as_label(c, "classes") for c in classes)
    if len(labels) < 2:
        raise ValueError(f"classes must name at least 2 classes, got {list(labels)}")
    if len(set(labels)) != len(labels):
        twice = next(c for c in labels if labels.count(c) > 1)
        raise ValueError(f"classes names {twice!r} twice")
    if any(isinstance(c, float) and not math.isfinite(c) for c in labels):
        raise ValueError("classes must not be NaN or infinite")
    return labels


def option_parameters() -> list[inspect.Parameter]:
    """The Evaluator's parameters (``metrics`` and its keyword-only
    options), from which the distributed tools (``turbometrics.dask.evaluate``,
    ``turbometrics.spark.evaluate``) build their signatures."""
    return list(inspect.signature(Evaluator).parameters.values())


def update_parameters() -> list[inspect.Parameter]:
    """:meth:`Evaluator.update`'s parameters, ``self`` aside."""
    return list(inspect.signature(Evaluator.update).parameters.values())[1:]


def _checked_metrics(
    metrics: Any, multiclass: bool
) -> tuple[tuple[str, ...], dict[str, dict[str, Any]], dict[str, UserMetric]]:
    """The metric names (duplicates dropped; aliases as the vocabulary's
    names), all of the problem's kind, the options of those that have some,
    and the user-defined metrics.

    Raises
    ------
    ValueError
        For an empty list, an unknown name, a metric of the other kind, or
        options its metric does not take.
    TypeError
        For a str (a list of names is needed), names that are not str, or
        values of a dict that are neither options nor a UserMetric.
    """
    if metrics is None:
        return (DEFAULT_MULTICLASS if multiclass else DEFAULT_BINARY), {}, {}
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a list of names, not a str (write [{metrics!r}])")
    specs = dict(metrics) if isinstance(metrics, Mapping) else dict.fromkeys(metrics)
    user = {name: spec for name, spec in specs.items() if isinstance(spec, UserMetric)}
    for name, spec in user.items():
        if not isinstance(name, str):
            raise TypeError(f"metric names must be str, got {name!r}")
        spec.entry(name, multiclass)  # its ValueError for a state the problem lacks
    named = {canonical(name): spec for name, spec in specs.items() if name not in user}
    options = {
        name: checked_options(name, spec, multiclass)
        for name, spec in named.items()
        if spec is not None and isinstance(name, str) and name in (MULTICLASS_METRICS if multiclass else BINARY_METRICS)
    }
    names = list(named)
    known, other = (MULTICLASS_METRICS, BINARY_METRICS) if multiclass else (BINARY_METRICS, MULTICLASS_METRICS)
    task = "multiclass" if multiclass else "binary"
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"metric names must be str, got {name!r}")
        if name not in known:
            hint = ""
            if name in other:
                hint = " (a multiclass metric: pass classes=)" if not multiclass else " (a binary metric: classes=None)"
            raise ValueError(f"unknown {task} metric {name!r}{hint} (known: {', '.join(known)})")
    if not names and not user:
        raise ValueError("metrics is empty")
    return tuple(_specs_in_order(specs, user)), {name: value for name, value in options.items() if value}, user


def _specs_in_order(specs: Mapping[Any, Any], user: Mapping[str, UserMetric]) -> list[str]:
    """The names of ``specs`` in their order, aliases as the vocabulary's
    names, duplicates dropped."""
    return list(dict.fromkeys(name if name in user else canonical(name) for name in specs))


def _null_groups(values: np.ndarray) -> np.ndarray:
    """Which group values are null: None, NaN, and pandas' NA and NaT when
    pandas is imported."""
    pandas = sys.modules.get("pandas")
    if pandas is not None and values.dtype.kind in "OmM":
        return np.asarray(pandas.isna(values), dtype=bool)
    if values.dtype.kind in "mM":
        return np.isnat(values)
    return missing(values)


def _factorize(groups: Any) -> tuple[list[Any], np.ndarray]:
    """The distinct non-null group labels and each row's code (-1 for a
    null group). Numbers are sorted by NumPy; other values are looked up in
    a dict.

    Raises
    ------
    TypeError
        For labels that are not text, numbers or booleans.
    ValueError
        For groups that are not 1-D.
    """
    values = np.asarray(groups)
    if values.ndim != 1:
        raise ValueError(f"groups must be 1-D, got shape {values.shape}")
    null = _null_groups(values)
    present = ~null if null.any() else None
    kept = values if present is None else values[present]
    if kept.dtype.kind in "biufU":
        unique, inverse = np.unique(kept, return_inverse=True)
        keys = [_as_label(v, "groups") for v in unique.tolist()]
        codes = inverse.reshape(-1).astype(np.int64)
    else:
        lookup: dict[Any, int] = {}
        try:
            codes = np.fromiter(
                (lookup.setdefault(v, len(lookup)) for v in kept.tolist()), dtype=np.int64, count=kept.shape[0]
            )
        except TypeError:  # unhashable
            odd = next(v for v in kept.tolist() if not isinstance(v, _KEY_TYPES))
            _as_label(odd, "groups")
            raise
        keys = [_as_label(v, "groups") for v in lookup]
    if present is None:
        return keys, codes
    all_codes = np.full(values.shape[0], -1, dtype=np.int64)
    all_codes[present] = codes
    return keys, all_codes
