"""Hypothesis strategies for classification-metric inputs.

Every label encoding scikit-learn accepts (small and wide-range integers of
several dtypes, integral floats, bools, strings, object strings, column
vectors, multilabel indicators) plus the invalid ones it rejects (continuous
floats, string/number mixes, mixed target types, empty input), with optional
sample weights of several dtypes, some of them invalid.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

ENCODINGS = [
    "int",
    "int",
    "int_neg",
    "wide_int",
    "int32_int64",
    "float",
    "bool",
    "uint8",
    "str",
    "object_str",
    "column",
    "multilabel",
    "multilabel",
    "multilabel_bool",
]
INVALID_ENCODINGS = ["continuous", "str_int_mix", "multilabel_vs_multiclass", "empty", "multioutput"]


def _draw_codes(draw, n: int, k: int) -> np.ndarray:
    mode = draw(st.sampled_from(["uniform", "skewed", "one"]))
    if mode == "one":
        return np.full(n, draw(st.integers(0, k - 1)), dtype=np.int64)
    values = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return np.asarray(values, dtype=np.int64)


def _pair(draw, n: int, k: int):
    t = _draw_codes(draw, n, k)
    if draw(st.booleans()):
        p = t.copy()
        flips = draw(st.lists(st.integers(0, n - 1), max_size=n))
        for i in flips:
            p[i] = draw(st.integers(0, k - 1))
    else:
        p = _draw_codes(draw, n, k)
    return t, p


@st.composite
def label_pairs(draw, encodings=None, allow_invalid: bool = False):
    """(kind, y_true, y_pred) with kind the encoding drawn."""
    choices = list(encodings or ENCODINGS) + (INVALID_ENCODINGS if allow_invalid else [])
    kind = draw(st.sampled_from(choices))
    n = draw(st.one_of(st.integers(1, 4), st.integers(1, 40)))
    k = draw(st.integers(1, 5))
    if kind == "empty":
        return kind, [], []
    if kind.startswith("multilabel") or kind == "multioutput":
        width = draw(st.integers(1, 4))
        t = np.asarray(
            draw(st.lists(st.lists(st.integers(0, 1), min_size=width, max_size=width), min_size=n, max_size=n))
        )
        p = np.asarray(
            draw(st.lists(st.lists(st.integers(0, 1), min_size=width, max_size=width), min_size=n, max_size=n))
        )
        if kind == "multilabel_bool":
            return kind, t.astype(bool), p.astype(bool) if draw(st.booleans()) else p.astype(np.float64)
        if kind == "multilabel_vs_multiclass":
            return kind, t, _draw_codes(draw, n, 3)
        if kind == "multioutput":
            return kind, t * 2 + p, p
        return kind, t, p
    t, p = _pair(draw, n, k)
    if kind == "int":
        return kind, t, p
    if kind == "int_neg":
        return kind, (t - 2).tolist(), (p - 2).tolist()
    if kind == "wide_int":
        table = np.asarray([-(10**15), -7, 3, 2**40, 10**17], dtype=np.int64)
        return kind, table[t], table[p]
    if kind == "int32_int64":
        return kind, t.astype(np.int32), (p + 1).astype(np.int64)
    if kind == "float":
        return kind, t.astype(np.float64), p.astype(np.float32 if draw(st.booleans()) else np.float64)
    if kind == "bool":
        return kind, (t % 2).astype(bool), (p % 2).astype(bool)
    if kind == "uint8":
        return kind, (t * 50).astype(np.uint8), (p * 50).astype(np.uint8)
    names = np.asarray(["ant", "bird", "cat", "dog", "eel"])
    if kind == "str":
        return kind, names[t], names[p]
    if kind == "object_str":
        return kind, names[t].astype(object), list(names[p])
    if kind == "column":
        return kind, t.reshape(-1, 1), p
    if kind == "continuous":
        return kind, t + 0.5, p
    if kind == "str_int_mix":
        return kind, names[t], p
    raise AssertionError(kind)


@st.composite
def weights_for(draw, n: int, allow_invalid: bool = False):
    choices = ["none", "none", "float", "float_zeros", "int", "float32"]
    if allow_invalid:
        choices += ["all_zero", "wrong_length", "nan"]
    mode = draw(st.sampled_from(choices))
    if mode == "none" or (n == 0 and mode != "wrong_length"):
        return None
    if mode == "float":
        return np.asarray(draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n)))
    if mode == "float_zeros":
        values = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.25]), min_size=n, max_size=n))
        values[0] = 1.5 if values else None
        return np.asarray(values)
    if mode == "int":
        return np.asarray(draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)), dtype=np.int64)
    if mode == "float32":
        return np.asarray(draw(st.lists(st.floats(0.25, 4.0, width=32), min_size=n, max_size=n)), dtype=np.float32)
    if mode == "all_zero":
        return np.zeros(n)
    if mode == "wrong_length":
        return np.ones(n + 1)
    values = np.ones(n)
    values[-1] = np.nan
    return values


def n_samples(y) -> int:
    return len(y)


def present_labels(y_true, y_pred) -> list:
    """A few candidate label values for the `labels` / `pos_label` params."""
    values = []
    for y in (y_true, y_pred):
        array = np.asarray(y)
        if array.ndim == 1 and array.size:
            values.extend(array.tolist())
    return sorted(set(values), key=repr)
