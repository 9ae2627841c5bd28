"""Input containers and memory layouts, compared with scikit-learn 1.9.1.

Lists, tuples, pandas Series/DataFrame, strided and reversed views, read-only
arrays, (n, 1) column vectors, memmaps, big-endian and unaligned buffers, and
every score dtype.  Results must match sklearn's (values, shapes, dtypes) and
the inputs must not be modified.
"""

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import turbometrics as tm
from helpers import check_against_sklearn, curve_comparator

CURVES = ["roc_curve", "precision_recall_curve", "det_curve", "confusion_matrix_at_thresholds"]
SCORES = ["roc_auc_score", "average_precision_score"]
ALL = CURVES + SCORES

RNG = np.random.default_rng(2024)
N = 64
Y = RNG.integers(0, 2, N)
S = np.round(RNG.random(N), 1)  # heavy ties
W = RNG.choice([0.0, 0.5, 1.0, 2.0], N)

ML_Y = RNG.integers(0, 2, (N, 3))
ML_S = np.round(RNG.random((N, 3)), 1)


def _both(name, *args, **kwargs):
    return check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# containers


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("container", ["list", "tuple", "series", "series_shuffled_index", "list_of_py_ints"])
@pytest.mark.parametrize("weighted", [False, True])
def test_containers(name, container, weighted):
    if container == "list":
        y, s, w = Y.tolist(), S.tolist(), W.tolist()
    elif container == "tuple":
        y, s, w = tuple(Y.tolist()), tuple(S.tolist()), tuple(W.tolist())
    elif container == "series":
        y, s, w = pd.Series(Y), pd.Series(S), pd.Series(W)
    elif container == "series_shuffled_index":
        idx = RNG.permutation(N) + 1000
        y, s, w = pd.Series(Y, index=idx), pd.Series(S, index=idx[::-1]), pd.Series(W, index=idx)
    else:
        y, s, w = Y.tolist(), [int(v * 10) for v in S], [int(v * 2) for v in W]
    _both(name, y, s, sample_weight=w if weighted else None)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(
    "labels,pos_label",
    [
        (pd.Series(["neg", "pos"] * (N // 2)), "pos"),
        (pd.Series(np.array(["neg", "pos"] * (N // 2)), dtype="category"), "pos"),
        (pd.Series([0, 1] * (N // 2), dtype="Int64"), 1),
        (pd.Series([False, True] * (N // 2), dtype="boolean"), True),
        (pd.Series([0, 1] * (N // 2), dtype="int8"), 1),
        (np.array(["neg", "pos"] * (N // 2), dtype=object), "pos"),
        ([b"n", b"p"] * (N // 2), b"p"),
    ],
    ids=["str_series", "categorical", "Int64", "boolean", "int8_series", "object_array", "bytes_list"],
)
def test_label_containers(name, labels, pos_label):
    kwargs = {}
    if name != "roc_auc_score":
        kwargs["pos_label"] = pos_label
    _both(name, labels, S, **kwargs)


@pytest.mark.parametrize("name", SCORES)
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "samples", None])
@pytest.mark.parametrize("container", ["dataframe", "nested_list", "bool_array", "float_array"])
def test_multilabel_containers(name, average, container):
    if container == "dataframe":
        y, s = pd.DataFrame(ML_Y, columns=list("abc")), pd.DataFrame(ML_S, columns=list("xyz"))
    elif container == "nested_list":
        y, s = ML_Y.tolist(), ML_S.tolist()
    elif container == "bool_array":
        y, s = ML_Y.astype(bool), ML_S
    else:
        y, s = ML_Y.astype(float), ML_S
    _both(name, y, s, average=average, sample_weight=W)


# --------------------------------------------------------------------------
# memory layouts


def _strided(a, step):
    big = np.repeat(a, step, axis=0)
    view = big[::step]
    assert not view.flags.c_contiguous or a.size <= 1
    return view


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("layout", ["step2", "step3", "reversed", "column_of_c_matrix", "row_of_f_matrix"])
@pytest.mark.parametrize("weighted", [False, True])
def test_non_contiguous_views(name, layout, weighted):
    def make(a):
        if layout == "step2":
            return _strided(a, 2)
        if layout == "step3":
            return _strided(a, 3)
        if layout == "reversed":
            return a[::-1].copy()[::-1]
        if layout == "column_of_c_matrix":
            m = np.empty((len(a), 3), dtype=a.dtype)
            m[:, 1] = a
            return m[:, 1]
        m = np.empty((3, len(a)), dtype=a.dtype, order="F")
        m[2] = a
        return m[2]

    y, s, w = make(Y), make(S), make(W)
    assert not s.flags.c_contiguous
    np.testing.assert_array_equal(s, S)
    _both(name, y, s, sample_weight=w if weighted else None)


@pytest.mark.parametrize("name", SCORES)
@pytest.mark.parametrize("average", ["micro", "macro", "samples", None])
@pytest.mark.parametrize("layout", ["fortran", "transposed_view", "column_slice", "reversed_rows"])
def test_multilabel_layouts(name, average, layout):
    if layout == "fortran":
        y, s = np.asfortranarray(ML_Y), np.asfortranarray(ML_S)
    elif layout == "transposed_view":
        y, s = ML_Y.T.copy().T, ML_S.T.copy().T
    elif layout == "column_slice":
        y = np.repeat(ML_Y, 2, axis=1)[:, ::2]
        s = np.repeat(ML_S, 2, axis=1)[:, ::2]
    else:
        y, s = ML_Y[::-1].copy()[::-1], ML_S[::-1].copy()[::-1]
    np.testing.assert_array_equal(s, ML_S)
    _both(name, y, s, average=average, sample_weight=W)


@pytest.mark.parametrize("name", ALL)
def test_read_only_inputs(name):
    y, s, w = Y.copy(), S.copy(), W.copy()
    for a in (y, s, w):
        a.setflags(write=False)
    _both(name, y, s, sample_weight=w, copy_inputs=False)
    _both(name, y, s, copy_inputs=False)


@pytest.mark.parametrize("name", SCORES)
def test_read_only_multilabel_inputs(name):
    y, s, w = ML_Y.copy(), ML_S.copy(), W.copy()
    for a in (y, s, w):
        a.setflags(write=False)
    for average in ["micro", "macro", "samples", None]:
        _both(name, y, s, sample_weight=w, average=average, copy_inputs=False)


@pytest.mark.parametrize("name", ALL)
def test_inputs_are_not_modified(name):
    y, s, w = Y.copy(), S[::-1].copy(), W.copy()  # s unsorted
    y0, s0, w0 = y.copy(), s.copy(), w.copy()
    getattr(tm, name)(y, s, sample_weight=w)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s, s0)
    np.testing.assert_array_equal(w, w0)
    ls = s.tolist()
    getattr(tm, name)(y.tolist(), ls)
    assert ls == s0.tolist()


@pytest.mark.parametrize("name", CURVES)
def test_curve_outputs_are_writeable_independent_arrays(name):
    out = getattr(tm, name)(Y, S, sample_weight=W)
    sk = getattr(skm, name)(Y, S, sample_weight=W)
    for a, b in zip(out, sk):
        assert a.flags.writeable == b.flags.writeable
    # the outputs must not share memory with each other or with the inputs
    for i, a in enumerate(out):
        assert not np.shares_memory(a, S) and not np.shares_memory(a, W)
        for b in out[i + 1 :]:
            assert not np.shares_memory(a, b)
    # mutating an output must not affect a later call
    before = [a.copy() for a in getattr(tm, name)(Y, S, sample_weight=W)]
    for a in out:
        a[...] = 0
    after = getattr(tm, name)(Y, S, sample_weight=W)
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------
# column vectors


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("which", ["y_true", "y_score", "sample_weight", "all"])
def test_column_vectors(name, which):
    y = Y.reshape(-1, 1) if which in ("y_true", "all") else Y
    s = S.reshape(-1, 1) if which in ("y_score", "all") else S
    w = W.reshape(-1, 1) if which in ("sample_weight", "all") else W
    _both(name, y, s, sample_weight=w)


@pytest.mark.parametrize("name", ALL)
def test_row_vectors(name):
    # (1, n) inputs are not column vectors: sklearn's error paths apply
    _both(name, Y.reshape(1, -1), S.reshape(1, -1))
    _both(name, Y, S.reshape(1, -1))


# --------------------------------------------------------------------------
# dtypes

ALL_SCORE_DTYPES = [
    np.float64,
    np.float32,
    np.float16,
    np.int64,
    np.int32,
    np.int16,
    np.int8,
    np.uint64,
    np.uint32,
    np.uint16,
    np.uint8,
    np.bool_,
    np.longdouble,
]


def _scores_of(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return S > 0.5
    if dtype.kind == "f":
        return (S - 0.5).astype(dtype)
    if dtype.kind == "i":
        return np.round((S - 0.5) * 10).astype(dtype)
    return np.round(S * 10).astype(dtype)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("dtype", ALL_SCORE_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("weighted", [False, True])
def test_score_dtypes(name, dtype, weighted):
    _both(name, Y, _scores_of(dtype), sample_weight=W if weighted else None)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8, np.int8, np.bool_, np.uint64])
def test_precision_recall_thresholds_keep_score_dtype(dtype):
    s = _scores_of(dtype)
    p, r, t = tm.precision_recall_curve(Y, s)
    assert t.dtype == np.dtype(dtype)
    sk = skm.precision_recall_curve(Y, s)
    curve_comparator("precision_recall_curve")(sk, (p, r, t))
    _, _, _, _, t2 = tm.confusion_matrix_at_thresholds(Y, s)
    assert t2.dtype == np.dtype(dtype)


@pytest.mark.parametrize("name", ["roc_curve", "det_curve"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, np.bool_])
def test_roc_det_thresholds_are_float64(name, dtype):
    t = getattr(tm, name)(Y, _scores_of(dtype))[-1]
    assert t.dtype == np.float64


def test_float32_results_match_and_thresholds_exact():
    rng = np.random.default_rng(0)
    s = rng.random(5000).astype(np.float32)
    y = (rng.random(5000) < s).astype(int)
    for name in ALL:
        _both(name, y, s)
    _p, _r, t = tm.precision_recall_curve(y, s)
    assert t.dtype == np.float32
    np.testing.assert_array_equal(np.sort(np.unique(s)), t)
    _fpr, _tpr, thr = tm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_array_equal(thr[1:], np.sort(np.unique(s))[::-1].astype(np.float64))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("which", ["y_score", "y_true", "sample_weight"])
def test_big_endian_inputs(name, which):
    y = Y.astype(">i8") if which == "y_true" else Y
    s = S.astype(">f8") if which == "y_score" else S
    w = W.astype(">f8") if which == "sample_weight" else W
    _both(name, y, s, sample_weight=w)
    _both(name, y, s.astype(">f4") if which == "y_score" else s, sample_weight=w)


@pytest.mark.parametrize("name", ALL)
def test_unaligned_inputs(name):
    buf = np.zeros(N * 8 + 1, dtype=np.uint8)
    raw = np.ndarray((N,), dtype=np.float64, buffer=buf, offset=1)
    raw[:] = S
    assert not raw.flags.aligned
    _both(name, Y, raw, sample_weight=W, copy_inputs=False)


@pytest.mark.parametrize("name", ALL)
def test_memmap_inputs(name, tmp_path):
    path = tmp_path / "scores.dat"
    mm = np.memmap(path, dtype=np.float64, mode="w+", shape=(N,))
    mm[:] = S
    mm.flush()
    ro = np.memmap(path, dtype=np.float64, mode="r", shape=(N,))
    _both(name, Y, ro, copy_inputs=False)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("wdtype", [np.float32, np.int64, np.int8, np.bool_, np.float16])
def test_weight_dtypes(name, wdtype):
    w = (W * 2).astype(wdtype)
    _both(name, Y, S, sample_weight=w)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("ydtype", [np.int8, np.uint8, np.int32, np.uint64, np.float32, np.bool_])
def test_label_dtypes(name, ydtype):
    _both(name, Y.astype(ydtype), S)


@pytest.mark.parametrize("name", CURVES + ["average_precision_score"])
def test_mixed_python_scalars_in_labels_and_pos_label(name):
    # float labels, int pos_label; int labels, float/bool pos_label
    _both(name, Y.astype(float), S, pos_label=1)
    _both(name, Y, S, pos_label=1.0)
    _both(name, Y, S, pos_label=True)
    _both(name, Y.astype(bool), S, pos_label=1)
