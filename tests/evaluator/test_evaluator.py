"""turbometrics.Evaluator: equal to the in-memory functions (and so scikit-learn) on the
concatenated rows, per group too, for any split into batches and any merge tree; the
serialisation round trips; bad input and mismatched merges are refused."""

from __future__ import annotations

import itertools
import math
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import turbometrics as tm
from turbometrics.evaluator import BINARY_METRICS, MULTICLASS_METRICS

BINARY = list(BINARY_METRICS)
MULTICLASS = list(MULTICLASS_METRICS)
# Values that are not bit for bit those of the in-memory functions (docs/guide/evaluator.md):
# the ECE (exact bin sums against float sums), the Brier score and log loss (exact sums divided
# against rounded float sums, a few ulps apart), and every value with weights (rtol 1e-12,
# as the states).
REL = {"ece": 1e-12, "mce": 1e-12, "rmsce": 1e-12, "brier": 1e-13, "log_loss": 1e-13}
WEIGHTED_REL = 1e-12
# Exact sums whatever the weights: bit for bit across splits.
EXACT_SUMS = {"ece", "mce", "rmsce", "brier", "log_loss"}
GROUPS = ["a", "b", 3, None]


def _expected_binary(y, s, w) -> dict:
    """The binary metrics of the rows, from the in-memory functions."""
    pred = (s >= 0.5).astype(int)
    common = dict(sample_weight=w)
    best = tm.best_threshold(y, s, **common)
    out = {
        "roc_auc": tm.roc_auc_score(y, s, **common),
        "average_precision": tm.average_precision_score(y, s, **common),
        "best_f1": best.value,
        "best_f1_threshold": best.threshold,
        "accuracy": tm.accuracy_score(y, pred, **common),
        "balanced_accuracy": tm.balanced_accuracy_score(y, pred, **common),
        "precision": tm.precision_score(y, pred, zero_division=0.0, **common),
        "recall": tm.recall_score(y, pred, zero_division=0.0, **common),
        "f1": tm.f1_score(y, pred, zero_division=0.0, **common),
        "mcc": tm.matthews_corrcoef(y, pred, **common),
        "jaccard": tm.jaccard_score(y, pred, zero_division=0.0, **common),
        "cohen_kappa": tm.cohen_kappa_score(y, pred, **common),
        "ece": tm.calibration_error(y, s, **common),
        "mce": tm.calibration_error(y, s, norm="max", **common),
        "rmsce": tm.calibration_error(y, s, norm="l2", **common),
        "brier": tm.brier_score_loss(y, s, **common),
        "log_loss": tm.log_loss(y, s, labels=[0, 1], **common),
    }
    if w is None:
        ci = tm.roc_auc_ci(y, s)
        out["roc_auc_ci"] = [ci.lower, ci.upper]
    else:
        out["roc_auc_ci"] = [math.nan, math.nan]
    return out


def _expected_multiclass(y, p, w) -> dict:
    labels = np.arange(p.shape[1])
    pred = p.argmax(axis=1)
    common = dict(sample_weight=w)
    return {
        "roc_auc": tm.roc_auc_score(y, p, multi_class="ovr", labels=labels, **common),
        "accuracy": tm.accuracy_score(y, pred, **common),
        "balanced_accuracy": tm.balanced_accuracy_score(y, pred, **common),
        "f1_macro": tm.f1_score(y, pred, average="macro", labels=labels, zero_division=0.0, **common),
        "f1_weighted": tm.f1_score(y, pred, average="weighted", labels=labels, zero_division=0.0, **common),
        "mcc": tm.matthews_corrcoef(y, pred, **common),
        "cohen_kappa": tm.cohen_kappa_score(y, pred, **common),
        "ece": tm.calibration_error(y, p, **common),
        "mce": tm.calibration_error(y, p, norm="max", **common),
        "rmsce": tm.calibration_error(y, p, norm="l2", **common),
        "brier": tm.brier_score_loss(y, p, labels=labels, **common),
        "log_loss": tm.log_loss(y, p, labels=labels, **common),
    }


def _quietly(function, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args)


def _same(a, b) -> bool:
    """Equal values, NaN equal to NaN (lists elementwise)."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return (math.isnan(a) and math.isnan(b)) if isinstance(a, float) and math.isnan(a) else a == b


def _assert_close(got: dict, expected: dict, weighted: bool) -> None:
    assert set(got) == set(expected)
    for name, value in expected.items():
        rel = WEIGHTED_REL if weighted else REL.get(name)
        if rel is None or (isinstance(value, list) and weighted):
            assert _same(got[name], value), (name, got[name], value)
        elif isinstance(value, list):
            assert got[name] == pytest.approx(value, rel=rel, nan_ok=True), name
        else:
            assert got[name] == pytest.approx(value, rel=rel, abs=1e-300, nan_ok=True), (name, got[name], value)


def _combine(evaluators: list, draw) -> tm.Evaluator:
    """Merge in a random tree, each merge by one of the ways an Evaluator merges."""
    pool = list(evaluators)
    while len(pool) > 1:
        i = draw(st.integers(0, len(pool) - 1))
        a = pool.pop(i)
        j = draw(st.integers(0, len(pool) - 1))
        b = pool.pop(j)
        how = draw(st.sampled_from(["merge", "add", "sum", "bytes", "pickle"]))
        if how == "merge":
            merged = a.merge(b)
        elif how == "add":
            merged = a + b
        elif how == "sum":
            merged = sum([a, b])
        elif how == "bytes":
            merged = tm.Evaluator.from_bytes(a.to_bytes()).merge(tm.Evaluator.from_bytes(b.to_bytes()))
        else:
            merged = pickle.loads(pickle.dumps(a)) + pickle.loads(pickle.dumps(b, protocol=5))
        pool.append(merged)
    return pool[0]


@st.composite
def _batches(draw, n: int) -> list[tuple[int, int]]:
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    bounds = [0, *cuts, n]
    return list(itertools.pairwise(bounds))


def _agree(got, expected, name: str, exact: bool) -> bool:
    """Bit for bit, or (``exact`` False) to rounding except for the exact sums."""
    if exact or name in EXACT_SUMS:
        return _same(got, expected)
    return got == pytest.approx(expected, rel=WEIGHTED_REL, abs=1e-15, nan_ok=True)


def _check_split_and_merge(ev_of, arrays, groups, batches, draw, exact: bool = True) -> dict:
    """The Evaluator of one batch, and of ``batches`` merged in a random tree, agree bit for bit
    (``exact`` False, for weights whose sums round: to rounding, except the exact sums); returns
    the result."""
    whole = _quietly(lambda: ev_of().update(*arrays[:2], sample_weight=arrays[2], groups=groups))
    parts = [
        _quietly(
            lambda a=a, b=b: ev_of().update(
                arrays[0][a:b],
                arrays[1][a:b],
                sample_weight=None if arrays[2] is None else arrays[2][a:b],
                groups=groups[a:b],
            )
        )
        for a, b in batches
    ]
    merged = _combine(parts, draw)
    expected = _quietly(whole.compute)
    got = _quietly(merged.compute)
    assert list(got["by_group"]) == list(expected["by_group"])
    for section in ("overall", "gap"):
        assert set(got[section]) == set(expected[section])
        for name in expected[section]:
            assert _agree(got[section][name], expected[section][name], name, exact), (section, name)
    for key, values in expected["by_group"].items():
        for name in values:
            assert _agree(got["by_group"][key][name], values[name], name, exact), (key, name)
    assert merged.n_samples == whole.n_samples
    assert merged.n_samples_by_group == whole.n_samples_by_group
    return expected


@given(st.data())
def test_binary_equals_the_functions_for_any_split_and_merge_tree(data):
    draw = data.draw
    n = draw(st.integers(1, 40))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.7, 0.9, 1.0]), min_size=n, max_size=n)))
    weighted = draw(st.booleans())
    dyadic = draw(st.booleans())  # weights whose sums are exact, or any
    weight = st.sampled_from([0.25, 0.5, 1.0, 3.0]) if dyadic else st.floats(0.01, 10.0)
    w = np.array(draw(st.lists(weight, min_size=n, max_size=n))) if weighted else None
    groups = np.array(draw(st.lists(st.sampled_from(GROUPS), min_size=n, max_size=n)), dtype=object)
    result = _check_split_and_merge(
        lambda: tm.Evaluator(BINARY), (y, s, w), groups, draw(_batches(n)), draw, exact=not weighted or dyadic
    )
    _assert_close(result["overall"], _quietly(_expected_binary, y, s, w), weighted)
    for key, values in result["by_group"].items():
        rows = np.array([g == key and g is not None for g in groups])
        assert key in {"a", "b", 3}
        _assert_close(values, _quietly(_expected_binary, y[rows], s[rows], None if w is None else w[rows]), weighted)


@given(st.data())
def test_multiclass_equals_the_functions_for_any_split_and_merge_tree(data):
    draw = data.draw
    n = draw(st.integers(1, 30))
    k = draw(st.integers(3, 4))
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    counts = np.array(draw(st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=n, max_size=n)))
    counts[counts.sum(axis=1) == 0, 0] = 1
    p = counts / counts.sum(axis=1, keepdims=True)
    weighted = draw(st.booleans())
    dyadic = draw(st.booleans())
    weight = st.sampled_from([0.5, 1.0, 2.0]) if dyadic else st.floats(0.01, 10.0)
    w = np.array(draw(st.lists(weight, min_size=n, max_size=n))) if weighted else None
    groups = np.array(draw(st.lists(st.sampled_from(GROUPS), min_size=n, max_size=n)), dtype=object)
    named = draw(st.booleans())
    classes = [f"c{i}" for i in range(k)] if named else k
    labels = np.array(classes)[y] if named else y
    result = _check_split_and_merge(
        lambda: tm.Evaluator(MULTICLASS, classes=classes),
        (labels, p, w),
        groups,
        draw(_batches(n)),
        draw,
        exact=not weighted or dyadic,
    )
    _assert_close(result["overall"], _quietly(_expected_multiclass, y, p, w), weighted)
    for key, values in result["by_group"].items():
        rows = np.array([g == key and g is not None for g in groups])
        _assert_close(
            values, _quietly(_expected_multiclass, y[rows], p[rows], None if w is None else w[rows]), weighted
        )


def test_default_metrics_and_large_batches_equal_the_functions():
    rng = np.random.default_rng(0)
    n = 20_000
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.3 * y + rng.normal(0.35, 0.2, n), 0, 1), 3)
    ev = sum(tm.Evaluator().update(y[i : i + 3000], s[i : i + 3000]) for i in range(0, n, 3000))
    expected = _expected_binary(y, s, None)
    got = ev.compute()["overall"]
    assert list(got) == ["roc_auc", "roc_auc_ci", "average_precision", "best_f1", "best_f1_threshold"] + [
        "accuracy",
        "precision",
        "recall",
        "f1",
        "ece",
    ]
    _assert_close(got, {name: expected[name] for name in got}, weighted=False)
    assert ev.compute()["by_group"] == {} and ev.compute()["gap"] == {}


@pytest.mark.bits
def test_brier_is_the_correctly_rounded_quotient_of_exact_sums():
    """The exact sum of the function's per-row terms (w * loss) over the exact sum of the
    weights, rounded once; split-invariant, where the function's float sums are not."""
    from fractions import Fraction

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 1000)
    p = rng.random(1000)
    w = rng.random(1000)
    terms = (((y == 0) - (1 - p)) ** 2 + ((y == 1) - p) ** 2) * w  # two products, one sum, times w
    exact = sum(map(Fraction, terms.tolist()), Fraction(0)) / sum(map(Fraction, w.tolist()), Fraction(0))
    ev = tm.Evaluator(["brier", "log_loss"]).update(y, p, sample_weight=w)
    got = ev.compute()["overall"]
    assert got["brier"] == float(exact) * 0.5
    assert got["brier"] == pytest.approx(tm.brier_score_loss(y, p, sample_weight=w), rel=1e-14)
    assert got["log_loss"] == pytest.approx(tm.log_loss(y, p, sample_weight=w), rel=1e-14)


@pytest.mark.bits
@pytest.mark.parametrize("classes", [2, 4])
@pytest.mark.parametrize("weighted", [False, True])
def test_log_loss_is_the_correctly_rounded_quotient_of_the_functions_terms(classes, weighted):
    """What docs/guide/evaluator.md promises, exactly: the exact sum of the
    function's own per-row terms over the exact sum of the weights, rounded
    once. Each term is log_loss of its one row (normalize=False: w * loss),
    so the test holds whichever logarithm the function uses on this machine."""
    from fractions import Fraction

    rng = np.random.default_rng(6 + classes)
    n = 200
    y = rng.integers(0, classes, n)
    p = rng.random(n) if classes == 2 else rng.dirichlet(np.ones(classes), n)
    p[:3] = (0.0, 1.0, 1e-300) if classes == 2 else p[:3]  # clipped to eps and 1 - eps
    w = rng.random(n) * 3 if weighted else np.ones(n)
    labels = list(range(classes))
    terms = [
        Fraction(tm.log_loss(y[i : i + 1], p[i : i + 1], sample_weight=w[i : i + 1], normalize=False, labels=labels))
        for i in range(n)
    ]
    exact = sum(terms, Fraction(0)) / sum(map(Fraction, w.tolist()), Fraction(0))
    ev = tm.Evaluator(["log_loss"], classes=classes if classes > 2 else None)
    ev.update(y, p, sample_weight=w if weighted else None)
    assert ev.compute()["overall"]["log_loss"] == float(exact)


def _inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    return rng.integers(0, 2, 500), rng.random(500), rng.choice(["x", "y"], 500)


def test_pandas_pyarrow_and_list_inputs():
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    y, s, g = _inputs()
    reference = tm.Evaluator(["roc_auc", "f1", "log_loss"]).update(y, s, groups=g).compute()
    for yy, ss, gg in (
        (pd.Series(y), pd.Series(s), pd.Series(g, dtype="string")),
        (y.tolist(), s.tolist(), pd.Categorical(g)),
        (pa.array(y), pa.chunked_array([s[:100], s[100:]]), pa.array(g)),
        (y.astype(bool), s, g.astype(object)),
    ):
        assert tm.Evaluator(["roc_auc", "f1", "log_loss"]).update(yy, ss, groups=gg).compute() == reference


def test_a_training_loop_with_torch_tensors():
    """docs/guide/evaluator.md's training loop: CPU tensors (that require grad), one update per batch."""
    torch = pytest.importorskip("torch")
    y, s, _ = _inputs()
    ev = tm.Evaluator(["roc_auc", "f1", "log_loss"])
    for start in range(0, 500, 64):
        ev.update(torch.tensor(y[start : start + 64]), torch.tensor(s[start : start + 64], requires_grad=True))
    assert ev.compute() == tm.Evaluator(["roc_auc", "f1", "log_loss"]).update(y, s).compute()


def test_null_groups_count_overall_only():
    pd = pytest.importorskip("pandas")
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.9, 0.4, 0.6, 0.3, 0.2])
    for groups in (
        [None, "a", "a", float("nan"), "a", "a"],
        pd.Series([pd.NA, "a", "a", pd.NA, "a", "a"], dtype="string"),
        np.array([np.nan, 1.0, 1.0, np.nan, 1.0, 1.0]),
    ):
        ev = tm.Evaluator(["roc_auc"]).update(y, s, groups=groups)
        assert ev.n_samples == 6 and list(ev.n_samples_by_group.values()) == [4]
        assert ev.compute()["overall"]["roc_auc"] == tm.roc_auc_score(y, s)


def test_a_group_metric_that_raises_is_nan_with_a_warning_and_the_whole_raises():
    y = np.array([0, 1, 0, 1])
    s = np.array([0.1, 0.9, 0.4, 0.6])
    ev = tm.Evaluator(["roc_auc", "log_loss"]).update(y, s, sample_weight=[0.0, 0.0, 1.0, 1.0], groups=list("aabb"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ev.compute()
    zero_weights = "Sample weights must contain at least one non-zero number."
    assert [str(w.message) for w in caught] == [
        f"group a: roc_auc: {zero_weights}",
        f"group a: log_loss: {zero_weights}",
    ]
    assert math.isnan(result["by_group"]["a"]["roc_auc"]) and math.isnan(result["by_group"]["a"]["log_loss"])
    assert result["by_group"]["b"]["log_loss"] > 0
    assert math.isnan(result["gap"]["log_loss"])  # one group defines it
    with pytest.warns(tm.UndefinedMetricWarning, match="group a: roc_auc: Only one class"):
        tm.Evaluator(["roc_auc"]).update([1, 1, 0, 1], s, groups=list("aabb")).compute()
    zero = tm.Evaluator(["brier"]).update(y, s, sample_weight=np.zeros(4))
    with pytest.raises(ValueError, match=r"^brier: Sample weights must contain at least one non-zero number"):
        zero.compute()
    with pytest.raises(ValueError, match="has no rows"):
        tm.Evaluator().compute()


def test_gap_to_pandas_and_reset():
    pytest.importorskip("pandas")
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 300)
    s = rng.random(300)
    g = rng.choice([2, 1, 10], 300)
    ev = tm.Evaluator(["roc_auc", "roc_auc_ci", "accuracy"], by="region").update(y, s, groups=g)
    result = ev.compute()
    assert list(result["by_group"]) == [1, 2, 10]
    values = [result["by_group"][k]["roc_auc"] for k in (1, 2, 10)]
    assert result["gap"]["roc_auc"] == max(values) - min(values)
    assert set(result["gap"]) == {"roc_auc", "accuracy"}
    frame = ev.to_pandas()
    assert frame.index.name == "region" and list(frame.index) == ["overall", 1, 2, 10]
    assert list(frame.columns) == ["roc_auc", "roc_auc_ci_lower", "roc_auc_ci_upper", "accuracy", "n_samples"]
    assert frame.loc["overall", "roc_auc"] == result["overall"]["roc_auc"]
    assert frame["n_samples"].tolist() == [300, *(int((g == k).sum()) for k in (1, 2, 10))]
    assert ev.reset().n_samples == 0 and ev.groups == []
    clash = tm.Evaluator(["accuracy"]).update([0, 1], [0.2, 0.7], groups=["overall", "x"])
    with pytest.raises(ValueError, match="a group is labelled 'overall'"):
        clash.to_pandas()


def test_empty_batches_and_tiny_data():
    ev = tm.Evaluator(["roc_auc", "accuracy", "brier"])
    ev.update([], [], groups=[])
    ev.update(np.zeros(0), np.zeros(0), sample_weight=np.zeros(0))
    assert ev.n_samples == 0
    ev.update([1], [0.7])
    with pytest.warns(tm.UndefinedMetricWarning):
        result = ev.compute()["overall"]
    assert (
        math.isnan(result["roc_auc"])
        and result["accuracy"] == 1.0
        and result["brier"] == tm.brier_score_loss([1], [0.7])
    )
    multi = tm.Evaluator(["accuracy"], classes=3).update([], [])
    assert multi.update([2], [[0.1, 0.2, 0.7]]).compute()["overall"]["accuracy"] == 1.0


def test_sum_of_evaluators_and_merge_with_itself():
    y = np.array([0, 1, 1, 0])
    s = np.array([0.2, 0.7, 0.4, 0.5])
    a = tm.Evaluator(["roc_auc"]).update(y, s)
    assert sum([a, a, a]).n_samples == 12 and a.n_samples == 4
    assert (a + a).compute() == tm.Evaluator(["roc_auc"]).update(np.tile(y, 2), np.tile(s, 2)).compute()
    a.merge(a)
    assert a.n_samples == 8


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(metrics=["roc_auc", "nope"]), ValueError, "unknown binary metric 'nope'"),
        (dict(metrics=["f1_macro"]), ValueError, "a multiclass metric: pass classes="),
        (dict(metrics=["f1"], classes=3), ValueError, "unknown multiclass metric 'f1' .a binary metric"),
        (dict(metrics="roc_auc"), TypeError, "not a str"),
        (dict(metrics=[]), ValueError, "metrics is empty"),
        (dict(metrics=[1]), TypeError, "metric names must be str"),
        (dict(classes=1), ValueError, "at least 2"),
        (dict(classes=["a", "a"]), ValueError, "names 'a' twice"),
        (dict(classes=[1, True]), ValueError, "names 1 twice"),
        (dict(classes=[0.5, float("nan")]), ValueError, "NaN"),
        (dict(threshold=True), ValueError, "finite number"),
        (dict(classes=[{"a": 1}, "b"]), TypeError, "text, numbers or booleans"),
        (dict(classes="abc"), TypeError, "classes must be None, an int or a sequence"),
        (dict(threshold=float("nan")), ValueError, "finite"),
        (dict(threshold="0.5"), ValueError, "threshold"),
        (dict(n_bins=0), ValueError, "n_bins"),
        (dict(confidence=1.0), ValueError, "confidence"),
        (dict(by=3), ValueError, "by"),
        (dict(n_threads=0), ValueError, "n_threads"),
    ],
)
def test_bad_parameters_are_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        tm.Evaluator(**kwargs)


@pytest.mark.parametrize(
    "make, args, kwargs, error, message",
    [
        (
            dict(),
            ([0, 2], [0.1, 0.2]),
            {},
            ValueError,
            r"y_true takes value in \{0, 2\} and pos_label is not specified",
        ),
        (dict(), (["a", "b"], [0.1, 0.2]), {}, ValueError, "pass pos_label explicitly"),
        (dict(), ([0, 1], [[0.1, 0.9], [0.5, 0.5]]), {}, ValueError, "must be 1-D for a binary Evaluator"),
        (dict(), ([0, 1], [0.1, np.nan]), {}, ValueError, "Input contains NaN"),
        (dict(), ([0, 1], ["a", "b"]), {}, ValueError, "y_score must be numbers"),
        (dict(), ([0, 1], [0.1 + 1j, 0.2]), {}, ValueError, "Complex data not supported"),
        (dict(metrics=["ece"]), ([0, 1], [0.1, 0.2]), dict(sample_weight=[1, -1]), ValueError, "non-negative"),
        (dict(), ([0, 1], [0.1]), {}, ValueError, "inconsistent numbers of samples"),
        (dict(metrics=["ece"]), ([0, 1], [0.1, 1.5]), {}, ValueError, "greater than 1: 1.5"),
        (dict(metrics=["log_loss"]), ([0, 1], [-0.1, 0.5]), {}, ValueError, "lower than 0: -0.1"),
        (dict(), ([0, 1], [0.1, 0.2]), dict(sample_weight=[1.0, np.inf]), ValueError, "sample_weight"),
        (dict(), ([0, 1], [0.1, 0.2]), dict(groups=[[1], [2]]), ValueError, "groups must be 1-D"),
        (dict(), ([0, 1], [0.1, 0.2]), dict(groups=[{"a"}, "b"]), TypeError, "text, numbers or booleans"),
        (
            dict(),
            ([0, 1], [0.1, 0.2]),
            dict(groups=np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]")),
            TypeError,
            "text, numbers or booleans, not date",
        ),
        (dict(), ([0, np.nan], [0.1, 0.2]), {}, ValueError, "Input y_true contains NaN"),
        (dict(classes=3), ([0, 3], [[0.2, 0.3, 0.5]] * 2), {}, ValueError, "class indices 0 .. 2, got 3"),
        (dict(classes=3), ([0, 1], [[0.2, 0.8]] * 2), {}, ValueError, r"shape \(n, 3\)"),
        (dict(classes=["x", "y", "z"]), (["x", "w"], [[0.2, 0.3, 0.5]] * 2), {}, ValueError, "'w', which is not"),
        (dict(classes=3, metrics=["roc_auc"]), ([0, 1], [[0.2, 0.3, 0.6]] * 2), {}, ValueError, "sum up to 1.0"),
    ],
)
def test_bad_input_is_refused(make, args, kwargs, error, message):
    ev = tm.Evaluator(**make)
    with pytest.raises(error, match=message):
        ev.update(*args, **kwargs)
    assert ev.n_samples == 0


def test_two_probability_columns_have_no_multiclass_roc_auc():
    ev = tm.Evaluator(["roc_auc", "accuracy"], classes=2).update([0, 1, 1], [[0.6, 0.4], [0.3, 0.7], [0.2, 0.8]])
    with pytest.raises(ValueError, match=r"^roc_auc: y should be a 1d array, got an array of shape \(3, 2\)"):
        ev.compute()
    with pytest.raises(ValueError, match="y should be a 1d array"):
        tm.roc_auc_score([0, 1, 1], [[0.6, 0.4], [0.3, 0.7], [0.2, 0.8]], multi_class="ovr", labels=[0, 1])


def test_weighted_roc_auc_ci_is_nan_with_a_warning():
    ev = tm.Evaluator(["roc_auc_ci"]).update([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6], sample_weight=[1, 2, 1, 1])
    with pytest.warns(UserWarning, match="roc_auc_ci: DeLong's interval is for unweighted data"):
        value = ev.compute()["overall"]["roc_auc_ci"]
    assert len(value) == 2 and all(math.isnan(v) for v in value)


@pytest.mark.parametrize(
    "a, b, error, message",
    [
        (dict(metrics=["roc_auc"]), dict(metrics=["f1"]), ValueError, "different metrics"),
        (dict(threshold=0.5), dict(threshold=0.4), ValueError, "different threshold: 0.5 and 0.4"),
        (dict(n_bins=10), dict(n_bins=15), ValueError, "different n_bins"),
        (dict(classes=3), dict(classes=["a", "b", "c"]), ValueError, "different classes"),
        (dict(by="x"), dict(by="y"), ValueError, "different by"),
    ],
)
def test_mismatched_merges_are_refused(a, b, error, message):
    with pytest.raises(error, match=message):
        tm.Evaluator(**a).merge(tm.Evaluator(**b))
    with pytest.raises(TypeError, match="cannot merge an Evaluator with RankingState"):
        tm.Evaluator().merge(tm.RankingState())
    with pytest.raises(TypeError):
        tm.Evaluator() + 1


def test_bytes_and_pickles_round_trip_and_are_validated():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 200)
    p = rng.dirichlet(np.ones(3), 200)
    ev = tm.Evaluator(MULTICLASS, classes=["x", "y", 7], by="g", confidence=0.9).update(
        np.array(["x", "y", 7], dtype=object)[y], p, groups=rng.choice([1, 2.5, "s", True], 200)
    )
    data = ev.to_bytes()
    assert data == ev.to_bytes()  # deterministic
    back = tm.Evaluator.from_bytes(data)
    assert back.compute() == ev.compute() and back.classes == ("x", "y", 7) and back.by == "g"
    assert pickle.loads(pickle.dumps(ev, protocol=5)).compute() == ev.compute()
    assert back.groups == ev.groups
    with pytest.raises(TypeError, match="takes bytes"):
        tm.Evaluator.from_bytes("text")
    with pytest.raises(ValueError, match=r"not a serialised Evaluator|not a Evaluator"):
        tm.Evaluator.from_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="hold a 'RankingState'"):
        tm.Evaluator.from_bytes(tm.RankingState().to_bytes())


def _tampered(ev: tm.Evaluator, records=None, **changes) -> bytes:
    """The Evaluator's bytes with fields replaced and, per ``records``
    entry ``(slot, index): {field: value}``, fields of one part's state."""
    from turbometrics._common.columns import column_names, columns, records as read_records
    from turbometrics._common.serial import dump_state, load_state

    fields, arrays = load_state(ev.to_bytes(), "Evaluator", ev._VERSION)
    parts = {**fields, **arrays}
    for (slot, index), values in (records or {}).items():
        prefix = f"{slot}."
        rows = read_records(parts, prefix, column_names(parts, prefix), len(ev.groups) + 1)
        rows[index].update(values)
        parts = {key: value for key, value in parts.items() if not key.startswith(prefix)}
        parts.update(columns(rows, prefix))
    parts.update(changes)
    arrays = {key: value for key, value in parts.items() if isinstance(value, np.ndarray)}
    fields = {key: value for key, value in parts.items() if key not in arrays}
    return dump_state("Evaluator", ev._VERSION, fields, arrays)


def test_tampered_bytes_raise_value_errors():
    from turbometrics._common.serial import limbs_from_ints

    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.1, 0.8, 0.6, 0.3, 0.9])
    ev = tm.Evaluator(["roc_auc", "accuracy", "brier", "ece"]).update(y, s, groups=list("aabbb"))
    empty_confusion = tm.ConfusionState()._parts()
    for records, changes, message in (
        ({}, dict(metrics=["roc_auc", "bogus"]), "unknown binary metric"),
        ({}, dict(metrics="roc_auc"), "metrics must be a list"),
        ({}, dict(threshold="x"), "threshold"),
        ({}, dict(groups=["a", "a"]), "distinct"),
        ({}, dict(groups=["a"]), "n_samples must be a list of 2"),
        ({}, dict(groups=[["a"], "b"]), "distinct str"),
        ({}, dict(n_samples=[-1, 2, 3]), "n_samples"),
        ({}, dict(n_samples=[6, 2, 3]), "holds 5 samples, not 6"),
        ({}, dict(n_samples=[5, 9, 3]), "group 0"),
        ({}, {"bogus.field": 1}, "unknown fields"),
        ({}, {"ranking.scores.bogus": 1}, "unknown field"),
        ({}, {"ranking.scores": np.frombuffer(b"junk", np.uint8)}, "ranking.scores"),
        ({("brier", 0): dict(sums=limbs_from_ints([-1, 5 << 1100]))}, {}, "unweighted sum"),
        ({("brier", 0): dict(sums=np.zeros((3, 4), np.uint64))}, {}, "shape"),
        ({("confusion", 0): empty_confusion}, {}, "confusion"),
        ({("ranking", 2): dict(samples=2)}, {}, "group 1: ranking"),
    ):
        with pytest.raises(ValueError, match=message):
            tm.Evaluator.from_bytes(_tampered(ev, records, **changes))


def test_n_threads_does_not_change_results():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 50_000)
    s = rng.random(50_000)
    one = tm.Evaluator(BINARY, n_threads=1).update(y, s).compute()
    two = tm.Evaluator(BINARY, n_threads=2).update(y, s).compute()
    assert one == two


def _low_precision_terms(y, p, score):
    """The functions' per-row terms of float32 / float16 probabilities, in their dtype
    (scikit-learn's expressions: one-hot rows, the clip at the dtype's epsilon)."""
    columns = np.stack((1 - p, p), axis=1) if p.ndim == 1 else p
    onehot = np.zeros(columns.shape, p.dtype)
    onehot[np.arange(y.shape[0]), y] = 1
    if score == "brier":
        return np.sum((onehot - columns) ** 2, axis=1)
    eps = np.finfo(p.dtype).eps
    return -np.log(np.clip(columns, eps, 1 - eps))[np.arange(y.shape[0]), y]


@given(
    data=st.data(),
    k=st.sampled_from([None, 3]),
    dtype=st.sampled_from([np.float32, np.float16]),
    weighted=st.booleans(),
)
def test_float32_brier_and_log_loss_are_the_functions(data, k, dtype, weighted):
    # The Evaluator converted float32 probabilities to float64 while the functions compute
    # in float32 (eps 1.2e-7 for the clip): about 1e8 ulps apart (issue 23). Now: the exact
    # sum of the functions' own float32 terms over the exact weight sum, rounded once, and
    # so within the functions' own summation error of them.
    from fractions import Fraction

    n = data.draw(st.integers(1, 40))
    y = np.array(data.draw(st.lists(st.integers(0, (k or 2) - 1), min_size=n, max_size=n)))
    values = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 1e-9]), st.floats(0, 1))
    if k is None:
        p = np.array(data.draw(st.lists(values, min_size=n, max_size=n))).astype(dtype)
    else:
        raw = np.array(data.draw(st.lists(values, min_size=n * k, max_size=n * k))).reshape(n, k) + 1e-3
        p = (raw / raw.sum(axis=1, keepdims=True)).astype(dtype)
    w = np.array(data.draw(st.lists(st.floats(0.01, 10), min_size=n, max_size=n))) if weighted else None
    cut = data.draw(st.integers(0, n))
    ev = tm.Evaluator(["brier", "log_loss"], classes=k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rows of float16 may not sum to one: both warn
        ev.update(y[:cut], p[:cut], sample_weight=None if w is None else w[:cut])
        ev.update(y[cut:], p[cut:], sample_weight=None if w is None else w[cut:])
        got = ev.compute()["overall"]
        labels = list(range(k or 2))
        functions = {
            "brier": tm.brier_score_loss(y, p, sample_weight=w, labels=labels),
            "log_loss": tm.log_loss(y, p, sample_weight=w, labels=labels),
        }
    weights = np.ones(n) if w is None else w
    for name, score in (("brier", "brier"), ("log_loss", "log")):
        products = _low_precision_terms(y, p, score).astype(np.float64) * weights  # rounded as the functions'
        exact = sum(map(Fraction, products.tolist()), Fraction(0)) / sum(map(Fraction, weights.tolist()), Fraction(0))
        halve = name == "brier" and k is None
        assert got[name] == float(exact) * (0.5 if halve else 1.0), name
        # The functions add n terms in the probabilities' dtype (float64 with weights).
        unit = np.finfo(np.float64 if weighted else dtype).eps
        assert math.isclose(got[name], functions[name], rel_tol=(2 * n + 2) * unit, abs_tol=1e-300), name


def test_float32_log_loss_reproducer():
    y = np.array([0, 1, 1, 0])
    p = np.array([0.0, 1.0, 0.7, 0.2], np.float32)
    got = tm.Evaluator(["brier", "log_loss"]).update(y, p).compute()["overall"]
    assert got["log_loss"] == pytest.approx(tm.log_loss(y, p), rel=2**-22)
    assert got["brier"] == pytest.approx(tm.brier_score_loss(y, p), rel=2**-22)


def test_concurrent_updates_merges_and_bytes_lose_no_rows():
    # Four threads updating one Evaluator lost 10-45 % of the ranking rows while n_samples
    # counted them all (issue 23). Updates, merges, bytes and results are now serialised.
    import threading

    rng = np.random.default_rng(23)
    batches = [(rng.integers(0, 2, 500), rng.random(500), rng.integers(0, 3, 500)) for _ in range(4 * 25)]
    metrics = ["roc_auc", "accuracy", "log_loss"]
    shared = tm.Evaluator(metrics)
    snapshots = []
    errors = []

    def feed(mine):
        try:
            for y, s, g in mine:
                shared.update(y, s, groups=g)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    def observe():
        for _ in range(20):
            snapshots.append(tm.Evaluator.from_bytes(shared.to_bytes()))
            snapshots.append(tm.Evaluator(metrics).merge(shared))
            shared.merge(tm.Evaluator(metrics))  # adds nothing, under the lock

    threads = [threading.Thread(target=feed, args=(batches[i::4],)) for i in range(4)]
    threads.append(threading.Thread(target=observe))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and not any(thread.is_alive() for thread in threads)
    y = np.concatenate([b[0] for b in batches])
    s = np.concatenate([b[1] for b in batches])
    g = np.concatenate([b[2] for b in batches])
    assert shared.n_samples == y.shape[0] and len(shared._overall.ranking) == len(np.unique(s))
    got = shared.compute()
    assert got["overall"]["roc_auc"] == tm.roc_auc_score(y, s)
    assert got["overall"]["log_loss"] == pytest.approx(tm.log_loss(y, s), rel=1e-13)
    for key in (0, 1, 2):
        assert got["by_group"][key]["roc_auc"] == tm.roc_auc_score(y[g == key], s[g == key])
    for snapshot in snapshots:  # each a whole number of batches
        assert snapshot.n_samples % 500 == 0
        assert snapshot.n_samples == sum(snapshot.n_samples_by_group.values())
        assert snapshot._overall.ranking.total_positive + snapshot._overall.ranking.total_negative == snapshot.n_samples


@given(
    data=st.data(),
    encoding=st.sampled_from(["spam", "minus_one", "one_two", "bool"]),
    weighted=st.booleans(),
)
def test_pos_label_is_the_functions(data, encoding, weighted):
    # The Evaluator had no pos_label and refused {-1, 1} and text labels (issue 23); its
    # metrics are now the functions' with pos_label (roc_auc_score on y == pos_label).
    n = data.draw(st.integers(2, 30))
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    values = {"spam": ("ham", "spam"), "minus_one": (-1, 1), "one_two": (1, 2), "bool": (False, True)}[encoding]
    pos_label = (
        data.draw(st.sampled_from([None, *values]))
        if encoding == "minus_one"
        else data.draw(st.sampled_from(values if encoding != "bool" else [None, *values]))
    )
    y = np.where(mask, values[1], values[0]) if encoding != "bool" else mask
    s = np.round(np.array(data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))), 2)
    w = np.array(data.draw(st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n, max_size=n))) if weighted else None
    positive = y == (1 if pos_label is None else pos_label)
    metrics = ["roc_auc", "average_precision", "accuracy", "precision", "recall", "f1", "brier", "log_loss"]
    cut = data.draw(st.integers(0, n))
    ev = tm.Evaluator(metrics, pos_label=pos_label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev.update(y[:cut], s[:cut], sample_weight=None if w is None else w[:cut])
        ev.update(y[cut:], s[cut:], sample_weight=None if w is None else w[cut:])
        got = ev.compute()["overall"]
        pred = s >= 0.5
        kw = dict(sample_weight=w)
        expected = {
            "roc_auc": tm.roc_auc_score(positive, s, **kw),
            "average_precision": tm.average_precision_score(
                y, s, pos_label=1 if pos_label is None else pos_label, **kw
            ),
            "accuracy": tm.accuracy_score(positive, pred, **kw),
            "precision": tm.precision_score(positive, pred, zero_division=0.0, **kw),
            "recall": tm.recall_score(positive, pred, zero_division=0.0, **kw),
            "f1": tm.f1_score(positive, pred, zero_division=0.0, **kw),
            "brier": tm.brier_score_loss(positive, s, **kw),
            "log_loss": tm.log_loss(positive, s, labels=[False, True], **kw),
        }
    for name, value in expected.items():
        if name in ("brier", "log_loss"):
            assert got[name] == pytest.approx(value, rel=1e-13), name
        else:
            assert got[name] == value or (math.isnan(got[name]) and math.isnan(value)), name
    if pos_label is None and encoding == "minus_one" and mask.any() and not mask.all():
        assert got["roc_auc"] == tm.roc_auc_score(y, s, **kw)  # the functions take {-1, 1} as they are


@pytest.mark.parametrize(
    "pos_label, y, message",
    [
        (None, ["ham", "spam"], r"^y_true takes value in \{'ham', 'spam'\} and pos_label is not specified"),
        (None, [1, 2], r"^y_true takes value in \{1, 2\} and pos_label is not specified"),
        (1, ["ham", "spam"], r"^pos_label=1 is not a valid label. It should be one of \['ham', 'spam'\]"),
        ("spam", ["ham", "spam", "eggs"], r"^y_true holds 3 labels"),
    ],
)
def test_binary_labels_errors_name_pos_label(pos_label, y, message):
    with pytest.raises(ValueError, match=message):
        tm.Evaluator(["roc_auc"], pos_label=pos_label).update(y, np.linspace(0, 1, len(y)))


def test_pos_label_options():
    with pytest.raises(ValueError, match="pos_label is for binary Evaluators"):
        tm.Evaluator(["roc_auc"], classes=3, pos_label=1)
    with pytest.raises(TypeError, match="pos_label must be text, numbers or booleans"):
        tm.Evaluator(["roc_auc"], pos_label=[1])
    spam = tm.Evaluator(["roc_auc"], pos_label="spam").update(["ham", "spam"], [0.2, 0.9])
    with pytest.raises(ValueError, match="different pos_label"):
        spam.merge(tm.Evaluator(["roc_auc"]))
    for copy_ in (tm.Evaluator.from_bytes(spam.to_bytes()), pickle.loads(pickle.dumps(spam))):
        assert copy_.pos_label == "spam" and copy_.compute() == spam.compute()


def test_negative_weights_reach_the_state_roc_auc():
    # RankingState and so the Evaluator follow roc_auc_score with negative weights (issue 23).
    y, s, w = np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.7, 0.1]), np.array([-1.0, -1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="x is neither increasing nor decreasing"):
        tm.roc_auc_score(y, s, sample_weight=w)
    with pytest.raises(ValueError, match=r"^roc_auc: x is neither increasing nor decreasing"):
        tm.Evaluator(["roc_auc"]).update(y, s, sample_weight=w).compute()
    fine = np.array([-1.0, 1.0, 2.0, 3.0])  # a negative positive weight: the false positive rate increases
    got = tm.Evaluator(["roc_auc"]).update(y, s, sample_weight=fine).compute()["overall"]["roc_auc"]
    assert got == tm.roc_auc_score(y, s, sample_weight=fine)


def _f2(state):
    return state.fbeta(beta=2.0, zero_division=0.0)


def test_options_per_metric_and_user_metrics():
    # As torchmetrics' MetricCollection takes a dict: options per metric (added to the
    # vocabulary's fixed ones) and metrics of the user's own over the Evaluator's states.
    rng = np.random.default_rng(5)
    y, s = rng.integers(0, 2, 500), rng.random(500)
    groups = rng.choice(["a", "b"], 500)
    pred = (s >= 0.5).astype(int)
    metrics = {
        "f1": {"zero_division": 1.0, "pos_label": 0},
        "matthews_corrcoef": None,  # an alias: the result says mcc
        "f2": tm.evaluator.UserMetric("confusion", _f2),
        "auc_at_0.1": tm.evaluator.UserMetric("ranking", lambda state: state.roc_auc(max_fpr=0.1)),
    }
    ev = tm.Evaluator(metrics).update(y, s, groups=groups)
    assert ev.metrics == ("f1", "mcc", "f2", "auc_at_0.1")
    result = ev.compute()
    for values, rows in [(result["overall"], slice(None)), (result["by_group"]["a"], groups == "a")]:
        assert values == {
            "f1": tm.f1_score(y[rows], pred[rows], pos_label=0, zero_division=1.0),
            "mcc": tm.matthews_corrcoef(y[rows], pred[rows]),
            "f2": tm.fbeta_score(y[rows], pred[rows], beta=2.0, zero_division=0.0),
            "auc_at_0.1": tm.roc_auc_score(y[rows], s[rows], max_fpr=0.1),
        }
    multiclass = tm.Evaluator({"f1_macro": {"average": "micro"}}, classes=3)
    p = rng.dirichlet(np.ones(3), 50)
    labels = rng.integers(0, 3, 50)
    got = multiclass.update(labels, p).compute()["overall"]["f1_macro"]
    assert got == tm.f1_score(labels, p.argmax(axis=1), average="micro", labels=[0, 1, 2], zero_division=0.0)


def test_options_and_user_metrics_serialise_and_merge():
    y, s = np.array([0, 1, 1, 0, 1]), np.array([0.1, 0.7, 0.4, 0.6, 0.9])
    ev = tm.Evaluator({"f1": {"zero_division": 1.0}, "roc_auc": {}}).update(y, s)
    back = tm.Evaluator.from_bytes(ev.to_bytes())
    assert back.options == {"f1": {"zero_division": 1.0}} and back.compute() == ev.compute()
    assert pickle.loads(pickle.dumps(ev)).compute() == ev.compute()
    # Bytes without options (every Evaluator before them) read as before.
    assert tm.Evaluator.from_bytes(tm.Evaluator(["f1"]).update(y, s).to_bytes()).options == {}
    with pytest.raises(ValueError, match="different options"):
        ev.merge(tm.Evaluator(["f1", "roc_auc"]))
    user = tm.Evaluator({"f2": tm.evaluator.UserMetric("confusion", _f2)}).update(y, s)
    assert pickle.loads(pickle.dumps(user)).compute() == user.compute()
    with pytest.raises(TypeError, match=r"user-defined metrics \(f2\) has no bytes"):
        user.to_bytes()
    other = tm.Evaluator({"f2": tm.evaluator.UserMetric("confusion", _f2)}).update(y, s)
    assert (user + other).compute()["overall"]["f2"] == tm.fbeta_score(
        np.tile(y, 2), np.tile(s >= 0.5, 2), beta=2.0, zero_division=0.0
    )


@pytest.mark.parametrize(
    ("metrics", "kwargs", "error", "message"),
    [
        ({"f1": {"bogus": 1}}, {}, ValueError, "metric 'f1' has no option 'bogus' (options: pos_label, average, zero"),
        ({"roc_auc_ci": {"method": "bootstrap"}}, {}, ValueError, "metric 'roc_auc_ci' takes no options"),
        ({"best_f1": {"beta": 2}}, {}, ValueError, "metric 'best_f1' takes no options"),
        ({"brier": {"x": 1}}, {}, ValueError, "metric 'brier' takes no options"),
        ({"f1": 3}, {}, TypeError, "metric 'f1': options must be a dict, got int"),
        ({"f1": {"average": object()}}, {}, TypeError, "option 'average' must be a number, text"),
        ({"x": tm.evaluator.UserMetric("class_ranking", len)}, {}, ValueError, "a binary Evaluator has no 'class_r"),
        ({"x": tm.evaluator.UserMetric("ranking", len)}, {"classes": 3}, ValueError, "a multiclass Evaluator has no"),
        ({"nope": {}}, {}, ValueError, "unknown binary metric 'nope'"),
    ],
)
def test_bad_options_and_user_metrics_are_refused(metrics, kwargs, error, message):
    with pytest.raises(error) as raised:
        tm.Evaluator(metrics, **kwargs)
    assert message in str(raised.value)


def test_user_metric_checks_its_arguments():
    with pytest.raises(TypeError, match="function must be callable"):
        tm.evaluator.UserMetric("confusion", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="state must be one of"):
        tm.evaluator.UserMetric("sums", len)
