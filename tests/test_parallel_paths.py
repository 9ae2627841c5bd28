"""The parallel kernels on small, adversarial inputs.

turbometrics runs kernels serially below ``turbometrics._common.threads.SERIAL_BELOW``
samples, so the property tests elsewhere (small n) only reach the serial
code.  Here that cut-off is lowered to 1 so the parallel block sweeps run on
tiny inputs, where hypothesis can put tie groups, signed zeros, zero-weight
runs and single-class blocks across block boundaries.  Results must match
scikit-learn and be bit-identical to the one-thread results.

White-box: if the cut-off attribute disappears, these tests skip.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import turbometrics as tm
import turbometrics._common.threads as tm_threads
from helpers import assert_score_equal, capture, check_against_sklearn, curve_comparator, parallel_even_for_tiny_inputs
from strategies import AVERAGES, binary_problems, multilabel_problems

CURVES = ["roc_curve", "precision_recall_curve", "det_curve", "confusion_matrix_at_thresholds"]
HAS_DROP = {"roc_curve", "precision_recall_curve", "det_curve"}
THREADS = st.sampled_from([2, 3, 4, 7, 16])
EXACT_WEIGHTS = st.sampled_from(["none", "dyadic", "int", "float32"])

pytestmark = pytest.mark.skipif(
    not hasattr(tm_threads, "SERIAL_BELOW"), reason="turbometrics._common.threads.SERIAL_BELOW not found"
)


def _same(a, b):
    """Bit-identical results (NaN == NaN, -0.0 vs 0.0 distinguished)."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, (a, b)
        if a.dtype.kind == "f":
            assert np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b)), (a, b)
        else:
            assert np.array_equal(a, b), (a, b)
    else:
        assert type(a) is type(b), (a, b)
        assert a == b or (a != a and b != b), (a, b)


def _check(name, args, kwargs, n_threads, compare=None):
    with parallel_even_for_tiny_inputs():
        check_against_sklearn(name, *args, tm_kwargs=dict(n_threads=n_threads), compare=compare, **kwargs)
        one = capture(getattr(tm, name), *args, n_threads=1, **kwargs)
        many = capture(getattr(tm, name), *args, n_threads=n_threads, **kwargs)
    if one.exc is not None:
        assert many.exc is not None and str(many.exc) == str(one.exc)
    else:
        assert many.exc is None, many.exc
        _same(one.value, many.value)


@pytest.mark.parametrize("name", CURVES)
@given(data=st.data(), drop=st.booleans(), n_threads=THREADS)
def test_parallel_curves(name, data, drop, n_threads):
    p = data.draw(binary_problems(max_n=80, weights=data.draw(EXACT_WEIGHTS)))
    kwargs = dict(pos_label=p["pos_label"], sample_weight=p["sample_weight"])
    if name in HAS_DROP:
        kwargs["drop_intermediate"] = drop
    _check(name, (p["y_true"], p["y_score"]), kwargs, n_threads)


@given(data=st.data(), max_fpr=st.sampled_from([None, 0.5, 0.1, 1.0, 0.01, 0.9]), n_threads=THREADS)
def test_parallel_roc_auc_binary(data, max_fpr, n_threads):
    p = data.draw(binary_problems(max_n=80, weights=data.draw(EXACT_WEIGHTS)))
    _check(
        "roc_auc_score", (p["y_true"], p["y_score"]), dict(sample_weight=p["sample_weight"], max_fpr=max_fpr), n_threads
    )


@given(data=st.data(), n_threads=THREADS)
def test_parallel_average_precision_binary(data, n_threads):
    p = data.draw(binary_problems(max_n=80, weights=data.draw(EXACT_WEIGHTS)))
    kwargs = dict(sample_weight=p["sample_weight"])
    if p["pos_label"] is not None:
        kwargs["pos_label"] = p["pos_label"]
    _check("average_precision_score", (p["y_true"], p["y_score"]), kwargs, n_threads)


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
@given(data=st.data(), average=st.sampled_from(AVERAGES), n_threads=THREADS)
@settings(max_examples=60)
def test_parallel_multilabel(name, data, average, n_threads):
    p = data.draw(multilabel_problems(weights=data.draw(EXACT_WEIGHTS)))
    _check(name, (p["y_true"], p["y_score"]), dict(sample_weight=p["sample_weight"], average=average), n_threads)


# --------------------------------------------------------------------------
# structured inputs: long tie groups and one-class stretches that straddle
# any block partition


@st.composite
def structured_problems(draw):
    n_groups = draw(st.integers(1, 12))
    sizes = draw(st.lists(st.integers(1, 400), min_size=n_groups, max_size=n_groups))
    values = draw(
        st.lists(st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -7.25]), min_size=n_groups, max_size=n_groups)
    )
    label_mode = draw(st.lists(st.sampled_from(["pos", "neg", "mix", "alt"]), min_size=n_groups, max_size=n_groups))
    weight_mode = draw(st.sampled_from(["none", "zero_runs", "dyadic"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y, s, w = [], [], []
    for size, v, mode in zip(sizes, values, label_mode):
        s.append(np.full(size, v))
        if mode == "pos":
            y.append(np.ones(size, dtype=int))
        elif mode == "neg":
            y.append(np.zeros(size, dtype=int))
        elif mode == "alt":
            y.append(np.arange(size) % 2)
        else:
            y.append(rng.integers(0, 2, size))
        if weight_mode == "zero_runs":
            w.append(np.zeros(size) if rng.random() < 0.4 else rng.choice([0.0, 1.0, 2.0], size))
        else:
            w.append(rng.choice([0.0, 0.5, 1.0, 4.0], size))
    y, s, w = np.concatenate(y), np.concatenate(s), np.concatenate(w)
    order = draw(st.sampled_from(["as_is", "shuffled", "sorted_desc", "sorted_asc"]))
    if order == "shuffled":
        perm = rng.permutation(len(s))
        y, s, w = y[perm], s[perm], w[perm]
    elif order != "as_is":
        perm = np.argsort(s, kind="stable")
        if order == "sorted_desc":
            perm = perm[::-1]
        y, s, w = y[perm], s[perm], w[perm]
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    return y, s.astype(dtype), (None if weight_mode == "none" else w)


@pytest.mark.parametrize("name", CURVES + ["roc_auc_score", "average_precision_score"])
@given(problem=structured_problems(), n_threads=THREADS, drop=st.booleans())
@settings(max_examples=40)
def test_parallel_structured(name, problem, n_threads, drop):
    y, s, w = problem
    kwargs = dict(sample_weight=w)
    if name in HAS_DROP:
        kwargs["drop_intermediate"] = drop
    if name == "roc_auc_score" and drop:
        kwargs["max_fpr"] = 0.3
    _check(name, (y, s), kwargs, n_threads)


# --------------------------------------------------------------------------
# arbitrary (non-dyadic) weights: values may differ from sklearn by rounding,
# but the result must not depend on the thread count


@pytest.mark.parametrize("name", CURVES + ["roc_auc_score", "average_precision_score"])
@given(data=st.data(), drop=st.booleans(), n_threads=THREADS)
@settings(max_examples=60)
def test_parallel_arbitrary_weights(name, data, drop, n_threads):
    p = data.draw(binary_problems(max_n=80, weights="arbitrary"))
    kwargs = dict(sample_weight=p["sample_weight"])
    if name != "roc_auc_score" and p["pos_label"] is not None:
        kwargs["pos_label"] = p["pos_label"]
    if name in HAS_DROP:
        kwargs["drop_intermediate"] = drop
    total = 1.0 + float(np.sum(p["sample_weight"]))
    if name in CURVES:
        compare = curve_comparator(name, rtol=1e-10, atol=1e-12 * total)
    else:
        compare = lambda sk, got: assert_score_equal(sk, got, rtol=1e-10, atol=1e-12)  # noqa: E731
    _check(name, (p["y_true"], p["y_score"]), kwargs, n_threads, compare=compare)
