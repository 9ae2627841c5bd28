"""More than 2**31 samples (64-bit indexing and counts).

Skipped unless TURBOMETRICS_TEST_HUGE=1: it needs several GiB of RAM (the
inputs alone are 2 x 2 GiB) and minutes of CPU.  scikit-learn cannot be run
at this size here, so the expected values are computed exactly from per-score
class counts (uint8 scores have at most 256 distinct values).

TURBOMETRICS_TEST_HUGE_N overrides the size (e.g. 1000000 to check the test
logic itself quickly).
"""

import math
import os
from fractions import Fraction

import numpy as np
import pytest

import turbometrics as tm

pytestmark = pytest.mark.skipif(
    os.environ.get("TURBOMETRICS_TEST_HUGE") != "1", reason="set TURBOMETRICS_TEST_HUGE=1 (needs lots of RAM)"
)

N = int(os.environ.get("TURBOMETRICS_TEST_HUGE_N", 2**31 + 4099))
CHUNK = 1 << 26


@pytest.fixture(scope="module")
def huge():
    rng = np.random.default_rng(12345)
    y = np.empty(N, dtype=bool)
    s = np.empty(N, dtype=np.uint8)
    pos = np.zeros(256, dtype=np.int64)
    neg = np.zeros(256, dtype=np.int64)
    for start in range(0, N, CHUNK):
        stop = min(N, start + CHUNK)
        sc = rng.integers(0, 200, stop - start, dtype=np.uint8)  # values 200..255 absent
        yc = rng.random(stop - start) < (0.1 + sc / 400.0)
        s[start:stop] = sc
        y[start:stop] = yc
        pos += np.bincount(sc[yc], minlength=256)
        neg += np.bincount(sc[~yc], minlength=256)
    return y, s, pos, neg


def _expected(pos, neg):
    present = [v for v in range(255, -1, -1) if pos[v] + neg[v] > 0]  # descending scores
    P, Nn = int(pos.sum()), int(neg.sum())
    tps, fps = [], []
    tp = fp = 0
    auc_num = Fraction(0)
    for v in present:
        auc_num += int(neg[v]) * (Fraction(tp) + Fraction(int(pos[v]), 2))
        tp += int(pos[v])
        fp += int(neg[v])
        tps.append(tp)
        fps.append(fp)
    auc = float(auc_num / (P * Nn))
    ap = 0.0
    prev_recall = 0.0
    for tp_i, fp_i in zip(tps, fps):
        recall = tp_i / P
        ap += (recall - prev_recall) * (tp_i / (tp_i + fp_i))
        prev_recall = recall
    return present, np.array(tps, dtype=np.float64), np.array(fps, dtype=np.float64), auc, ap, P, Nn


def test_huge_roc_auc(huge):
    y, s, pos, neg = huge
    _, _, _, auc, _, _, _ = _expected(pos, neg)
    got = tm.roc_auc_score(y, s, n_threads=2)
    assert math.isclose(got, auc, rel_tol=1e-9), (got, auc)


def test_huge_average_precision(huge):
    y, s, pos, neg = huge
    _, _, _, _, ap, _, _ = _expected(pos, neg)
    got = tm.average_precision_score(y, s, n_threads=2)
    assert math.isclose(got, ap, rel_tol=1e-9), (got, ap)


def test_huge_roc_curve(huge):
    y, s, pos, neg = huge
    present, tps, fps, _, _, P, Nn = _expected(pos, neg)
    fpr, tpr, thr = tm.roc_curve(y, s, drop_intermediate=False, n_threads=2)
    np.testing.assert_array_equal(thr, np.r_[np.inf, np.array(present, dtype=np.float64)])
    np.testing.assert_allclose(fpr, np.r_[0.0, fps] / Nn, rtol=1e-12, atol=0)
    np.testing.assert_allclose(tpr, np.r_[0.0, tps] / P, rtol=1e-12, atol=0)


def test_huge_confusion_matrix_counts_exact(huge):
    y, s, pos, neg = huge
    present, tps, fps, _, _, P, Nn = _expected(pos, neg)
    tns, fps_got, fns, tps_got, thr = tm.confusion_matrix_at_thresholds(y, s, n_threads=2)
    assert thr.dtype == np.uint8
    np.testing.assert_array_equal(thr, np.array(present, dtype=np.uint8))
    np.testing.assert_array_equal(tps_got, tps)
    np.testing.assert_array_equal(fps_got, fps)
    assert tps_got[-1] + fps_got[-1] == N
    np.testing.assert_array_equal(tns, Nn - fps)
    np.testing.assert_array_equal(fns, P - tps)
