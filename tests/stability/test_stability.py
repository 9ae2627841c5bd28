"""Ensemble stability metrics against NumPy / SciPy references."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy.special import xlogy

from turbometrics import stability as S

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits


def entropy_bits(p, axis=None):
    if axis is None:  # binary
        return -(xlogy(p, p) + xlogy(1 - p, 1 - p)) / np.log(2)
    return -np.sum(xlogy(p, p), axis=axis) / np.log(2)


def ref_per_sample(name, P, threshold=0.5):
    m = P.shape[0]
    if P.ndim == 3:
        labels = np.argmax(P, axis=2)
        if name == "jitter":
            # the definition: mean churn over all pairs of models
            pairs = list(itertools.combinations(range(m), 2))
            return np.mean([labels[a] != labels[b] for a, b in pairs], axis=0)
        if name == "aleatoric":
            return np.mean(entropy_bits(P, axis=2), axis=0)
        if name == "mutual_info":
            return entropy_bits(P.mean(axis=0), axis=1) - np.mean(entropy_bits(P, axis=2), axis=0)
    labels = P >= threshold
    c1 = labels.sum(axis=0)
    c0 = m - c1
    if name == "label_stability":
        return np.abs(c1 - c0) / m
    if name == "jitter":
        pairs = list(itertools.combinations(range(m), 2))
        return np.mean([labels[a] != labels[b] for a, b in pairs], axis=0)
    if name == "aleatoric":
        return np.mean(entropy_bits(P.astype(np.float64)), axis=0)
    if name == "mutual_info":
        return entropy_bits(P.astype(np.float64).mean(axis=0)) - np.mean(entropy_bits(P.astype(np.float64)), axis=0)
    if name == "variance":
        return np.var(P.astype(np.float64), axis=0)
    if name == "std":
        return np.std(P.astype(np.float64), axis=0, ddof=1)
    if name == "iqr":
        q75, q25 = np.percentile(P, [75, 25], axis=0)
        return (q75 - q25).astype(np.float64)
    raise AssertionError(name)


CALLS = {
    "label_stability": lambda P, **kw: S.label_stability(P, **kw),
    "jitter": lambda P, **kw: S.jitter(P, **kw),
    "aleatoric": lambda P, **kw: S.aleatoric_uncertainty(P, **kw),
    "mutual_info": lambda P, **kw: S.epistemic_uncertainty(P, **kw),
    "variance": lambda P, **kw: S.epistemic_uncertainty(P, method="variance", **kw),
    "std": lambda P, **kw: S.std(P, **kw),
    "iqr": lambda P, **kw: S.iqr(P, **kw),
}
NEEDS_PAIRS = {"jitter", "std"}
PROBS = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 0.25, 0.75, 0.49999999999999994]), st.floats(0, 1, allow_nan=False))


@st.composite
def ensembles(draw, min_models=1):
    m = draw(st.integers(min_models, 7))
    n = draw(st.integers(1, 12))
    P = np.array(draw(st.lists(PROBS, min_size=m * n, max_size=m * n))).reshape(m, n)
    return P.astype(draw(st.sampled_from([np.float64, np.float32])))


@pytest.mark.parametrize("name", sorted(CALLS))
@given(data=st.data())
def test_matches_reference(name, data):
    P = data.draw(ensembles(min_models=2 if name in NEEDS_PAIRS else 1))
    threshold = data.draw(st.sampled_from([0.5, 0.25, 0.0, 1.0]))
    kw = {"threshold": threshold} if name in ("label_stability", "jitter") else {}
    got = CALLS[name](P, per_sample=True, **kw)
    want = ref_per_sample(name, P, threshold)
    assert got.dtype == np.float64 and got.shape == (P.shape[1],)
    if name in ("iqr", "label_stability"):
        np.testing.assert_array_equal(got, want)  # NumPy's own arithmetic
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    assert math.isclose(CALLS[name](P, **kw), float(np.mean(got)), rel_tol=1e-15, abs_tol=0)


@pytest.mark.parametrize("name", ["jitter", "aleatoric", "mutual_info"])
@given(data=st.data())
def test_class_probabilities_match_reference(name, data):
    m = data.draw(st.integers(2, 6))
    n = data.draw(st.integers(1, 8))
    k = data.draw(st.integers(2, 4))
    raw = np.array(
        data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, 0.5]), min_size=m * n * k, max_size=m * n * k))
    ).reshape(m, n, k)
    raw[..., 0][raw.sum(axis=2) == 0] = 1.0
    P = raw / raw.sum(axis=2, keepdims=True)  # exact ties in the argmax
    np.testing.assert_allclose(CALLS[name](P, per_sample=True), ref_per_sample(name, P), rtol=1e-12, atol=1e-15)


def test_known_values():
    P = np.array([[0.9, 0.2, 0.5], [0.8, 0.7, 0.4], [0.6, 0.1, 0.3], [0.1, 0.3, 0.2]])
    np.testing.assert_allclose(S.label_stability(P, per_sample=True), [0.5, 0.5, 0.5])
    np.testing.assert_allclose(S.jitter(P, per_sample=True), [0.5, 0.5, 0.5])
    assert S.label_stability(np.ones((3, 2))) == 1.0
    assert S.jitter(np.ones((3, 2))) == 0.0
    # Exact, though the entropies' promise is rtol 1e-12: 0 log 0 = 0 by definition, and a fair
    # coin's entropy is log(1/4) / 2 / ln 2 with turbometrics' own logarithm (no libm, no NumPy),
    # the same bits on every processor for each copy: generic, avx2 and avx2_fma are checked by
    # .ci/cpu_personalities, the avx512 copy (table-driven log) passed on issue 23's AVX-512 machine.
    assert S.aleatoric_uncertainty(np.array([[0.0, 1.0, 0.5]])) == 1 / 3
    assert S.epistemic_uncertainty(np.array([[0.0], [1.0]])) == 1.0


def test_one_model():
    P = np.array([[0.2, 0.7]])
    assert S.label_stability(P) == 1.0
    assert S.iqr(P) == 0.0
    assert S.epistemic_uncertainty(P, method="variance") == 0.0
    for f in (S.jitter, S.std):
        with pytest.raises(ValueError, match="at least 2 models"):
            f(P)


def test_thread_count_does_not_change_results():
    rng = np.random.default_rng(0)
    P = rng.random((5, 300_001))
    P3 = rng.dirichlet(np.ones(3), (4, 50_001))
    for name, call in CALLS.items():
        outs = [call(P, per_sample=True, n_threads=t) for t in (1, 2, 3)]
        assert all(np.array_equal(outs[0], o) for o in outs[1:]), name
        means = {call(P, n_threads=t) for t in (1, 2, 3)}
        assert len(means) == 1, name
    for name in ("jitter", "aleatoric", "mutual_info"):
        outs = [CALLS[name](P3, per_sample=True, n_threads=t) for t in (1, 2)]
        assert np.array_equal(outs[0], outs[1])


def test_strided_fortran_and_readonly_input():
    rng = np.random.default_rng(1)
    P = rng.random((6, 2000))
    for view in (P[:, ::3], P[::2], np.asfortranarray(P), P.T.copy().T):
        view = view.view()
        view.setflags(write=False)
        for name, call in CALLS.items():
            np.testing.assert_allclose(
                call(view, per_sample=True), ref_per_sample(name, np.ascontiguousarray(view)), rtol=1e-12, atol=1e-15
            )


def test_integer_and_bool_input_are_converted():
    P = np.array([[0, 1, 1], [1, 1, 0]])
    np.testing.assert_array_equal(S.label_stability(P, per_sample=True), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(S.jitter(P.astype(bool), per_sample=True), [1.0, 0.0, 1.0])


def test_errors():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        S.jitter(np.array([[0.2, 1.2], [0.1, 0.3]]))
    with pytest.raises(ValueError, match="NaN"):
        S.aleatoric_uncertainty(np.array([[0.2, np.nan]]))
    for f in (S.iqr, S.std, S.label_stability):
        with pytest.raises(ValueError, match="NaN"):
            f(np.array([[0.2, np.nan], [np.nan, 0.1]]))
    with pytest.raises(ValueError, match="NaN"):
        S.jitter(np.full((3, 2, 2), np.nan))
    with pytest.raises(ValueError, match="NaN or infinity"):
        S.iqr(np.array([[0.2, np.inf], [0.3, 0.1]]))
    with pytest.raises(ValueError, match="shape"):
        S.std(np.ones(4))
    with pytest.raises(ValueError, match="shape"):
        S.label_stability(np.full((2, 3, 2), 0.5))
    with pytest.raises(ValueError, match="shape"):
        S.epistemic_uncertainty(np.full((2, 3, 2), 0.5), method="variance")
    with pytest.raises(Exception, match="'method' parameter"):
        S.epistemic_uncertainty(np.ones((2, 2)), method="entropy")
    with pytest.raises(Exception, match="'threshold' parameter"):
        S.jitter(np.ones((2, 2)), threshold=1.5)
    with pytest.raises(TypeError):
        S.jitter(np.ones((2, 2)), 0.5)  # keyword-only
    with pytest.raises(ValueError, match="one sample"):
        S.iqr(np.ones((2, 0)))


def test_selection_rate():
    y = np.array([1, 0, 1, 1])
    assert S.selection_rate(y) == 0.75
    assert S.selection_rate(y, pos_label=0) == 0.25
    assert S.selection_rate(y, sample_weight=[1, 1, 0, 2]) == 0.75
    np.testing.assert_array_equal(S.selection_rate(np.array([[1, 0], [1, 1]])), [0.5, 1.0])
    assert S.selection_rate(["a", "b"], pos_label="a") == 0.5


# --------------------------------------------------------------------------
# the block kernels: every model count for the iqr selection network, every
# layout and dtype, values that stress the logarithm


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 50, 64, 65, 100])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_iqr_equals_numpy_for_every_model_count(m, dtype):
    rng = np.random.default_rng(m)
    n = 2500  # more than one block, partial tiles
    P = rng.choice([0.0, 0.25, 0.5, 1.0, 0.3], size=(m, n)).astype(dtype)  # many ties
    P[:, : n // 2] = rng.random((m, n // 2)).astype(dtype)
    want = ref_per_sample("iqr", P)
    np.testing.assert_array_equal(S.iqr(P, per_sample=True), want)
    np.testing.assert_array_equal(S.iqr(np.asfortranarray(P), per_sample=True), want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_iqr_signed_zeros_and_ties_equal_numpy_bit_for_bit(dtype):
    """m = 1 .. 70 (every shape of the kernel: one class sorted in registers,
    two classes and the merge, more classes and chains), heavy ties, 0 and 1:
    in samples whose zeros share one sign (+0.0 in some, -0.0 in others) the
    sign of a zero result is NumPy's too; samples mixing -0.0 and +0.0 equal
    NumPy's as numbers."""
    rng = np.random.default_rng(7)
    for m in range(1, 71):
        n = 300
        P = rng.choice([0.0, 0.0, 1.0, 0.5, 0.25, 0.75], size=(m, n)).astype(dtype)
        P[:, ::4] = rng.random((m, len(range(0, n, 4)))).astype(dtype)
        negative_zeros = rng.random(n) < 0.5
        P[:, negative_zeros] = np.where(P[:, negative_zeros] == 0, dtype(-0.0), P[:, negative_zeros])
        assert np.signbit(P[P == 0]).any() and not np.signbit(P[P != 0]).any()
        want = ref_per_sample("iqr", P)
        got = S.iqr(P, per_sample=True)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=f"m={m}")
        mixed = np.where((P == 0) & (rng.random(P.shape) < 0.5), dtype(-0.0), P).astype(dtype)
        np.testing.assert_array_equal(S.iqr(mixed, per_sample=True), ref_per_sample("iqr", mixed))


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_layouts_and_blocks_match_reference(name, dtype):
    rng = np.random.default_rng(2)
    m, n = 9, 5000  # several blocks, a partial last one
    P = rng.random((m, n)).astype(dtype)
    P[:, :7] = np.array([0.0, 1.0, 0.5, 1e-310, 1 - 1e-16, 5e-324, 0.75])[None, :].astype(dtype)
    want = ref_per_sample(name, P)
    for view in (P, np.asfortranarray(P), P[::-1], np.repeat(P, 2, axis=1)[:, ::2]):
        got = CALLS[name](view, per_sample=True)
        want_view = ref_per_sample(name, np.ascontiguousarray(view))
        if name in ("iqr", "label_stability"):
            np.testing.assert_array_equal(got, want_view)
        else:
            np.testing.assert_allclose(got, want_view, rtol=1e-12, atol=1e-15)
    assert np.all(np.isfinite(want))


def test_entropy_of_tiny_probabilities():
    """Subnormal and tiny probabilities: x log x to full relative accuracy."""
    p = np.array([5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-20, 1e-8, 0.5, 1 - 1e-16, 1.0])
    P = np.stack([p, p[::-1]])
    np.testing.assert_allclose(
        S.aleatoric_uncertainty(P, per_sample=True), ref_per_sample("aleatoric", P), rtol=1e-13, atol=0
    )
    P3 = np.stack([np.stack([p, 1 - p], axis=1)] * 3)
    np.testing.assert_allclose(
        S.aleatoric_uncertainty(P3, per_sample=True), ref_per_sample("aleatoric", P3), rtol=1e-13, atol=0
    )


def test_entropy_at_the_logarithm_table_edges():
    """Arguments where the table-driven logarithm switches subinterval or
    polynomial (k/64 and a few ulp either side, 1/2, powers of two, 1 minus a
    power of two): entropy terms to full relative accuracy, and mutual
    information within the tests' tolerance, in every lane position."""
    edges = np.arange(65) / 64.0
    near = [edges]
    for _ in range(3):
        near += [np.nextafter(near[-2 if len(near) > 1 else 0], 0.0), np.nextafter(near[-1], 1.0)]
    p = np.concatenate(near + [2.0 ** -np.arange(1, 1075), 1 - 2.0 ** -np.arange(1, 54)])
    p = np.clip(p, 0.0, 1.0)
    rng = np.random.default_rng(5)
    P = np.stack([p, rng.permutation(p), p[::-1], np.roll(p, 3)])
    np.testing.assert_allclose(
        S.aleatoric_uncertainty(P, per_sample=True), ref_per_sample("aleatoric", P), rtol=1e-13, atol=0
    )
    np.testing.assert_allclose(
        S.epistemic_uncertainty(P, per_sample=True), ref_per_sample("mutual_info", P), rtol=1e-12, atol=1e-15
    )
    same = np.stack([p, p, p])  # models that agree (up to the rounding of their mean)
    np.testing.assert_allclose(
        S.epistemic_uncertainty(same, per_sample=True), ref_per_sample("mutual_info", same), rtol=1e-12, atol=1e-15
    )


@pytest.mark.parametrize("m", [1, 3, 50, 511, 512, 513, 1300])
def test_entropies_of_many_models_and_near_certain_samples(m):
    """The entropy sums take the logarithms of the larger probabilities as
    the logarithm of their product, in chunks of 512 models: full relative
    accuracy when every model is nearly certain (the product near 1), when
    the product is tiny, and across chunk boundaries."""
    rng = np.random.default_rng(m)
    n = 700
    P = rng.random((m, n))
    P[:, :100] = 10.0 ** -rng.uniform(1, 17, (m, 100))  # all near 0
    P[:, 100:200] = 1 - 10.0 ** -rng.uniform(1, 16, (m, 100))  # all near 1
    P[:, 200:300] = rng.choice([1e-12, 1 - 1e-12, 0.5, 0.0, 1.0], (m, 100))
    P[:, 300:400] = 0.5 + rng.uniform(-1e-9, 1e-9, (m, 100))
    np.testing.assert_allclose(
        S.aleatoric_uncertainty(P, per_sample=True), ref_per_sample("aleatoric", P), rtol=1e-13, atol=0
    )
    np.testing.assert_allclose(
        S.epistemic_uncertainty(P, per_sample=True), ref_per_sample("mutual_info", P), rtol=1e-12, atol=1e-15
    )
    f32 = P.astype(np.float32)
    np.testing.assert_allclose(
        S.aleatoric_uncertainty(f32, per_sample=True), ref_per_sample("aleatoric", f32), rtol=1e-13, atol=0
    )


def test_every_statistic_flags_invalid_values_anywhere():
    rng = np.random.default_rng(3)
    for _name, call in CALLS.items():
        for bad in (np.nan, -1e-300, 1 + 1e-15, -1e-30, 1.001, np.inf):
            P = rng.random((4, 3000))
            P[rng.integers(0, 4), rng.integers(0, 3000)] = bad
            with pytest.raises(ValueError, match="NaN or infinity" if not np.isfinite(bad) else r"\[0, 1\]"):
                call(P)
            if bad not in (-1e-300, 1 + 1e-15):  # those round to valid float32 values
                with pytest.raises(ValueError):
                    call(P.astype(np.float32))


def test_selection_rate_matches_numpy():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, (4, 300_001))
    w = rng.random(300_001)
    for labels, pos in [
        (y, 1),
        (y.astype(np.uint8), 2),
        (y.astype(np.int16), np.int64(0)),
        (y.astype(bool), True),
        (y.astype(bool), 1),
        (y.astype(bool), 2),
        (y.astype(np.float32), 1),
        (y * 0.1, 0.1),
        (y.astype(np.float32) * np.float32(0.1), 0.1),
        (y.astype(np.uint8), 300),
        (y, 1.0),
        (y.astype(str), "1"),
    ]:
        for rows in (labels, labels[0], labels[:, ::3]):
            sel = rows == pos
            want = np.mean(sel, axis=-1)
            got = {t: S.selection_rate(rows, pos_label=pos, n_threads=t) for t in (1, 2)}
            np.testing.assert_array_equal(got[1], got[2])
            np.testing.assert_array_equal(got[1], want)
            ww = w[: rows.shape[-1]]
            np.testing.assert_allclose(
                S.selection_rate(rows, pos_label=pos, sample_weight=ww), (sel @ ww) / ww.sum(), rtol=1e-12
            )
