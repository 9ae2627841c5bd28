"""The count-based scores with fractional sample weights return scikit-learn
1.9.1's floats bit for bit (compared with ``==``).

scikit-learn sums the weights of a confusion cell one at a time in input
order (scipy's coo -> dense), the per-label sums of
``multilabel_confusion_matrix`` in input order too (``np.bincount``; for
indicator input ``np.sum`` over rows), and ``accuracy_score`` as
``np.average`` (NumPy's pairwise sums). These tests draw fractional weights
(rounded and not, tiny and huge, zeros), heavy ties, binary, multiclass and
multilabel targets with integer, string and {-1, 1} labels, every
``average``, label subsets and one or two samples, and check that the
results do not depend on the thread count.
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st

import turbometrics as tm

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

_LABEL_KINDS = ("int", "pm1", "str", "binary01")


@st.composite
def _weights(draw, n):
    """Fractional float weights of several kinds (None now and then)."""
    kind = draw(st.sampled_from(["plain", "rounded", "tiny", "huge", "zeros", "mixed", "none"]))
    if kind == "none":
        return None
    values = np.array(draw(st.lists(st.floats(0, 10), min_size=n, max_size=n)), dtype=np.float64)
    if kind == "rounded":
        values = np.round(values, draw(st.integers(0, 2)))
    elif kind == "tiny":
        values = values * 1e-300
    elif kind == "huge":
        values = values * 1e300
    elif kind == "zeros":
        values[values < 5] = 0.0
    elif kind == "mixed":
        scale = np.array(draw(st.lists(st.sampled_from([1e-8, 1.0, 3.0, 1e8]), min_size=n, max_size=n)))
        values = values * scale
    return values


def _labels(codes: np.ndarray, kind: str) -> np.ndarray:
    if kind == "pm1":
        return np.where(codes % 2 == 0, -1, 1)
    if kind == "str":
        return np.array(["ant", "bee", "cat", "dog", "eel"])[codes]
    if kind == "binary01":
        return codes % 2
    return codes


@st.composite
def _problem(draw, max_n=300):
    """(y_true, y_pred, sample_weight, label_kind): heavy ties (few classes,
    long runs of one label), n from 1 up."""
    n = draw(st.one_of(st.integers(1, 3), st.integers(1, max_n)))
    n_classes = draw(st.integers(1, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    codes_true = rng.integers(0, n_classes, n)
    agree = rng.random(n) < draw(st.floats(0, 1))
    codes_pred = np.where(agree, codes_true, rng.integers(0, n_classes, n))
    kind = draw(st.sampled_from(_LABEL_KINDS))
    return _labels(codes_true, kind), _labels(codes_pred, kind), draw(_weights(n)), kind


def _outcome(call):
    """(result, None) or (None, exception type) with warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call(), None
        except Exception as error:  # noqa: BLE001 - compared by type
            return None, type(error)


def _identical(a, b) -> bool:
    """Bit-identical results: floats, arrays (dtype too) or tuples of them."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (
            isinstance(a, tuple)
            and isinstance(b, tuple)
            and len(a) == len(b)
            and all(_identical(x, y) for x, y in zip(a, b))
        )
    if a is None or b is None:
        return a is b
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype and not (a.dtype.kind in "fiu" and b.dtype.kind in "fiu" and a.ndim == 0):
        return False
    return (
        a.shape == b.shape
        and np.array_equal(a, b, equal_nan=True)
        and (a.dtype.kind != "f" or np.array_equal(np.signbit(a), np.signbit(b)))
    )


def _check(name, *args, threads=(1, 2, 4), **kwargs):
    theirs, their_error = _outcome(lambda: getattr(skm, name)(*args, **kwargs))
    for n_threads in threads:
        ours, our_error = _outcome(lambda: getattr(tm, name)(*args, n_threads=n_threads, **kwargs))
        assert our_error == their_error, (name, kwargs, our_error, their_error)
        assert _identical(ours, theirs), (name, kwargs, n_threads, ours, theirs)


def _averages(kind: str, y_true, y_pred):
    present = np.union1d(y_true, y_pred)
    options = [None, "micro", "macro", "weighted"]
    if present.shape[0] <= 2:
        options.append("binary")
    return options


def _pos_label(kind: str):
    return {"str": "bee", "pm1": 1}.get(kind, 1)


@given(problem=_problem(), normalize=st.booleans())
@settings(max_examples=150, deadline=None)
def test_accuracy(problem, normalize):
    y_true, y_pred, w, _ = problem
    _check("accuracy_score", y_true, y_pred, sample_weight=w, normalize=normalize)


@given(problem=_problem(), data=st.data())
@settings(max_examples=150, deadline=None)
def test_confusion_matrix(problem, data):
    y_true, y_pred, w, _ = problem
    normalize = data.draw(st.sampled_from([None, "true", "pred", "all"]))
    present = np.union1d(y_true, y_pred)
    labels = None
    if data.draw(st.booleans()):
        labels = data.draw(st.lists(st.sampled_from(list(present)), min_size=1, max_size=present.shape[0], unique=True))
    _check("confusion_matrix", y_true, y_pred, sample_weight=w, normalize=normalize, labels=labels)


@given(problem=_problem(), data=st.data())
@settings(max_examples=150, deadline=None)
def test_multilabel_confusion_matrix(problem, data):
    y_true, y_pred, w, _ = problem
    present = np.union1d(y_true, y_pred)
    labels = None
    if data.draw(st.booleans()):
        labels = data.draw(st.lists(st.sampled_from(list(present)), min_size=1, max_size=present.shape[0], unique=True))
    _check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, labels=labels)


@pytest.mark.slow_bits
@pytest.mark.parametrize(
    "name",
    ["precision_score", "recall_score", "f1_score", "fbeta_score", "jaccard_score", "precision_recall_fscore_support"],
)
@given(problem=_problem(), data=st.data())
@settings(max_examples=60, deadline=None)
def test_set_wise_scores(name, problem, data):
    y_true, y_pred, w, kind = problem
    average = data.draw(st.sampled_from(_averages(kind, y_true, y_pred)))
    kwargs = {"average": average, "sample_weight": w}
    if name != "precision_recall_fscore_support" or average == "binary":
        kwargs["pos_label"] = _pos_label(kind)
    if name == "fbeta_score":
        kwargs["beta"] = data.draw(st.sampled_from([0.5, 2.0]))
    if average != "binary" and data.draw(st.booleans()):
        present = np.union1d(y_true, y_pred)
        kwargs["labels"] = data.draw(
            st.lists(st.sampled_from(list(present)), min_size=1, max_size=present.shape[0], unique=True)
        )
    _check(name, y_true, y_pred, **kwargs)


@pytest.mark.slow_bits
@given(problem=_problem(), data=st.data())
@settings(max_examples=150, deadline=None)
def test_kappa_mcc_balanced(problem, data):
    y_true, y_pred, w, _ = problem
    _check(
        "cohen_kappa_score",
        y_true,
        y_pred,
        sample_weight=w,
        weights=data.draw(st.sampled_from([None, "linear", "quadratic"])),
    )
    _check("matthews_corrcoef", y_true, y_pred, sample_weight=w)
    _check("balanced_accuracy_score", y_true, y_pred, sample_weight=w, adjusted=data.draw(st.booleans()))


@st.composite
def _multilabel(draw):
    n = draw(st.one_of(st.integers(1, 3), st.integers(1, 200)))
    width = draw(st.integers(2, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y_true = (rng.random((n, width)) < draw(st.floats(0, 1))).astype(np.int64)
    flip = rng.random((n, width)) < draw(st.floats(0, 1))
    y_pred = np.where(flip, 1 - y_true, y_true)
    return y_true, y_pred, draw(_weights(n))


@pytest.mark.slow_bits
@given(problem=_multilabel(), data=st.data())
@settings(max_examples=150, deadline=None)
def test_multilabel_indicator(problem, data):
    y_true, y_pred, w = problem
    width = y_true.shape[1]
    labels = None
    if data.draw(st.booleans()):
        labels = data.draw(st.lists(st.integers(0, width - 1), min_size=1, max_size=width, unique=True))
    average = data.draw(st.sampled_from([None, "micro", "macro", "weighted", "samples"]))
    _check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, labels=labels)
    _check("precision_recall_fscore_support", y_true, y_pred, sample_weight=w, labels=labels, average=average)
    _check("jaccard_score", y_true, y_pred, sample_weight=w, labels=labels, average=average)
    _check("accuracy_score", y_true, y_pred, sample_weight=w, normalize=data.draw(st.booleans()))


@pytest.mark.slow_bits
@pytest.mark.parametrize("n_classes", [2, 7])
def test_large_input_every_thread_count(n_classes):
    """Past the kernels' parallel thresholds (2^22 samples, or cells for
    indicators): identical for 1, 2, 3 and 8 threads, and equal to
    scikit-learn."""
    rng = np.random.default_rng(n_classes)
    n = 4_300_000
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, n_classes, n))
    w = rng.random(n) * rng.choice([1e-3, 1.0, 1e3], n)
    threads = (1, 2, 3, 8)
    _check("confusion_matrix", y_true, y_pred, sample_weight=w, threads=threads)
    _check("accuracy_score", y_true, y_pred, sample_weight=w, threads=threads)
    _check("f1_score", y_true, y_pred, sample_weight=w, average="macro", threads=threads)
    _check("matthews_corrcoef", y_true, y_pred, sample_weight=w, threads=threads)
    rows = 1_100_000
    indicator_true = (rng.random((rows, 4)) < 0.4).astype(np.int64)
    indicator_pred = (rng.random((rows, 4)) < 0.4).astype(np.int64)
    _check(
        "precision_recall_fscore_support",
        indicator_true,
        indicator_pred,
        sample_weight=w[:rows],
        average="macro",
        threads=threads,
    )
