"""turbometrics.spark on a real local Spark session (``local[2]``): results
equal the in-memory turbometrics functions (and ``COCOeval`` for
``coco_evaluate``) bit for bit, whatever the partitioning.

One session serves the whole module (starting one takes seconds). Skipped
without pyspark; the tests that run Spark are skipped without a Java
runtime (pyspark 4 needs Java 17+; ``.ci/run`` installs one).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import turbometrics.spark as tms

# Slow (seconds per test: a local Spark session): `pytest -m "not slow"` leaves it out.
# One pytest-xdist worker runs them all (`--dist loadgroup`), so that one Spark session starts.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]

pytest.importorskip("pyspark", reason="turbometrics.spark's tests need pyspark (pip install 'turbometrics[spark]')")
pytest.importorskip("pyarrow", reason="pyspark's mapInArrow needs pyarrow")


def _has_java() -> bool:
    java_home = os.environ.get("JAVA_HOME")
    return shutil.which("java") is not None or (java_home is not None and (Path(java_home) / "bin" / "java").exists())


@pytest.fixture(scope="module")
def spark():
    if not _has_java():
        pytest.skip("a local Spark session needs a Java 17+ runtime (apt-get install openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession

    # The executors' Python is this one (it has turbometrics), not the first python3 on PATH.
    previous = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("turbometrics-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        # the JIT's first tier only and one GC thread: these short jobs take
        # about 15 % less CPU (64 s instead of 76 for this module), the same time
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    if previous is None:
        del os.environ["PYSPARK_PYTHON"]
    else:
        os.environ["PYSPARK_PYTHON"] = previous


# -- COCO ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("gt", "dt", "iou_type", "parts"),
    [
        ("instances_val2014_100.json", "instances_val2014_fakebbox100_results.json", "bbox", 1),
        ("instances_val2014_100.json", "instances_val2014_fakebbox100_results.json", "bbox", 7),
        ("instances_val2014_100.json", "instances_val2014_fakesegm100_results.json", "segm", 3),
        ("keypoints_gt.json", "keypoints_dt.json", "keypoints", 5),
    ],
)
def test_coco_evaluate_equals_cocoeval(spark, gt, dt, iou_type, parts):
    pytest.importorskip("pycocotools")
    import contextlib
    import io

    from coco_helpers import both, fixture

    reference, _ = both(fixture(gt), fixture(dt), iou_type)
    result = tms.coco_evaluate(fixture(gt), fixture(dt), iouType=iou_type, npartitions=parts, spark=spark)
    assert np.array_equal(result.stats, reference.stats)
    assert list(result.stats) == list(reference.stats)
    for key in ("precision", "recall", "scores"):
        assert result.eval[key].dtype == reference.eval[key].dtype
        assert np.array_equal(result.eval[key], reference.eval[key]), key
    assert result.eval["counts"] == reference.eval["counts"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        reference.summarize()
    assert result.summary == printed.getvalue()


def test_coco_evaluate_refuses_bad_npartitions(spark):
    from coco_helpers import fixture

    gt = fixture("keypoints_gt.json")
    with pytest.raises(ValueError, match="npartitions must be a positive int or None, got 0"):
        tms.coco_evaluate(gt, fixture("keypoints_dt.json"), iouType="keypoints", npartitions=0, spark=spark)


# -- evaluate -----------------------------------------------------------------------------------
BINARY = ["roc_auc", "average_precision", "best_f1", "accuracy", "balanced_accuracy", "precision", "recall", "f1"]
BINARY += ["mcc", "ece", "brier", "log_loss"]
MULTICLASS = ["roc_auc", "accuracy", "balanced_accuracy", "f1_macro", "f1_weighted", "mcc", "ece", "brier", "log_loss"]
GROUPS = np.array(["north", "south", "east", "west"], dtype=object)


def _binary_columns(n: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(np.int8)
    return {
        "label": y,
        "score": np.clip(np.round(rng.normal(0.35 + 0.3 * y, 0.2), 3), 0.0, 1.0),  # ties
        "w": rng.integers(1, 5, n) * 0.25,  # sums exact in any order: the Evaluator is bit for bit
        "w_float": rng.random(n) + 0.1,  # float sums: ranking and confusion metrics to rounding
        "region": GROUPS[rng.integers(0, len(GROUPS), n)],
    }


def _multiclass_columns(n: int, seed: int, k: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return {
        "y": y,
        **{f"p{c}": p[:, c] for c in range(k)},
        "w": rng.integers(1, 4, n).astype(np.float64),
        "region": GROUPS[rng.integers(0, len(GROUPS), n)],
    }


def _frame(spark, tmp_path: Path, columns: dict[str, np.ndarray]):
    """The columns as a Spark DataFrame, through a Parquet file written by pyarrow (exact values)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "frame.parquet"
    pq.write_table(pa.table(columns), path)
    return spark.read.parquet(str(path))


def _partitionings(frame):
    from pyspark.sql import functions

    return {
        "1": frame.repartition(1),
        "3": frame.repartition(3),
        "7": frame.repartition(7),
        "random": frame.repartition(5, functions.rand(seed=11)),
    }


def _in_memory(metrics, y, score, weight=None, groups=None, **options):
    """One Evaluator updated with all the rows at once."""
    import turbometrics as tm

    by = None if groups is None else "region"
    return tm.Evaluator(metrics, by=by, **options).update(y, score, sample_weight=weight, groups=groups).compute()


def _assert_same(got, want, where=""):
    """Equal dicts: the same keys and values, floats bit for bit (NaN equal to NaN)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), where
        for key in want:
            _assert_same(got[key], want[key], f"{where}[{key!r}]")
    elif isinstance(want, float):
        assert type(got) is float and (got == want or (np.isnan(got) and np.isnan(want))), (where, got, want)
    else:
        assert got == want, (where, got, want)


def test_evaluate_binary_equals_in_memory(spark, tmp_path):
    import turbometrics as tm

    columns = _binary_columns(20_000, 0)
    y, score, w, region = columns["label"], columns["score"], columns["w"], columns["region"]
    want = _in_memory(BINARY, y, score, w, region)
    unweighted = _in_memory(BINARY, y, score)
    float_weighted = _in_memory(BINARY, y, score, columns["w_float"])["overall"]
    for name, frame in _partitionings(_frame(spark, tmp_path, columns)).items():
        _assert_same(tms.evaluate(frame, BINARY, weight="w", group="region"), want, name)
        _assert_same(tms.evaluate(frame, BINARY), unweighted, name)
        got = tms.evaluate(frame, BINARY, weight="w_float")["overall"]
        assert [got[m] for m in ("ece", "brier", "log_loss")] == [
            float_weighted[m] for m in ("ece", "brier", "log_loss")
        ]
        np.testing.assert_allclose([got[m] for m in got], [float_weighted[m] for m in got], rtol=1e-12, err_msg=name)
    # the in-memory functions: unweighted ranking and confusion metrics bit for bit, weighted to rounding
    overall = unweighted["overall"]
    assert overall["roc_auc"] == tm.roc_auc_score(y, score)
    assert overall["average_precision"] == tm.average_precision_score(y, score)
    assert overall["f1"] == tm.f1_score(y, score >= 0.5)
    assert overall["accuracy"] == tm.accuracy_score(y, score >= 0.5)
    assert overall["mcc"] == tm.matthews_corrcoef(y, score >= 0.5)
    for group in GROUPS:
        mine = region == group
        got = want["by_group"][group]
        expected = [
            tm.roc_auc_score(y[mine], score[mine], sample_weight=w[mine]),
            tm.average_precision_score(y[mine], score[mine], sample_weight=w[mine]),
            tm.matthews_corrcoef(y[mine], score[mine] >= 0.5, sample_weight=w[mine]),
        ]
        np.testing.assert_allclose([got["roc_auc"], got["average_precision"], got["mcc"]], expected, rtol=1e-12)


def test_evaluate_multiclass_equals_in_memory(spark, tmp_path):
    import turbometrics as tm

    columns = _multiclass_columns(6_000, 1)
    y, w, region = columns["y"], columns["w"], columns["region"]
    probabilities = np.column_stack([columns["p0"], columns["p1"], columns["p2"]])
    want = _in_memory(MULTICLASS, y, probabilities, w, region, classes=3)
    unweighted = _in_memory(MULTICLASS, y, probabilities, classes=3)
    frame = _frame(spark, tmp_path, columns)
    for name, partitioned in _partitionings(frame).items():
        got = tms.evaluate(partitioned, MULTICLASS, label="y", score=["p0", "p1", "p2"], weight="w", group="region")
        _assert_same(got, want, name)
        _assert_same(tms.evaluate(partitioned, MULTICLASS, label="y", score=["p0", "p1", "p2"]), unweighted, name)
    overall = unweighted["overall"]
    assert overall["accuracy"] == tm.accuracy_score(y, probabilities.argmax(axis=1))
    assert overall["f1_macro"] == tm.f1_score(y, probabilities.argmax(axis=1), average="macro")
    assert overall["roc_auc"] == tm.roc_auc_score(y, probabilities, multi_class="ovr")


def test_evaluate_labels_by_name_and_null_groups(spark, tmp_path):
    """String class labels (classes=[...]), and an integer group column
    with nulls: those rows count overall only, as in the Evaluator."""
    columns = _multiclass_columns(3_000, 5)
    names = np.array(["cat", "dog", "emu"], dtype=object)
    columns["y"] = names[columns["y"]]
    rng = np.random.default_rng(6)
    shop = rng.integers(0, 3, len(columns["y"])).astype(object)
    shop[rng.random(len(shop)) < 0.1] = None
    columns["region"] = shop
    probabilities = np.column_stack([columns["p0"], columns["p1"], columns["p2"]])
    want = _in_memory(
        ["accuracy", "f1_macro", "log_loss"], columns["y"], probabilities, None, shop, classes=list(names)
    )
    import pyarrow as pa

    columns["region"] = pa.array(shop.tolist(), type=pa.int32())
    got = tms.evaluate(
        _frame(spark, tmp_path, columns).repartition(4),
        ["accuracy", "f1_macro", "log_loss"],
        label="y",
        score=["p0", "p1", "p2"],
        group="region",
        classes=list(names),
    )
    _assert_same(got, want)
    assert [(type(key), key) for key in got["by_group"]] == [(int, 0), (int, 1), (int, 2)]


def test_evaluate_parquet_dataset_partitioned_by_group(spark, tmp_path):
    """1e7 rows written by pyarrow as a dataset partitioned by group (hive
    directories, several files each), read by Spark; equal to the in-memory
    functions on the same arrays read back by pyarrow."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    import turbometrics as tm

    n = 10_000_000
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, n).astype(np.int8)
    table = pa.table(
        {
            "label": y,
            "score": np.round(rng.normal(0.4 * y, 1.0), 4),
            "segment": np.array(["a", "b", "c"], dtype=object)[rng.integers(0, 3, n)],
        }
    )
    root = tmp_path / "predictions"
    ds.write_dataset(
        table,
        root,
        format="parquet",
        partitioning=["segment"],
        partitioning_flavor="hive",
        max_rows_per_file=1_000_000,
        max_rows_per_group=1_000_000,
    )
    del table
    assert len(list(root.rglob("*.parquet"))) >= 10
    metrics = ["roc_auc", "average_precision", "accuracy", "f1"]
    spark.conf.set("spark.sql.files.maxPartitionBytes", "8m")  # a dozen partitions, not 2
    try:
        frame = spark.read.parquet(str(root))
        assert frame.rdd.getNumPartitions() >= 6
        got = tms.evaluate(frame, metrics, group="segment")
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    back = ds.dataset(root, format="parquet", partitioning="hive").to_table()
    y, score = back["label"].to_numpy(), back["score"].to_numpy()
    segment = back["segment"].to_numpy(zero_copy_only=False)
    assert len(y) == n
    assert got["overall"]["roc_auc"] == tm.roc_auc_score(y, score)
    assert got["overall"]["average_precision"] == tm.average_precision_score(y, score)
    assert got["overall"]["f1"] == tm.f1_score(y, score >= 0.5)
    for group in ("a", "b", "c"):
        mine = segment == group
        assert got["by_group"][group]["roc_auc"] == tm.roc_auc_score(y[mine], score[mine])
        assert got["by_group"][group]["average_precision"] == tm.average_precision_score(y[mine], score[mine])
        assert got["by_group"][group]["accuracy"] == tm.accuracy_score(y[mine], score[mine] >= 0.5)


# -- bad input ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_frame(spark, tmp_path_factory):
    columns = _binary_columns(200, 3)
    columns["text"] = columns["region"]
    columns["flag"] = columns["label"].astype(bool)
    return _frame(spark, tmp_path_factory.mktemp("small"), columns)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"label": "y"}, ValueError, r"label: no column 'y' in the DataFrame \(columns: label, score, w, w_float, "),
        ({"score": ["p0", "p1"]}, ValueError, r"score: no column 'p0'"),
        ({"weight": "weights"}, ValueError, r"weight: no column 'weights'"),
        ({"group": "segment"}, ValueError, r"group: no column 'segment'"),
        ({"score": "text"}, TypeError, r"score: column 'text' is string; a score column must be one of"),
        ({"weight": "region"}, TypeError, r"weight: column 'region' is string"),
        ({"score": ["score"]}, TypeError, r"score must be a column name \(binary\) or a list of two or more"),
        ({"score": 3}, TypeError, r"score must be a column name"),
        ({"label": 3}, TypeError, r"label must name columns as str, got 3"),
    ],
)
def test_evaluate_refuses_bad_columns(small_frame, kwargs, error, match):
    with pytest.raises(error, match=match):
        tms.evaluate(small_frame, ["roc_auc"], **kwargs)


def test_evaluate_refuses_bad_values_with_the_evaluators_errors(spark, tmp_path):
    import turbometrics as tm

    columns = _binary_columns(100, 4)
    columns["score"][17] = np.nan
    with pytest.raises(ValueError) as expected:
        tm.Evaluator(["roc_auc"]).update(columns["label"], columns["score"])
    with pytest.raises(ValueError) as raised:
        tms.evaluate(_frame(spark, tmp_path, columns).repartition(3), ["roc_auc"])
    assert str(raised.value) == str(expected.value)


@pytest.mark.parametrize("names", [("a.b", "s.c", "g.x"), ("a`b", "`s`", "g``")])
def test_evaluate_takes_dotted_and_backticked_names_literally(spark, tmp_path, names):
    """Names with dots or backticks were looked up by Spark inside
    ``mapInArrow`` (AnalysisException); they are the columns so named."""
    columns = _binary_columns(300, 5)
    label, score, group = names
    frame = _frame(spark, tmp_path, {label: columns["label"], score: columns["score"], group: columns["region"]})
    got = tms.evaluate(frame.repartition(3), ["roc_auc", "accuracy"], label=label, score=score, group=group)
    want = _in_memory(["roc_auc", "accuracy"], columns["label"], columns["score"], groups=columns["region"])
    _assert_same(got, want)


def test_evaluate_names_that_differ_only_in_case(spark):
    """``score`` and ``SCORE`` in one DataFrame: Spark (case-insensitive by
    default) tells them apart by position only; the documented ValueError,
    not Spark's AMBIGUOUS_REFERENCE. A case-sensitive session reads each."""
    columns = _binary_columns(100, 6)
    rows = zip(columns["label"].tolist(), columns["score"].tolist(), (1 - columns["score"]).tolist())
    frame = spark.createDataFrame(list(rows), ["label", "score", "SCORE"])
    with pytest.raises(ValueError, match=r"score: the DataFrame has columns 'score', 'SCORE', which Spark does not"):
        tms.evaluate(frame, ["roc_auc"])
    spark.conf.set("spark.sql.caseSensitive", "true")
    try:
        for name, values in (("score", columns["score"]), ("SCORE", 1 - columns["score"])):
            got = tms.evaluate(frame, ["roc_auc"], score=name)
            _assert_same(got, _in_memory(["roc_auc"], columns["label"], values))
    finally:
        spark.conf.unset("spark.sql.caseSensitive")


def test_evaluate_silences_pysparks_pandas_warning_only(small_frame):
    """pyspark's "does not yet fully support pandas >= 3.0.0" FutureWarning
    is silenced inside turbometrics.spark, and only there."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tms.evaluate(small_frame, ["roc_auc"])
    assert not [w for w in caught if "fully support pandas" in str(w.message)]
    # no filter is left behind (pytest's own configuration has one for pyspark's modules)
    before = list(warnings.filters)
    tms.evaluate(small_frame, ["roc_auc"])
    assert warnings.filters == before


def test_evaluate_refuses_what_is_not_a_spark_dataframe():
    columns = _binary_columns(10, 0)
    with pytest.raises(TypeError, match=r"df must be a pyspark\.sql\.DataFrame, got dict"):
        tms.evaluate(columns, ["roc_auc"])


def test_evaluate_empty_dataframe_raises_as_the_evaluator(spark):
    import turbometrics as tm

    with pytest.raises(ValueError) as expected:
        tm.Evaluator(["roc_auc"]).compute()
    frame = spark.createDataFrame([], "label int, score double").repartition(2)
    with pytest.raises(ValueError) as raised:
        tms.evaluate(frame, ["roc_auc"])
    assert str(raised.value) == str(expected.value)


def test_evaluate_refuses_nulls(spark):
    frame = spark.createDataFrame([(1, 0.5), (0, None), (1, 0.7)], "label int, score double")
    with pytest.raises(ValueError, match=r"column 'score' holds missing values \(null\)"):
        tms.evaluate(frame, ["roc_auc"])


def test_evaluate_refuses_unknown_metric_before_running(small_frame):
    import turbometrics as tm

    with pytest.raises(ValueError) as expected:
        tm.Evaluator(["roc_auc", "nope"])
    with pytest.raises(ValueError) as raised:
        tms.evaluate(small_frame, ["roc_auc", "nope"])
    assert str(raised.value) == str(expected.value)


# -- packaging ----------------------------------------------------------------------------------
def test_import_turbometrics_never_imports_pyspark():
    code = "import sys, turbometrics, turbometrics.spark; assert 'pyspark' not in sys.modules, 'pyspark imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_evaluate_takes_the_evaluators_parameters(small_frame):
    # The signature is built from the Evaluator's (by is the group column), so options per
    # metric and pos_label reach the executors' Evaluators; user metrics cannot travel as bytes.
    import inspect

    from turbometrics.evaluator import UserMetric, option_parameters

    names = list(inspect.signature(tms.evaluate).parameters)
    assert names == ["df", "metrics", "label", "score", "weight", "group"] + [
        parameter.name for parameter in option_parameters()[1:] if parameter.name != "by"
    ]
    overall = tms.evaluate(small_frame, {"f1": {"zero_division": 1.0}}, pos_label=0)["overall"]
    import turbometrics as tm

    rows = small_frame.select("label", "score").collect()
    labels, scores = np.array([row[0] for row in rows]), np.array([row[1] for row in rows])
    expected = tm.Evaluator({"f1": {"zero_division": 1.0}}, pos_label=0).update(labels, scores)
    assert overall == expected.compute()["overall"]
    with pytest.raises(TypeError, match="hold no user-defined metrics"):
        tms.evaluate(small_frame, {"x": UserMetric("confusion", len)})


# -- segmentation_evaluate ----------------------------------------------------------------------
def _map_bytes(values: np.ndarray, png: bool) -> bytes:
    """A label map as the bytes of a PNG (8-bit grayscale) or .npy file."""
    import io

    buffer = io.BytesIO()
    if png:
        from PIL import Image

        Image.fromarray(values.astype(np.uint8), mode="L").save(buffer, format="PNG")
    else:
        np.save(buffer, values)
    return buffer.getvalue()


def test_segmentation_evaluate_equals_the_functions(spark):
    # Rows of PNG and .npy maps of several sizes, per group (one null), over 3 and random
    # partitions: dataset values bit for bit those of the functions on all the pixels; per-image
    # averages those of one in-memory SegmentationEvaluator to rounding (the images' order differs).
    pytest.importorskip("PIL")
    from pyspark.sql import functions

    import turbometrics as tm

    rng = np.random.default_rng(5)
    shapes = [(5, 7), (6, 4), (3, 9)]
    truths = [rng.integers(0, 4, shapes[i % 3]).astype(np.uint8) for i in range(12)]
    predictions = [np.where(rng.random(t.shape) < 0.7, t, rng.integers(0, 4, t.shape)).astype(np.uint8) for t in truths]
    for t in truths[::4]:
        t[0, :2] = 255  # ignored
    sites = ["a", "b", None, "a", "b", "b", "a", None, "b", "a", "a", "b"]
    rows = [
        (_map_bytes(t, i % 2 == 0), _map_bytes(p, i % 3 == 0), s)
        for i, (t, p, s) in enumerate(zip(truths, predictions, sites))
    ]
    frame = spark.createDataFrame(rows, "label binary, prediction binary, site string")
    metrics = {"iou": None, "dice": {"average": None}, "pixel_accuracy": None, "recall": {"aggregate": "image"}}
    maps = dict(num_classes=4, ignore_index=255)
    in_memory = tm.SegmentationEvaluator(metrics, **maps)
    for t, p, s in zip(truths, predictions, sites):
        in_memory.update(t[None], p[None], groups=[s])
    expected = in_memory.compute()
    flat = np.concatenate([t.ravel() for t in truths]), np.concatenate([p.ravel() for p in predictions])
    assert expected["overall"]["iou"] == tm.segmentation.iou(*flat, **maps)
    for parts in (frame.repartition(3), frame.repartition(5, functions.rand(seed=2))):
        got = tms.segmentation_evaluate(parts, metrics, group="site", **maps)
        assert list(got["by_group"]) == ["a", "b"]
        for where in ("overall", "a", "b"):
            mine = got["overall"] if where == "overall" else got["by_group"][where]
            theirs = expected["overall"] if where == "overall" else expected["by_group"][where]
            for name in ("iou", "dice", "pixel_accuracy"):
                _assert_same(mine[name], theirs[name], f"{where} {name}")
            assert mine["recall"] == pytest.approx(theirs["recall"], rel=1e-14)


def test_segmentation_evaluate_refuses_bad_input(spark):
    pytest.importorskip("PIL")
    import io

    from PIL import Image

    y = np.zeros((3, 3), np.uint8)
    bad = y.copy()
    bad[1, 2] = 9
    color = io.BytesIO()
    Image.new("RGB", (2, 2)).save(color, format="PNG")

    def frame(label, prediction):
        return spark.createDataFrame([(label, prediction)], "label binary, prediction binary")

    with pytest.raises(ValueError, match="9"):
        tms.segmentation_evaluate(frame(_map_bytes(bad, False), _map_bytes(y, True)), num_classes=3)
    with pytest.raises(ValueError, match="column 'prediction': a PNG of mode RGB"):
        tms.segmentation_evaluate(frame(_map_bytes(y, False), color.getvalue()), num_classes=3)
    with pytest.raises(ValueError, match="different shapes"):
        tms.segmentation_evaluate(frame(_map_bytes(y, False), _map_bytes(y[:2], False)), num_classes=3)
    text = spark.createDataFrame([("a", "b")], "label string, prediction string")
    with pytest.raises(TypeError, match="column 'label' is string; a map column must be one of binary"):
        tms.segmentation_evaluate(text, num_classes=3)
    with pytest.raises(ValueError, match="unknown segmentation metric 'auc'"):
        tms.segmentation_evaluate(frame(b"", b""), ["auc"], num_classes=3)
