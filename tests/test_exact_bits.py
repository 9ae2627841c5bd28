"""The in-memory functions return scikit-learn 1.9.1's float, bit for bit.

Every function whose scikit-learn computation uses no transcendental
function is compared with ``==`` (arrays with ``np.array_equal``): ROC AUC
(trapezoids of the dropped-intermediate curve, NumPy's pairwise sum), average
precision (NumPy's pairwise sum of its terms), the curves, the Brier score
(``np.average``) and the count-based scores. Inputs are small and tie-heavy
(rounded scores), with signed zeros, several score dtypes, label kinds and
weight kinds, and sizes across NumPy's pairwise-sum block boundaries (128
values; recursion above).
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st

import turbometrics as tm

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

# Sizes around NumPy's pairwise-sum boundaries as well as small ones.
_SIZES = st.one_of(
    st.integers(0, 12), st.integers(120, 140), st.integers(250, 270), st.integers(1020, 1050), st.integers(2, 400)
)
_SCORE_KINDS = ("float64", "float32", "int", "bool", "uint64", "signed_zeros")
_LABEL_KINDS = ("01", "pm1", "str")
_WEIGHT_KINDS = (None, "ints", "fractional", "with_zeros", "huge")


def _scores(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    if kind == "float64":
        return np.round(rng.random(n), int(rng.integers(1, 4)))
    if kind == "float32":
        return np.round(rng.random(n), int(rng.integers(1, 4))).astype(np.float32)
    if kind == "int":
        return rng.integers(-5, 6, n)
    if kind == "bool":
        return rng.random(n) < 0.5
    if kind == "uint64":
        return rng.integers(0, 2**63, n, dtype=np.uint64) // np.uint64(2**58) * np.uint64(2**58)
    return rng.choice([-1.0, -0.0, 0.0, 0.5, 1.0], n)


def _weights(rng: np.random.Generator, n: int, kind) -> np.ndarray:
    if kind is None:
        return None
    if kind == "ints":
        return rng.integers(1, 5, n).astype(np.float64)
    if kind == "fractional":
        return rng.random(n) * 3
    if kind == "with_zeros":
        return np.where(rng.random(n) < 0.3, 0.0, rng.random(n))
    return rng.random(n) * rng.choice([1e300, 1.0, 1e-300], n)


def _labels(mask: np.ndarray, kind: str) -> np.ndarray:
    if kind == "01":
        return mask.astype(np.int64)
    if kind == "pm1":
        return np.where(mask, 1, -1)
    return np.where(mask, "yes", "no")


def _binary_problem(seed: int, n: int, score_kind: str, label_kind: str, weight_kind):
    rng = np.random.default_rng(seed)
    mask = rng.random(n) < rng.uniform(0.05, 0.95)
    return (
        _labels(mask, label_kind),
        _scores(rng, n, score_kind),
        _weights(rng, n, weight_kind),
        "yes" if label_kind == "str" else 1,
    )


def _same(ours, theirs):
    """Both results, errors included (type and message), or both raise."""
    return ours == theirs or (np.isnan(ours) and np.isnan(theirs))


def _both(call_ours, call_theirs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            theirs = call_theirs()
        except Exception as error:  # noqa: BLE001 - the same type must be raised
            with pytest.raises(type(error)):
                call_ours()
            return None, None
        return call_ours(), theirs


_PROBLEM = dict(
    seed=st.integers(0, 2**32 - 1),
    n=_SIZES,
    score_kind=st.sampled_from(_SCORE_KINDS),
    label_kind=st.sampled_from(_LABEL_KINDS),
    weight_kind=st.sampled_from(_WEIGHT_KINDS),
)


@given(**_PROBLEM, max_fpr=st.sampled_from([None, 1.0, 0.5, 0.25, 0.1]))
def test_roc_auc_binary_bits(seed, n, score_kind, label_kind, weight_kind, max_fpr):
    y, s, w, _pos = _binary_problem(seed, n, score_kind, label_kind, weight_kind)
    ours, theirs = _both(
        lambda: tm.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr),
        lambda: skm.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


@given(**_PROBLEM)
def test_average_precision_binary_bits(seed, n, score_kind, label_kind, weight_kind):
    y, s, w, pos = _binary_problem(seed, n, score_kind, label_kind, weight_kind)
    ours, theirs = _both(
        lambda: tm.average_precision_score(y, s, sample_weight=w, pos_label=pos),
        lambda: skm.average_precision_score(y, s, sample_weight=w, pos_label=pos),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


@given(**_PROBLEM, drop=st.booleans())
def test_curves_bits(seed, n, score_kind, label_kind, weight_kind, drop):
    y, s, w, pos = _binary_problem(seed, n, score_kind, label_kind, weight_kind)
    for name in ("roc_curve", "precision_recall_curve", "det_curve"):
        ours, theirs = _both(
            lambda: getattr(tm, name)(y, s, sample_weight=w, pos_label=pos, drop_intermediate=drop),
            lambda: getattr(skm, name)(y, s, sample_weight=w, pos_label=pos, drop_intermediate=drop),
        )
        if theirs is None:
            continue
        for a, b in zip(ours, theirs):
            assert np.array_equal(a, b, equal_nan=True), (name, a, b)


@given(
    seed=st.integers(0, 2**32 - 1),
    n=_SIZES,
    n_classes=st.integers(3, 5),
    multi_class=st.sampled_from(["ovr", "ovo"]),
    average=st.sampled_from(["macro", "weighted"]),
    weighted=st.booleans(),
)
def test_roc_auc_multiclass_bits(seed, n, n_classes, multi_class, average, weighted):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    p = np.round(rng.random((n, n_classes)), 2) + 0.01
    p /= p.sum(axis=1, keepdims=True)
    w = rng.random(n) if weighted and multi_class == "ovr" else None
    ours, theirs = _both(
        lambda: tm.roc_auc_score(y, p, multi_class=multi_class, average=average, sample_weight=w),
        lambda: skm.roc_auc_score(y, p, multi_class=multi_class, average=average, sample_weight=w),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


@pytest.mark.slow_bits
@given(
    seed=st.integers(0, 2**32 - 1),
    n=_SIZES,
    n_labels=st.integers(2, 4),
    average=st.sampled_from(["micro", "macro", "weighted", "samples"]),
    weighted=st.booleans(),
)
def test_multilabel_ranking_bits(seed, n, n_labels, average, weighted):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, n_labels)) < 0.5).astype(np.int64)
    s = np.round(rng.random((n, n_labels)), 1)
    w = rng.random(n) if weighted else None
    for ours_f, theirs_f in (
        (tm.average_precision_score, skm.average_precision_score),
        (tm.roc_auc_score, skm.roc_auc_score),
    ):
        ours, theirs = _both(
            lambda: ours_f(y, s, average=average, sample_weight=w),
            lambda: theirs_f(y, s, average=average, sample_weight=w),
        )
        assert ours is theirs is None or _same(ours, theirs), (ours_f.__name__, ours, theirs)


@given(**_PROBLEM)
def test_brier_binary_bits(seed, n, score_kind, label_kind, weight_kind):
    y, _, w, pos = _binary_problem(seed, n, "float64", label_kind, weight_kind)
    rng = np.random.default_rng(seed + 1)
    p = rng.random(n) if score_kind != "float32" else rng.random(n).astype(np.float32)
    ours, theirs = _both(
        lambda: tm.brier_score_loss(y, p, sample_weight=w, pos_label=pos),
        lambda: skm.brier_score_loss(y, p, sample_weight=w, pos_label=pos),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


@given(
    seed=st.integers(0, 2**32 - 1),
    n=_SIZES,
    n_classes=st.sampled_from([3, 4, 8, 9, 17]),
    weight_kind=st.sampled_from(_WEIGHT_KINDS),
)
def test_brier_multiclass_bits(seed, n, n_classes, weight_kind):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    p = rng.random((n, n_classes))
    p /= p.sum(axis=1, keepdims=True)
    w = _weights(rng, n, weight_kind)
    labels = np.arange(n_classes)
    ours, theirs = _both(
        lambda: tm.brier_score_loss(y, p, sample_weight=w, labels=labels),
        lambda: skm.brier_score_loss(y, p, sample_weight=w, labels=labels),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


_COUNT_SCORES = [
    ("accuracy_score", {}),
    ("balanced_accuracy_score", {}),
    ("balanced_accuracy_score", {"adjusted": True}),
    ("precision_score", {"average": "macro"}),
    ("recall_score", {"average": "weighted"}),
    ("f1_score", {"average": "macro"}),
    ("f1_score", {"average": "micro"}),
    ("fbeta_score", {"beta": 0.5, "average": "weighted"}),
    ("jaccard_score", {"average": "macro"}),
    ("cohen_kappa_score", {}),
    ("cohen_kappa_score", {"weights": "quadratic"}),
    ("matthews_corrcoef", {}),
]


@pytest.mark.parametrize("name,kwargs", _COUNT_SCORES, ids=[f"{n}-{k}" for n, k in _COUNT_SCORES])
@given(
    seed=st.integers(0, 2**32 - 1), n=_SIZES, n_classes=st.integers(2, 5), weight_kind=st.sampled_from(_WEIGHT_KINDS)
)
@settings(max_examples=40)
def test_count_scores_bits(name, kwargs, seed, n, n_classes, weight_kind):
    """Unweighted, integer-weighted (exact sums) and with fractional weights
    (summed in scikit-learn's order; more in
    tests/classification/test_exact_bits_weighted_counts.py)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, n_classes, n))
    w = _weights(rng, n, weight_kind)
    ours, theirs = _both(
        lambda: getattr(tm, name)(y, pred, sample_weight=w, **kwargs),
        lambda: getattr(skm, name)(y, pred, sample_weight=w, **kwargs),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


@given(
    seed=st.integers(0, 2**32 - 1), n=_SIZES, n_classes=st.integers(3, 5), k=st.integers(1, 3), weighted=st.booleans()
)
@settings(max_examples=60)
def test_top_k_bits(seed, n, n_classes, k, weighted):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    s = np.round(rng.random((n, n_classes)), 1)
    w = rng.random(n) if weighted else None
    labels = np.arange(n_classes)
    ours, theirs = _both(
        lambda: tm.top_k_accuracy_score(y, s, k=k, sample_weight=w, labels=labels),
        lambda: skm.top_k_accuracy_score(y, s, k=k, sample_weight=w, labels=labels),
    )
    assert ours is theirs is None or _same(ours, theirs), (ours, theirs)


@pytest.mark.slow_bits
@pytest.mark.parametrize("n_threads", [1, 2, 3, 8])
def test_large_inputs_bits_for_every_thread_count(n_threads):
    """Inputs far past the table's parallel block size, weighted and not."""
    rng = np.random.default_rng(7)
    n = 3_000_000
    y = rng.random(n) < 0.3
    s = rng.random(n)
    w = rng.random(n)
    for weights in (None, w):
        assert tm.roc_auc_score(y, s, sample_weight=weights, n_threads=n_threads) == skm.roc_auc_score(
            y, s, sample_weight=weights
        )
        assert tm.average_precision_score(
            y, s, sample_weight=weights, n_threads=n_threads
        ) == skm.average_precision_score(y, s, sample_weight=weights)
        assert tm.brier_score_loss(y, s, sample_weight=weights, n_threads=n_threads) == skm.brier_score_loss(
            y, s, sample_weight=weights
        )


def test_cross_validate_is_identical_with_the_patch():
    """``cross_validate`` gives the same floats with and without
    ``turbometrics.sklearn.patch()`` (a one-ulp difference could flip
    which candidate GridSearchCV picks)."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_validate

    import turbometrics.sklearn as tm_sklearn

    X, y = make_classification(n_samples=3000, n_features=12, flip_y=0.2, random_state=0)
    X = np.round(X, 1)  # ties in the decision function
    scoring = [
        "roc_auc",
        "average_precision",
        "accuracy",
        "balanced_accuracy",
        "f1",
        "precision",
        "recall",
        "jaccard",
        "matthews_corrcoef",
        "neg_brier_score",
        "neg_log_loss",
        "roc_auc_ovr",
    ]

    def run():
        scores = cross_validate(LogisticRegression(max_iter=200), X, y, cv=5, scoring=scoring)
        return {name: scores[name] for name in sorted(scores) if name.startswith("test_")}

    plain = run()
    tm_sklearn.patch()
    try:
        assert tm_sklearn.patched()
        patched = run()
    finally:
        tm_sklearn.unpatch()
    for name in plain:
        assert patched[name].tobytes() == plain[name].tobytes(), (name, plain[name], patched[name])
