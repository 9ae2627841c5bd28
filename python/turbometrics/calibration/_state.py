"""A mergeable calibration evaluation: the uniform-bin table of a stream.

``CalibrationState`` keeps calibration's one primitive, the per-bin table
(weight, sum of weighted confidence, sum of weighted correctness), with
every sum exact: a fixed-point integer worth 2**-1100 per unit (the C++
``ExactSum``), so adding tables is exact and the result does not depend on
how the data was split or in which order states were merged. The metrics
round each sum once (Python's correctly rounded int division) and then run
the same code as :func:`turbometrics.calibration_error` and
:func:`turbometrics.reliability_diagram` on that table.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .. import _core
from .._common.mergeable import (
    CountedSamples,
    Serialisable,
    check_keys,
    check_mergeable,
    part_array,
    part_bool,
    part_choice,
    part_int,
    part_label,
)
from .._common.params import BOOLEAN, NONE, REAL, STRING, str_options, validate_params
from .._common.serial import EXACT_SUM_LIMBS, ints_from_limbs, limbs_from_ints
from .._common.threads import resolve_threads, threads_for
from .._common.validation import ALL_ZERO_WEIGHTS, as_array, check_consistent_length, num_samples
from ._input import calibration_input
from ._metrics import POSITIVE_INT, ReliabilityDiagram, diagram_from_table, error_from_table, raise_for_flags

_SUMS = ("_weight", "_confidence", "_correct")
_PARTS = ("n_bins", "mode", "pos_label", "_resolved", "_n_classes", "_n", "_weighted") + _SUMS
_SCALE_BITS = _core.exact_sums.SCALE_BITS  # an exact sum's integer is worth 2**-_SCALE_BITS
_ONE = 1 << _SCALE_BITS
_LARGEST = int(np.finfo(np.float64).max) << _SCALE_BITS  # an exact sum above it is no float
_EMPTY = "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required."


def _times_power_of_two(value: int, exponent: int) -> float:
    """``value * 2**exponent`` correctly rounded to a float."""
    return value / (1 << -exponent) if exponent < 0 else float(value << exponent)


def _check_bins(weight: list[int], confidence: list[int], correct: list[int], n: int, weighted: bool) -> None:
    """Per bin 0 <= confidence, correct <= weight, and the weight finite as
    a float; unweighted, whole counts adding up to ``n``."""
    for b, (w, c, k) in enumerate(zip(weight, confidence, correct)):
        if not (0 <= c <= w and 0 <= k <= w and w < _LARGEST):
            raise ValueError(
                f"bin {b}: the weight must be non-negative and finite, and the confidence and "
                "correctness sums between 0 and the weight"
            )
    if not weighted and (any(w % _ONE or k % _ONE for w, k in zip(weight, correct)) or sum(weight) != n * _ONE):
        raise ValueError(f"the bin counts of an unweighted state must be whole and add up to _n = {n}")


class CalibrationState(CountedSamples, Serialisable):
    """Mergeable uniform-bin calibration table (binary or top-label).

    Parameters
    ----------
    n_bins : int, default=15
        Uniform bins ``np.linspace(0, 1, n_bins + 1)``, [a, b) with the last
        bin closed.
    mode : {"auto", "binary", "top_label"}, default="auto"
        As in :func:`turbometrics.calibration_error`: "auto" is "binary" for
        a 1-D ``y_prob`` (probability of the positive class) and
        "top_label" for a 2-D one; every batch must resolve to the same.
    pos_label : int, float, bool or str, default=None
        Positive class of binary labels (1 when None), for every batch.

    Notes
    -----
    ``ece()``, ``mce()``, ``rmsce()`` and ``reliability_diagram()`` equal
    ``calibration_error(..., strategy="uniform", norm="l1" / "max" / "l2")``
    and ``reliability_diagram`` on the concatenated batches to rounding (the
    in-memory sums are float sums in chunk order; the state's are exact,
    rounded once); the per-bin weights of unweighted data are exact counts.
    The state's values are bit-identical for every split, merge order and
    thread count. Memory: 3 exact sums (280 bytes each) per bin. Each batch
    is checked as the in-memory functions check their input; a batch whose
    weights are all zero is accepted (the metrics raise scikit-learn's error
    when every weight is zero). Labels are checked per batch: binary labels
    {0, 1} in one batch and {-1, 1} in another are each valid (pos_label 1).

    Examples
    --------
    >>> import turbometrics as tm
    >>> y = [0, 1, 1, 0, 1, 1]
    >>> p = [0.2, 0.7, 0.9, 0.4, 0.6, 0.3]
    >>> state = tm.CalibrationState.from_arrays(y[:4], p[:4], n_bins=5)
    >>> state = state.update(y[4:], p[4:])
    >>> round(state.ece(), 6) == round(tm.calibration_error(y, p, n_bins=5), 6)
    True
    """

    @validate_params(
        {
            "n_bins": [POSITIVE_INT],
            "mode": [str_options({"auto", "binary", "top_label"})],
            "pos_label": [REAL, STRING, BOOLEAN, NONE],
        },
        bind_like_scikit_learn=False,
    )
    def __init__(self, n_bins: int = 15, *, mode: str = "auto", pos_label: Any = None) -> None:
        self.n_bins = int(n_bins)
        self.mode = mode
        self.pos_label = pos_label
        self._resolved: str | None = None  # "binary" or "top_label" once data came
        self._n_classes = 0  # columns of y_prob (top_label)
        self._n = 0
        self._weighted = False
        self._weight = [0] * self.n_bins
        self._confidence = [0] * self.n_bins
        self._correct = [0] * self.n_bins

    @property
    def edges(self) -> np.ndarray:
        """The bin edges, ``np.linspace(0, 1, n_bins + 1)``."""
        return np.linspace(0.0, 1.0, self.n_bins + 1)

    @classmethod
    def from_arrays(
        cls,
        y_true: Any,
        y_prob: Any,
        *,
        n_bins: int = 15,
        mode: str = "auto",
        pos_label: Any = None,
        sample_weight: Any = None,
        n_threads: int | None = None,
    ) -> CalibrationState:
        """The state of one batch (see :meth:`update`)."""
        return cls(n_bins, mode=mode, pos_label=pos_label).update(
            y_true, y_prob, sample_weight=sample_weight, n_threads=n_threads
        )

    @validate_params({}, bind_like_scikit_learn=False)  # array inputs as NumPy
    def update(
        self, y_true: Any, y_prob: Any, *, sample_weight: Any = None, n_threads: int | None = None
    ) -> CalibrationState:
        """Add a batch in place and return self.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary labels (1-D ``y_prob``) or class indices 0 .. K-1.
        y_prob : array-like of shape (n_samples,) or (n_samples, K)
            float64 and float32 are read in place.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights.
        n_threads : int, default=None
            Threads for the kernel; the state is identical for every count.

        Raises
        ------
        ValueError
            As :func:`turbometrics.calibration_error` for invalid input, and
            for a batch of another mode or number of classes than before.
        """
        threads = resolve_threads(n_threads)
        if num_samples(as_array(y_prob)) == 0:
            check_consistent_length(y_true, y_prob, sample_weight)
            return self
        try:
            data = calibration_input(
                y_true, y_prob, self.mode, self.pos_label, sample_weight, kernel_checks_labels=True
            )
        except ValueError as error:
            if str(error) != ALL_ZERO_WEIGHTS:
                raise
            data = calibration_input(y_true, y_prob, self.mode, self.pos_label, None, kernel_checks_labels=True)
            data.weights = np.zeros(data.n_samples)
        n_classes = data.prob.shape[1] if data.prob.ndim == 2 else 0
        if self._resolved is not None and (data.mode, n_classes) != (self._resolved, self._n_classes):
            raise ValueError(
                f"the batch is {data.mode} input with {n_classes} columns but the state holds "
                f"{self._resolved} input with {self._n_classes} (mode={self.mode!r})"
            )
        size = data.n_samples * max(n_classes, 1)
        weight, confidence, correct, invalid, invalid_label = _core.calibration.exact_bin_table(
            data.prob, data.mode, cast(np.ndarray, data.labels), data.weights, self.edges, threads_for(threads, size)
        )
        raise_for_flags(data, invalid, invalid_label)
        if data.weights is None:
            weights = [int(count) << _SCALE_BITS for count in weight]
            corrects = [int(count) << _SCALE_BITS for count in correct]
        else:
            weights, corrects = ints_from_limbs(weight), ints_from_limbs(correct)
        self._resolved, self._n_classes = data.mode, n_classes
        self._n += data.n_samples
        self._weighted |= data.weights is not None
        self._weight = [a + b for a, b in zip(self._weight, weights)]
        self._confidence = [a + b for a, b in zip(self._confidence, ints_from_limbs(confidence))]
        self._correct = [a + b for a, b in zip(self._correct, corrects)]
        return self

    # -- merging ---------------------------------------------------------------------
    def merge(self, other: CalibrationState) -> CalibrationState:
        """A new state holding the samples of both (exact).

        Raises
        ------
        ValueError
            If n_bins, mode, pos_label or (once data came) the resolved mode
            or number of classes differ.
        """
        check_mergeable(self, other, ("n_bins", "mode", "pos_label"))
        if (
            self._resolved
            and other._resolved
            and (self._resolved, self._n_classes) != (other._resolved, other._n_classes)
        ):
            raise ValueError(
                f"cannot merge CalibrationStates of {self._resolved} input with {self._n_classes} "
                f"columns and of {other._resolved} input with {other._n_classes}"
            )
        out = CalibrationState(self.n_bins, mode=self.mode, pos_label=self.pos_label)
        source = self if self._resolved else other
        out._resolved, out._n_classes = source._resolved, source._n_classes
        out._n = self._n + other._n
        out._weighted = self._weighted or other._weighted
        out._weight = [a + b for a, b in zip(self._weight, other._weight)]
        out._confidence = [a + b for a, b in zip(self._confidence, other._confidence)]
        out._correct = [a + b for a, b in zip(self._correct, other._correct)]
        return out

    # -- results ---------------------------------------------------------------------
    def table(self) -> np.ndarray:
        """The bin table, shape (1, n_bins, 3): weight, sum of weighted
        confidence, sum of weighted correctness, each rounded once from its
        exact sum."""
        if self._total_weight() >= _LARGEST:
            raise ValueError("the bin weights exceed the float64 range (the metrics rescale them; the table cannot)")
        return self._rounded_table(_SCALE_BITS)

    def _rounded_table(self, scale_bits: int) -> np.ndarray:
        """The table of the exact sums times 2**-scale_bits, each rounded once."""
        columns = [
            [_times_power_of_two(value, -scale_bits) for value in sums]
            for sums in (self._weight, self._confidence, self._correct)
        ]
        return np.array(columns, dtype=np.float64).T.reshape(1, self.n_bins, 3)

    def _metric_table(self) -> np.ndarray:
        """:meth:`table` times the power of two that brings the total weight
        to [2**511, 2**512): the metrics depend only on ratios of the sums,
        which this exact scaling keeps (so they equal those of the table
        wherever it is in range), and the weights of 1e308 or 5e-324 neither
        overflow nor lose their digits."""
        return self._rounded_table(self._total_weight().bit_length() - 512)

    def _total_weight(self) -> int:
        """The exact total weight; scikit-learn's errors for no sample or
        all weights zero."""
        if self._n == 0:
            raise ValueError(_EMPTY)
        total = sum(self._weight)
        if total == 0:  # weights are non-negative: the total is zero iff every bin's is
            raise ValueError(ALL_ZERO_WEIGHTS)
        return total

    def bin_weight(self) -> np.ndarray:
        """Per-bin weight: int64 sample counts when unweighted, else float64."""
        if not self._weighted:
            return np.array([value >> _SCALE_BITS for value in self._weight], dtype=np.int64)
        return self.table()[0, :, 0]

    def ece(self) -> float:
        """Expected calibration error: ``calibration_error(norm="l1")``."""
        return error_from_table(self._metric_table(), "l1")

    def mce(self) -> float:
        """Maximum calibration error: ``calibration_error(norm="max")``."""
        return error_from_table(self._metric_table(), "max")

    def rmsce(self) -> float:
        """Root-mean-square calibration error: ``calibration_error(norm="l2")``."""
        return error_from_table(self._metric_table(), "l2")

    def reliability_diagram(self) -> ReliabilityDiagram:
        """As :func:`turbometrics.reliability_diagram` (uniform bins)."""
        return diagram_from_table(self.table(), self.edges, self._resolved or "binary")

    # -- serialisation -------------------------------------------------------------
    def _parts(self) -> dict[str, Any]:
        """The state's parts (see :class:`Serialisable`): the per-bin exact
        sums as (n_bins, limbs) uint64 arrays of little-endian two's
        complement limbs."""
        parts = dict(self.__dict__)
        for name in _SUMS:
            parts[name] = limbs_from_ints(parts[name])
        return parts

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> CalibrationState:
        """The state of validated parts: parameters as the constructor
        checks them; ``_resolved`` (None before data) agreeing with
        ``mode``, ``_n_classes`` with it; per bin a weight, and confidence
        and correctness sums between 0 and the weight (integer counts when
        unweighted, adding up to ``_n``)."""
        check_keys("CalibrationState", parts, _PARTS)
        n_bins = part_int(parts, "n_bins", low=1)
        limbs = {name: part_array(parts, name, "u", 2) for name in _SUMS}
        for name, value in limbs.items():  # before the constructor allocates n_bins sums
            if value.shape != (n_bins, EXACT_SUM_LIMBS):
                raise ValueError(f"{name} must have shape ({n_bins}, {EXACT_SUM_LIMBS}), got {value.shape}")
        state = cls(
            n_bins,
            mode=part_choice(parts, "mode", ("auto", "binary", "top_label")),
            pos_label=part_label(parts),
        )
        resolved = part_choice(parts, "_resolved", (None, "binary", "top_label"))
        n = part_int(parts, "_n")
        if (resolved is None) != (n == 0) or (resolved is not None and state.mode not in ("auto", resolved)):
            raise ValueError(f"_resolved {resolved!r} disagrees with mode {state.mode!r} or _n {n}")
        n_classes = part_int(parts, "_n_classes", high=0 if resolved != "top_label" else 2**31)
        if resolved == "top_label" and n_classes == 0:
            raise ValueError("_n_classes must be positive for top_label input")
        state._resolved, state._n_classes, state._n = resolved, n_classes, n
        state._weighted = part_bool(parts, "_weighted")
        sums = {name: ints_from_limbs(value) for name, value in limbs.items()}
        _check_bins(sums["_weight"], sums["_confidence"], sums["_correct"], n, state._weighted)
        state._weight, state._confidence, state._correct = sums["_weight"], sums["_confidence"], sums["_correct"]
        return state

    def __repr__(self) -> str:
        return (
            f"CalibrationState(n_bins={self.n_bins}, mode={self._resolved or self.mode!r}, "
            f"n_samples={self._n}, weighted={self._weighted})"
        )
