"""turbometrics.dask: every metric over dask collections equals the
in-memory turbometrics function on the same data, computed separately.

Unweighted results (and weights whose sums are exact in any order) are
compared for exact equality (the range plan's AUC and AP with the correctly
rounded exact sum, docs/guide/exactness.md, "Exactness"); weighted ones and calibration errors (float
sums of confidences) at rtol 1e-12. The large tests
run on a real two-process ``LocalCluster``; the property tests use dask's
synchronous scheduler so that hypothesis can try many chunkings quickly.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

import dask  # noqa: E402
from dask.delayed import Delayed  # noqa: E402

import turbometrics as tm  # noqa: E402
import turbometrics.dask as tmd  # noqa: E402
from strategies import binary_problems  # noqa: E402
from turbometrics.states import AP_SCALE  # noqa: E402

# Slow (seconds per test: a two-process dask LocalCluster): `pytest -m "not slow"` leaves it out.
# One pytest-xdist worker runs them all (`--dist loadgroup`), so that one LocalCluster starts.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("dask")]

RTOL = 1e-12
BLOCK = 500_000
N_BLOCKS = 6  # 3 million rows


@pytest.fixture(scope="module")
def client():
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import this test module
    # ":0": the scheduler's HTTP server on a free port (with None it still takes 8787 and, where that is in
    # use, warns, which fails the fixture: another cluster or process on the machine must not matter).
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", worker_dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as connected:
        yield connected
    cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


# -- data generated block by block (on the workers for the lazy arrays) ---------------------
def _block(seed: int, index: int, decimals: int) -> tuple:
    rng = np.random.default_rng([seed, index])
    y = rng.integers(0, 2, BLOCK).astype(np.int8)
    score = np.round(rng.normal(0.6 * y, 1.0), decimals) if decimals >= 0 else rng.normal(0.6 * y, 1.0)
    weight = rng.random(BLOCK)
    return y, score, weight


def _lazy(seed: int, decimals: int) -> tuple:
    """Labels, scores and weights as dask arrays generated on the workers
    (persisted there: generated once for all the tests, and never gathered
    in one process)."""

    def column(which: int, dtype: type):
        def make(block_info=None):
            return _block(seed, block_info[None]["chunk-location"][0], decimals)[which]

        return da.map_blocks(make, chunks=((BLOCK,) * N_BLOCKS,), dtype=dtype, meta=np.empty(0, dtype))

    return tuple(dask.persist(column(0, np.int8), column(1, np.float64), column(2, np.float64)))


def _in_memory(seed: int, decimals: int) -> tuple:
    blocks = [_block(seed, i, decimals) for i in range(N_BLOCKS)]
    return tuple(np.concatenate([b[k] for b in blocks]) for k in range(3))


@pytest.fixture(scope="module")
def distinct_data(client):
    return _lazy(1, -1), _in_memory(1, -1)


@pytest.fixture(scope="module")
def tied_data(client):
    return _lazy(2, 2), _in_memory(2, 2)


def _correctly_rounded(name, y, s):
    """The unweighted AUC or AP as an exact sum rounded once: what the
    range-partitioned plan returns (one RankingState range part)."""
    state = tm.RankingState.from_arrays(y, s)
    positives, negatives = int(state.positive.sum()), int(state.negative.sum())
    if name == "roc_auc_score":
        return int(state.roc_auc_part(0, 0)) / (2 * positives * negatives)
    return max(0.0, int(state.average_precision_part(0, 0, positives)) / 2**AP_SCALE)


# -- the cluster tests --------------------------------------------------------------------------
@pytest.mark.parametrize("partitions", [1, "auto"])
def test_lazy_ranking_scores_equal_in_memory(client, distinct_data, partitions):
    (y, s, w), (y_np, s_np, w_np) = distinct_data
    # One partition: the in-memory bits; range partitions: the correctly
    # rounded exact sum, the in-memory value to rounding (docs/guide/exactness.md, "Exactness").
    exact = partitions == 1
    want_auc = tm.roc_auc_score(y_np, s_np) if exact else _correctly_rounded("roc_auc_score", y_np, s_np)
    want_ap = (
        tm.average_precision_score(y_np, s_np) if exact else _correctly_rounded("average_precision_score", y_np, s_np)
    )
    assert tmd.roc_auc_score(y, s, partitions=partitions) == want_auc
    assert tmd.average_precision_score(y, s, partitions=partitions) == want_ap
    np.testing.assert_allclose(want_ap, tm.average_precision_score(y_np, s_np), rtol=RTOL)
    np.testing.assert_allclose(
        tmd.roc_auc_score(y, s, sample_weight=w, partitions=partitions),
        tm.roc_auc_score(y_np, s_np, sample_weight=w_np),
        rtol=RTOL,
    )
    np.testing.assert_allclose(
        tmd.average_precision_score(y, s, sample_weight=w, partitions=partitions),
        tm.average_precision_score(y_np, s_np, sample_weight=w_np),
        rtol=RTOL,
    )


@pytest.mark.parametrize("partitions", [1, 5])
@pytest.mark.parametrize("drop_intermediate", [False, True])
def test_lazy_curves_equal_in_memory(client, tied_data, partitions, drop_intermediate):
    (y, s, w), (y_np, s_np, w_np) = tied_data
    for name in ("roc_curve", "precision_recall_curve"):
        got = getattr(tmd, name)(y, s, drop_intermediate=drop_intermediate, partitions=partitions)
        want = getattr(tm, name)(y_np, s_np, drop_intermediate=drop_intermediate)
        for a, b in zip(got, want):
            assert a.dtype == b.dtype and np.array_equal(a, b), name
        got = getattr(tmd, name)(y, s, sample_weight=w, drop_intermediate=drop_intermediate, partitions=partitions)
        want = getattr(tm, name)(y_np, s_np, sample_weight=w_np, drop_intermediate=drop_intermediate)
        np.testing.assert_array_equal(got[2], want[2])
        for a, b in zip(got[:2], want[:2]):
            np.testing.assert_allclose(a, b, rtol=RTOL)


def test_lazy_best_threshold_and_split_every(client, tied_data):
    (y, s, _), (y_np, s_np, _) = tied_data
    for metric, partitions in (("f1", 4), ("mcc", 1), ("youden", 7)):
        want = tm.best_threshold(y_np, s_np, metric=metric)
        assert tmd.best_threshold(y, s, metric=metric, partitions=partitions, split_every=2) == want
    want = tm.roc_auc_score(y_np, s_np)
    assert tmd.roc_auc_score(y, s, split_every=2) == want == tmd.roc_auc_score(y, s, split_every=4, partitions=3)


def test_lazy_classification_and_calibration(client, tied_data):
    (y, s, w), (y_np, s_np, w_np) = tied_data
    pred, pred_np = (s > 0.3).astype(np.int8), (s_np > 0.3).astype(np.int8)
    assert np.array_equal(tmd.confusion_matrix(y, pred), tm.confusion_matrix(y_np, pred_np))
    assert tmd.f1_score(y, pred) == tm.f1_score(y_np, pred_np)
    np.testing.assert_allclose(
        tmd.f1_score(y, pred, sample_weight=w), tm.f1_score(y_np, pred_np, sample_weight=w_np), rtol=RTOL
    )
    prob, prob_np = 1 / (1 + np.exp(-s)), 1 / (1 + np.exp(-s_np))
    # per-bin sums of confidence are float sums (exact in the state): rtol
    np.testing.assert_allclose(tmd.calibration_error(y, prob), tm.calibration_error(y_np, prob_np), rtol=RTOL)
    np.testing.assert_allclose(
        tmd.calibration_error(y, prob, sample_weight=w, norm="l2"),
        tm.calibration_error(y_np, prob_np, sample_weight=w_np, norm="l2"),
        rtol=RTOL,
    )


def test_compute_false_returns_a_delayed(client, tied_data):
    (y, s, _), (y_np, s_np, _) = tied_data
    lazy = tmd.roc_auc_score(y, s, compute=False)
    assert isinstance(lazy, Delayed)
    auc, cm = dask.compute(lazy, tmd.confusion_matrix(y, (s > 0).astype(np.int8), compute=False))
    assert auc == tm.roc_auc_score(y_np, s_np)
    assert np.array_equal(cm, tm.confusion_matrix(y_np, (s_np > 0).astype(np.int8)))


def test_dataframe_columns(client):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "y": rng.integers(0, 2, 200_000),
            "score": np.round(rng.random(200_000), 3),
            "pred": rng.integers(0, 3, 200_000),
            "w": rng.random(200_000),
        }
    )
    ddf = dd.from_pandas(frame, npartitions=5)
    assert tmd.roc_auc_score(ddf["y"], ddf["score"]) == tm.roc_auc_score(frame["y"], frame["score"])
    assert tmd.average_precision_score(ddf.y, ddf.score, partitions=1) == tm.average_precision_score(
        frame.y, frame.score
    )
    np.testing.assert_allclose(
        tmd.roc_auc_score(ddf.y, ddf.score, sample_weight=ddf.w),
        tm.roc_auc_score(frame.y, frame.score, sample_weight=frame.w),
        rtol=RTOL,
    )
    assert np.array_equal(tmd.confusion_matrix(ddf.y, ddf.pred), tm.confusion_matrix(frame.y, frame.pred))
    assert tmd.accuracy_score(ddf.y, ddf.pred) == tm.accuracy_score(frame.y, frame.pred)
    # known divisions: partitions realigned (no shuffle)
    other = dd.from_pandas(frame, npartitions=3)
    assert tmd.roc_auc_score(ddf.y, other.score) == tm.roc_auc_score(frame.y, frame.score)


def test_evaluate_equals_the_in_memory_evaluator(client):
    """One Evaluator per partition, shipped as bytes and tree-merged: the in-memory Evaluator's bits."""
    rng = np.random.default_rng(4)
    n = 100_000
    frame = pd.DataFrame(
        {
            "y": rng.integers(0, 2, n),
            "score": np.round(rng.random(n), 3),
            "w": rng.random(n),
            "region": rng.choice(np.array(["north", "south", "east", None], dtype=object), n),
        }
    )
    ddf = dd.from_pandas(frame, npartitions=5)
    metrics = ["roc_auc", "average_precision", "best_f1", "f1", "mcc", "ece", "brier", "log_loss"]
    in_memory = tm.Evaluator(metrics, by="region")
    expected = in_memory.update(frame.y, frame.score, sample_weight=frame.w, groups=frame.region).compute()
    for split_every in (2, None):
        got = tmd.evaluate(
            ddf.y, ddf.score, metrics, sample_weight=ddf.w, groups=ddf.region, by="region", split_every=split_every
        )
        assert list(got["by_group"]) == list(expected["by_group"])
        for values, reference in [(got["overall"], expected["overall"])] + [
            (got["by_group"][key], expected["by_group"][key]) for key in expected["by_group"]
        ]:
            # Weighted: the exact sums (ece, brier, log_loss) are split-invariant; the ranking and
            # confusion states sum float weights per block, so they agree to rounding.
            assert {k: values[k] for k in ("ece", "brier", "log_loss")} == {
                k: reference[k] for k in ("ece", "brier", "log_loss")
            }
            assert values == pytest.approx(reference, rel=RTOL)
    assert list(expected["by_group"]) == ["east", "north", "south"]
    unweighted = tm.Evaluator(by="region").update(frame.y, frame.score, groups=frame.region).compute()
    assert tmd.evaluate(ddf.y, ddf.score, groups=ddf.region, by="region") == unweighted
    assert unweighted["overall"]["roc_auc"] == tm.roc_auc_score(frame.y, frame.score)

    prob = rng.dirichlet(np.ones(3), n)
    y = rng.integers(0, 3, n)
    lazy = tmd.evaluate(
        da.from_array(y, chunks=30_000), da.from_array(prob, chunks=(20_000, 3)), classes=3, compute=False
    )
    assert isinstance(lazy, Delayed)
    assert lazy.compute() == tm.Evaluator(classes=3).update(y, prob).compute()
    with pytest.raises(ValueError, match="unknown binary metric 'nope'"):
        tmd.evaluate(ddf.y, ddf.score, ["nope"])


def test_coco_evaluate_equals_cocoeval(client):
    pytest.importorskip("pycocotools")
    from coco_helpers import both, fixture

    cases = [
        ("instances_val2014_100.json", "instances_val2014_fakebbox100_results.json", "bbox", 4),
        ("instances_val2014_100.json", "instances_val2014_fakesegm100_results.json", "segm", 3),
        ("keypoints_gt.json", "keypoints_dt.json", "keypoints", 5),
    ]
    for gt, dt, iou_type, parts in cases:
        reference, _ = both(fixture(gt), fixture(dt), iou_type)
        result = tmd.coco_evaluate(fixture(gt), fixture(dt), iouType=iou_type, npartitions=parts, split_every=2)
        assert np.array_equal(result.stats, reference.stats), iou_type
        for key in ("precision", "recall", "scores"):
            assert np.array_equal(result.eval[key], reference.eval[key]), (iou_type, key)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            reference.summarize()
        assert result.summary == printed.getvalue(), iou_type


# -- input handling (threaded scheduler, small data) -----------------------------------------------
def test_numpy_input_and_rechunking():
    rng = np.random.default_rng(4)
    y, s = rng.integers(0, 2, 10_000), rng.random(10_000)
    want = tm.roc_auc_score(y, s)
    assert tmd.roc_auc_score(y, s) == want
    assert tmd.roc_auc_score(da.from_array(y, chunks=3000), da.from_array(s, chunks=1700)) == want
    assert tmd.roc_auc_score(da.from_array(y, chunks=3000), s) == want
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        tmd.roc_auc_score(da.from_array(y, chunks=3000), da.from_array(s[:-1], chunks=3000))
    with pytest.raises(ValueError, match="split_every"):
        tmd.roc_auc_score(y, s, split_every=1)
    with pytest.raises(ValueError, match="partitions"):
        tmd.roc_auc_score(y, s, partitions=0)


def test_series_with_unknown_divisions_must_line_up():
    frame = pd.DataFrame({"y": np.arange(100) % 2, "s": np.linspace(0, 1, 100)})
    a = dd.from_pandas(frame, npartitions=4).clear_divisions()
    b = dd.from_pandas(frame, npartitions=3).clear_divisions()
    with pytest.raises(ValueError, match="different numbers of partitions"):
        tmd.roc_auc_score(a.y, b.s)
    with pytest.raises(TypeError, match="dask Series"):
        tmd.roc_auc_score(a.y, da.from_array(frame.s.to_numpy()))


def test_labels_judged_on_the_whole_data():
    # sorted labels: each block holds one class only
    y = np.array(["no"] * 600 + ["yes"] * 400)
    s = np.random.default_rng(5).random(1000)
    y_da, s_da = da.from_array(y, chunks=250), da.from_array(s, chunks=250)
    assert tmd.roc_auc_score(y_da, s_da) == tm.roc_auc_score(y, s)
    assert tmd.average_precision_score(y_da, s_da, pos_label="yes") == tm.average_precision_score(y, s, pos_label="yes")
    with pytest.raises(ValueError) as want:
        tm.roc_curve(y, s)
    with pytest.raises(ValueError) as got:
        tmd.roc_curve(y_da, s_da)
    assert str(got.value) == str(want.value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.isnan(tmd.roc_auc_score(da.from_array(np.zeros(10), chunks=3), np.arange(10.0)))
    assert any("Only one class" in str(w.message) for w in caught)


def test_quantile_calibration_is_refused():
    with pytest.raises(ValueError, match="strategy='uniform'"):
        tmd.calibration_error(np.array([0, 1]), np.array([0.2, 0.7]), strategy="quantile")


def test_importing_turbometrics_does_not_import_dask():
    code = "import sys, turbometrics; sys.exit('dask' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# -- properties: any chunking and any number of ranges equals the in-memory result ------------------
@st.composite
def chunked_problems(draw):
    problem = draw(binary_problems(min_n=1, max_n=60, weights=draw(st.sampled_from(["none", "dyadic", "int"]))))
    n = problem["y_true"].shape[0]
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=5)))
    problem["chunks"] = tuple(np.diff([0] + cuts + [n]).tolist())
    problem["partitions"] = draw(st.sampled_from([1, 2, 3, 7, "auto"]))
    return problem


def _outcome(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return True, function(*args, **kwargs)
        except ValueError as error:
            return False, str(error)


def _values(result):
    items = result if isinstance(result, tuple) else (result,)
    return [np.asarray(item, dtype=float) for item in items]


def _assert_same(got, want, exact):
    """Equal: thresholds and dtypes exactly; values exactly when ``exact``,
    else at rtol 1e-12."""
    if isinstance(want, tuple) and not hasattr(want, "threshold"):
        for a, b in zip(got, want):
            assert a.dtype == b.dtype and a.shape == b.shape, (got, want)
        np.testing.assert_array_equal(got[2], want[2])
    elif hasattr(want, "threshold"):
        assert got.threshold == want.threshold, (got, want)
    for a, b in zip(_values(got), _values(want)):
        if exact:
            assert np.array_equal(a, b, equal_nan=True), (got, want)
        else:
            np.testing.assert_allclose(a, b, rtol=RTOL, equal_nan=True)


@settings(max_examples=40)
@given(
    chunked_problems(),
    st.sampled_from(
        ["roc_auc_score", "average_precision_score", "roc_curve", "precision_recall_curve", "best_threshold"]
    ),
    st.booleans(),
)
def test_any_chunking_and_ranges_equal_in_memory(problem, name, drop_intermediate):
    y, s, w, chunks = problem["y_true"], problem["y_score"], problem["sample_weight"], problem["chunks"]
    kwargs = {}
    if name in ("roc_curve", "precision_recall_curve", "best_threshold") or (
        name == "average_precision_score" and problem["pos_label"] is not None
    ):
        kwargs["pos_label"] = problem["pos_label"]
    if name in ("roc_curve", "precision_recall_curve"):
        kwargs["drop_intermediate"] = drop_intermediate
    ok, want = _outcome(getattr(tm, name), y, s, sample_weight=w, **kwargs)
    assume(ok)
    lazy = [None if a is None else da.from_array(a, chunks=(chunks,)) for a in (y, s, w)]
    with dask.config.set(scheduler="sync"):
        ok, got = _outcome(
            getattr(tmd, name), lazy[0], lazy[1], sample_weight=lazy[2], partitions=problem["partitions"], **kwargs
        )
    assert ok, got
    if name in ("roc_auc_score", "average_precision_score") and problem["partitions"] != 1:
        _assert_same(got, want, exact=False)  # range parts: the correctly rounded sum (docs/guide/exactness.md)
        return
    _assert_same(got, want, exact=w is None)


def test_signatures_are_built_from_the_in_memory_functions():
    # The registry says which metrics dask computes; each takes the in-memory function's
    # parameters with its defaults, then dask's own, and refuses what that function refuses.
    import inspect

    from turbometrics._registry import FUNCTIONS
    from turbometrics.dask._signature import EXTRAS, mirroring

    names = [metric.name for metric in FUNCTIONS if metric.dask]
    assert sorted(tmd.__all__) == sorted([*names, "CocoEvaluation", "coco_evaluate", "evaluate", "segmentation_state"])
    for name in names:
        in_memory = list(inspect.signature(getattr(tm, name)).parameters.values())
        params = list(inspect.signature(getattr(tmd, name)).parameters.values())
        assert [(p.name, p.kind, p.annotation) for p in params[: len(in_memory)]] == [
            (p.name, p.kind, p.annotation) for p in in_memory
        ], name
        assert all(a.default is b.default for a, b in zip(params, in_memory)), name  # the same objects (NaN too)
        assert all(p == EXTRAS[p.name] for p in params[len(in_memory) :]), name
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_fpr'"):
        tmd.f1_score([0, 1], [0, 1], max_fpr=0.5)
    with pytest.raises(TypeError, match=r"turbometrics.dask.roc_curve takes \['y_true'"):
        mirroring("roc_curve", "compute")(lambda y_true, y_score: None)


def test_evaluate_takes_the_evaluators_parameters(client):
    import inspect

    from turbometrics.evaluator import option_parameters

    names = list(inspect.signature(tmd.evaluate).parameters)
    assert names[:3] == ["y_true", "y_score", "metrics"]
    assert names[5:-2] == [parameter.name for parameter in option_parameters()[1:]]
    y, s = np.array([1, 2, 2, 1, 2]), np.array([0.3, 0.8, 0.4, 0.6, 0.9])
    got = tmd.evaluate(da.from_array(y, chunks=2), da.from_array(s, chunks=2), ["f1"], pos_label=2)
    assert got == tm.Evaluator(["f1"], pos_label=2).update(y, s).compute()
    with pytest.raises(TypeError, match="hold no user-defined metrics"):
        tmd.evaluate(y, s, {"x": tm.evaluator.UserMetric("confusion", len)})
