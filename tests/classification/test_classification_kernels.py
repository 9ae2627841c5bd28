"""The label-encoding and confusion-table kernels: label sets equal to
np.unique for every dtype and range, parallel inputs (above the serial
cutoff) equal to scikit-learn, and bit-identical results for every thread
count."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

import turbometrics as tm
from turbometrics import _core

N_LARGE = 200_003  # above the serial cutoff, not a multiple of the chunk count


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float32, np.float64]
)
@pytest.mark.parametrize("spread", ["small", "wide"])
def test_label_values_match_unique(dtype, spread):
    rng = np.random.default_rng(0)
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    if spread == "small" or info is None:
        low = 0 if info is None or info.min == 0 else -3
        values = rng.integers(low, 40, size=5000).astype(dtype)
    else:
        pool = np.asarray([info.min, info.min + 1, 0, 7, info.max - 1, info.max], dtype=dtype)
        values = pool[rng.integers(0, pool.shape[0], size=5000)]
    for threads in (1, 2):
        got = _core.classification.label_values(values, threads)
        expected = np.unique(values)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    strided = values[::3]
    np.testing.assert_array_equal(_core.classification.label_values(strided, 2), np.unique(strided))


def _large_labels(kind: str, rng: np.random.Generator):
    codes_true = rng.integers(0, 7, size=N_LARGE)
    noise = rng.integers(0, 7, size=N_LARGE)
    codes_pred = np.where(rng.random(N_LARGE) < 0.7, codes_true, noise)
    if kind == "int":
        return codes_true, codes_pred
    if kind == "wide":
        table = np.asarray([-(10**15), -9, 0, 5, 2**40, 2**50, 10**17])
        return table[codes_true], table[codes_pred]
    if kind == "str":
        names = np.asarray(["a", "bb", "c", "dd", "e", "ff", "g"])
        return names[codes_true], names[codes_pred]
    if kind == "binary":
        return codes_true % 2, codes_pred % 2
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["int", "wide", "str", "binary"])
def test_large_inputs_match_sklearn_and_every_thread_count(kind):
    rng = np.random.default_rng(1)
    y_true, y_pred = _large_labels(kind, rng)
    weight = rng.random(N_LARGE)
    expected = skm.confusion_matrix(y_true, y_pred, sample_weight=weight)
    results = [tm.confusion_matrix(y_true, y_pred, sample_weight=weight, n_threads=t) for t in (1, 2, 3)]
    np.testing.assert_allclose(results[0], expected, rtol=1e-12)
    for other in results[1:]:
        assert np.array_equal(other, results[0])  # bit-identical
    np.testing.assert_array_equal(
        tm.confusion_matrix(y_true, y_pred, n_threads=2), skm.confusion_matrix(y_true, y_pred)
    )
    average = "binary" if kind == "binary" else "macro"
    assert tm.f1_score(y_true, y_pred, average=average, n_threads=2) == pytest.approx(
        skm.f1_score(y_true, y_pred, average=average), rel=1e-12
    )
    assert tm.cohen_kappa_score(y_true, y_pred, weights="quadratic", n_threads=2) == pytest.approx(
        skm.cohen_kappa_score(y_true, y_pred, weights="quadratic"), rel=1e-12
    )
    accuracies = {tm.accuracy_score(y_true, y_pred, sample_weight=weight, n_threads=t) for t in (1, 2, 3)}
    assert len(accuracies) == 1  # bit-identical
    assert accuracies.pop() == pytest.approx(skm.accuracy_score(y_true, y_pred, sample_weight=weight), rel=1e-12)
    assert tm.accuracy_score(y_true, y_pred, normalize=False) == skm.accuracy_score(y_true, y_pred, normalize=False)


def test_large_multilabel_every_thread_count():
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 2, size=(N_LARGE, 5))
    y_pred = np.where(rng.random((N_LARGE, 5)) < 0.8, y_true, 1 - y_true)
    weight = rng.random(N_LARGE)
    expected = skm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight)
    one = tm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight, n_threads=1)
    two = tm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight, n_threads=2)
    np.testing.assert_allclose(one, expected, rtol=1e-10)
    assert np.array_equal(one, two)
    np.testing.assert_array_equal(
        tm.multilabel_confusion_matrix(y_true, y_pred, n_threads=2), skm.multilabel_confusion_matrix(y_true, y_pred)
    )


def test_many_labels():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 3000, size=20_000)
    y_pred = np.where(rng.random(20_000) < 0.5, y_true, rng.integers(0, 3000, size=20_000))
    np.testing.assert_array_equal(
        tm.confusion_matrix(y_true, y_pred, n_threads=2), skm.confusion_matrix(y_true, y_pred)
    )
    got = tm.precision_recall_fscore_support(y_true, y_pred, average=None, zero_division=0)
    expected = skm.precision_recall_fscore_support(y_true, y_pred, average=None, zero_division=0)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_non_contiguous_and_big_endian():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, size=(1000, 2))
    y_true, y_pred = y[:, 0], y[:, 1]  # strided views
    np.testing.assert_array_equal(tm.confusion_matrix(y_true, y_pred), skm.confusion_matrix(y_true, y_pred))
    big = y_true.astype(">i4")
    np.testing.assert_array_equal(tm.confusion_matrix(big, y_pred), skm.confusion_matrix(big, y_pred))
