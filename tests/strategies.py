"""Hypothesis strategies for ranking-metric inputs.

The generated data deliberately stresses what a sort-and-sweep backend can get
wrong: heavy ties (scores drawn from a handful of values), mixed -0.0/+0.0,
extreme and subnormal floats, every score dtype, zero and fractional sample
weights, all label encodings scikit-learn accepts, tiny sizes and one-class
inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

SCORE_DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_]
# Accepted by sklearn too; exercised by test_inputs.py.
EXTRA_SCORE_DTYPES = [np.float16, np.int8, np.int16, np.uint16, np.uint32, np.uint64]

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 1e-300, 5e-324, -5e-324, 1e300, -1e300, 0.1, 0.2, 0.3]


# --------------------------------------------------------------------------
# sizes


def sizes(min_n: int = 1, max_n: int = 40) -> st.SearchStrategy[int]:
    """Biased towards the tiny sizes where edge cases live."""
    small = st.integers(min_n, max(min_n, min(3, max_n)))
    return st.one_of(small, st.integers(min_n, max_n))


# --------------------------------------------------------------------------
# scores


def _float_elements(dtype) -> st.SearchStrategy[float]:
    width = np.dtype(dtype).itemsize * 8
    return st.floats(allow_nan=False, allow_infinity=False, width=width)


def _pool_elements(dtype) -> st.SearchStrategy:
    """Elements from which a small pool of tied values is drawn."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.one_of(
            st.sampled_from(sorted({0, 1, int(info.min), int(info.max)})),
            st.integers(int(info.min), int(info.max)),
            st.integers(max(int(info.min), -3), min(int(info.max), 3)),
        )
    with np.errstate(over="ignore"):
        specials = [x for x in SPECIAL_FLOATS if np.isfinite(np.asarray(x, dtype=dtype))]
    return st.one_of(st.sampled_from(specials), _float_elements(dtype))


@st.composite
def score_arrays(draw, n: int, dtype=None) -> np.ndarray:
    """1-D score array of length n, either heavily tied or mostly distinct."""
    if dtype is None:
        dtype = draw(st.sampled_from(SCORE_DTYPES))
    dtype = np.dtype(dtype)
    mode = draw(st.sampled_from(["few", "few", "signed_zero", "many"]))
    if mode == "signed_zero" and dtype.kind == "f":
        pool = [0.0, -0.0] + draw(st.lists(_pool_elements(dtype), max_size=2))
        elements = st.sampled_from(pool)
    elif mode in ("few", "signed_zero") or dtype.kind == "b":
        pool = draw(st.lists(_pool_elements(dtype), min_size=1, max_size=4))
        elements = st.sampled_from(pool)
    elif dtype.kind == "f":
        elements = _float_elements(dtype)
    else:
        info = np.iinfo(dtype)
        elements = st.integers(int(info.min), int(info.max))
    values = draw(st.lists(elements, min_size=n, max_size=n))
    with np.errstate(over="ignore"):
        return np.array(values, dtype=dtype)


# --------------------------------------------------------------------------
# labels


@dataclass(frozen=True)
class Encoding:
    name: str
    negative: Any
    positive: Any
    dtype: Any
    # pos_label values to try for curve functions (None = let sklearn infer)
    pos_labels: Sequence[Any]

    def labels(self, mask: np.ndarray) -> np.ndarray:
        arr = np.array([self.negative, self.positive], dtype=self.dtype)
        return arr[mask.astype(np.intp)]


ENCODINGS = [
    Encoding("int01", 0, 1, np.int64, (None, 1, 0)),
    Encoding("int32_01", 0, 1, np.int32, (None, 1)),
    Encoding("pm1", -1, 1, np.int64, (None, 1, -1)),
    Encoding("bool", False, True, np.bool_, (None, True, False)),
    Encoding("str", "a", "b", np.str_, ("a", "b")),
    Encoding("object_str", "neg", "pos", object, ("pos", "neg")),
    Encoding("float01", 0.0, 1.0, np.float64, (None, 1.0, 0.0, 1)),
    Encoding("int_2_5", 2, 5, np.int64, (5, 2)),
]


@st.composite
def label_masks(draw, n: int) -> np.ndarray:
    """Which samples belong to the 'positive' encoding value.

    Sometimes forced one-class, otherwise arbitrary."""
    kind = draw(st.sampled_from(["mixed", "mixed", "mixed", "all_true", "all_false"]))
    if kind == "all_true":
        return np.ones(n, dtype=bool)
    if kind == "all_false":
        return np.zeros(n, dtype=bool)
    return draw(hnp.arrays(np.bool_, n))


# --------------------------------------------------------------------------
# sample weights

DYADIC_WEIGHTS = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 8.0]
SIGNED_WEIGHTS = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0]


@st.composite
def weight_arrays(draw, n: int, kind: str | None = None) -> np.ndarray | None:
    """None, or non-negative weights (zeros included).

    kind: "none", "dyadic" (exactly representable: sums are exact in any
    order), "arbitrary" (e.g. 0.1: rounding depends on summation order),
    "int", "float32", "signed" (dyadic, some negative: never drawn for
    None), or None for any of them.
    """
    if kind is None:
        kind = draw(st.sampled_from(["none", "none", "dyadic", "dyadic", "arbitrary", "int", "float32"]))
    if kind == "none":
        return None
    if kind == "dyadic":
        return np.array(draw(st.lists(st.sampled_from(DYADIC_WEIGHTS), min_size=n, max_size=n)), dtype=np.float64)
    if kind == "int":
        return np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=np.int64)
    if kind == "signed":
        return np.array(draw(st.lists(st.sampled_from(SIGNED_WEIGHTS), min_size=n, max_size=n)), dtype=np.float64)
    if kind == "float32":
        return np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n, max_size=n)), dtype=np.float32)
    # arbitrary
    elems = st.one_of(
        st.sampled_from([0.0, 0.1, 0.2, 0.3, 1 / 3, 0.7, 1e-3]),
        st.floats(0.0, 10.0, allow_nan=False, allow_infinity=False),
    )
    return np.array(draw(st.lists(elems, min_size=n, max_size=n)), dtype=np.float64)


# --------------------------------------------------------------------------
# binary problems


@st.composite
def binary_problems(
    draw,
    min_n: int = 1,
    max_n: int = 40,
    weights: str | None = None,
    encodings: Sequence[Encoding] | None = None,
    score_dtypes: Sequence[Any] | None = None,
) -> dict:
    """dict(y_true, y_score, pos_label, sample_weight, encoding)."""
    n = draw(sizes(min_n, max_n))
    enc = draw(st.sampled_from(list(encodings or ENCODINGS)))
    mask = draw(label_masks(n))
    y_true = enc.labels(mask)
    pos_label = draw(st.sampled_from(list(enc.pos_labels)))
    dtype = draw(st.sampled_from(list(score_dtypes or SCORE_DTYPES)))
    y_score = draw(score_arrays(n, dtype))
    sample_weight = draw(weight_arrays(n, weights))
    return dict(y_true=y_true, y_score=y_score, pos_label=pos_label, sample_weight=sample_weight, encoding=enc.name)


# --------------------------------------------------------------------------
# multilabel problems


@st.composite
def multilabel_problems(draw, max_n: int = 25, max_labels: int = 5, weights: str | None = None) -> dict:
    """dict(y_true (n, k) indicator, y_score (n, k), sample_weight)."""
    n = draw(sizes(1, max_n))
    k = draw(st.integers(1, max_labels))
    y_dtype = draw(st.sampled_from([np.int64, np.int32, np.bool_, np.float64]))
    density = draw(st.sampled_from(["random", "random", "sparse", "all_zero_column", "all_one_column"]))
    if density == "sparse":
        y_true = np.zeros((n, k), dtype=y_dtype)
        idx = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, k - 1)), max_size=3))
        for i, j in idx:
            y_true[i, j] = 1
    else:
        y_true = draw(hnp.arrays(np.bool_, (n, k))).astype(y_dtype)
        if density == "all_zero_column":
            y_true[:, draw(st.integers(0, k - 1))] = 0
        elif density == "all_one_column":
            y_true[:, draw(st.integers(0, k - 1))] = 1
    score_dtype = draw(st.sampled_from([np.float64, np.float64, np.float32, np.int64]))
    y_score = draw(score_arrays(n * k, score_dtype)).reshape(n, k)
    sample_weight = draw(weight_arrays(n, weights))
    return dict(y_true=y_true, y_score=y_score, sample_weight=sample_weight)


AVERAGES = ["micro", "macro", "weighted", "samples", None]
MAX_FPRS = [None, 1, 1.0, 0.5, 0.25, 0.1, 1e-3, 0.999, 0.3333333333333333]
