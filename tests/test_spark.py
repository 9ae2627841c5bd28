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
        .config("spark.sql.shuffle.partitions", "4")
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


# -- packaging ----------------------------------------------------------------------------------
def test_import_turbometrics_never_imports_pyspark():
    code = "import sys, turbometrics, turbometrics.spark; assert 'pyspark' not in sys.modules, 'pyspark imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
