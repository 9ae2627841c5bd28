"""``turbometrics.segmentation.confusion_matrix`` against the definition
(NumPy's ``bincount`` of ``true * K + predicted`` over the unignored
pixels): random and blob-shaped maps of every dimension and
label dtype, strided, transposed and read-only layouts, per image, ignore
values, mmsegmentation's relabelling, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import turbometrics as tm

# The counts must be the same under every CPU personality (.ci/cpu_personalities:
# the generic and AVX2 copies of the cells loop, 1 and 3 threads).
pytestmark = pytest.mark.bits

confusion_matrix = tm.segmentation.confusion_matrix

DTYPES = [np.uint8, np.uint16, np.int32, np.int64, np.int8, np.int16, np.uint32, np.uint64, np.bool_]


def reference(y_true, y_pred, k, ignore=None, per_image=False):
    """The counts by ``np.bincount`` of the unignored pixels, one image at a
    time with ``per_image``."""
    if per_image:
        tables = [reference(t, p, k, ignore) for t, p in zip(y_true, y_pred)]
        return np.array(tables, dtype=np.int64).reshape(len(y_true), k, k)
    t = np.asarray(y_true).astype(np.int64).ravel()
    p = np.asarray(y_pred).astype(np.int64).ravel()
    if ignore is not None:
        kept = np.asarray(y_true).ravel() != ignore
        t, p = t[kept], p[kept]
    return np.bincount(t * k + p, minlength=k * k).reshape(k, k).astype(np.int64)


def blobs(rng, shape, k):
    """A coherent map: nearest of a few random seeds' labels (Voronoi cells)."""
    grid = np.indices(shape).reshape(len(shape), -1).T
    seeds = rng.integers(0, np.array(shape), size=(4, len(shape)))
    labels = rng.integers(0, k, 4)
    nearest = ((grid[:, None, :] - seeds[None]) ** 2).sum(-1).argmin(1)
    return labels[nearest].reshape(shape)


@st.composite
def label_map_pairs(draw):
    k = draw(st.integers(1, 6))
    dims = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=dims, max_size=dims)))
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    top = 2 if dtype == np.bool_ else k
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    coherent = draw(st.booleans()) and min(shape, default=0) > 0
    t = blobs(rng, shape, top) if coherent else rng.integers(0, top, shape)
    p = blobs(rng, shape, top) if coherent else rng.integers(0, top, shape)
    ignore = draw(st.sampled_from([None, 0, top - 1, 255]))
    return max(k, top), t.astype(dtype), p.astype(dtype), ignore


def layouts(array, how):
    if how == "strided":
        wide = np.repeat(array, 2, axis=-1)
        return wide[..., ::2] if array.ndim else array
    if how == "transposed":  # the same values, read through a non-mergeable layout
        return np.ascontiguousarray(array.T).T
    if how == "reversed":  # negative strides, each image's pixels permuted
        return array[..., ::-1]
    if how == "byte-swapped":
        return array.astype(array.dtype.newbyteorder(">" if array.dtype.byteorder != ">" else "<"))
    if how == "read-only":
        copy = array.copy()
        copy.flags.writeable = False
        return copy
    return array


@given(
    label_map_pairs(),
    st.sampled_from(["c", "strided", "transposed", "reversed", "byte-swapped", "read-only"]),
    st.booleans(),
)
def test_counts_equal_the_definition(pair, how, per_image):
    k, t, p, ignore = pair
    if per_image and t.ndim < 2:
        return
    got = confusion_matrix(layouts(t, how), layouts(p, how), num_classes=k, ignore_index=ignore, per_image=per_image)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, reference(t, p, k, ignore, per_image))


def runs(rng, size, k, longest):
    """``size`` labels in runs of 1 to ``longest`` equal labels."""
    lengths = rng.integers(1, longest + 1, size)
    labels = np.repeat(rng.integers(0, k, size), lengths)[:size]
    return labels


@st.composite
def coherent_pairs(draw):
    """Maps of long constant runs along the rows (the kernel counts chunks of
    32 equal cells as one run), some with salt noise, the ignore value in
    the middle of runs."""
    k = draw(st.integers(1, 20))
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 6)), draw(st.integers(1, 300)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    longest = draw(st.sampled_from([1, 31, 33, 100, 2000]))
    size = int(np.prod(shape))
    t, p = runs(rng, size, k, longest), runs(rng, size, k, longest)
    noise = draw(st.sampled_from([0.0, 0.01, 0.05]))
    salted = rng.random(size) < noise
    p[salted] = rng.integers(0, k, int(salted.sum()))
    ignore = draw(st.sampled_from([None, k, 0]))
    if ignore is not None:
        t[rng.random(size) < 0.003] = ignore  # single ignored pixels inside runs
    dtype = np.dtype(draw(st.sampled_from([np.uint8, np.int16, np.int64])))
    return k, t.reshape(shape).astype(dtype), p.reshape(shape).astype(dtype), ignore


@given(coherent_pairs(), st.sampled_from(["c", "strided", "reversed"]), st.booleans(), st.sampled_from([1, 2, 3]))
def test_coherent_runs_equal_bincount(pair, how, per_image, threads):
    k, t, p, ignore = pair
    got = confusion_matrix(
        layouts(t, how), layouts(p, how), num_classes=k, ignore_index=ignore, per_image=per_image, n_threads=threads
    )
    np.testing.assert_array_equal(got, reference(t, p, k, ignore, per_image))


def test_a_large_coherent_map_with_noise_by_bincount():
    rng = np.random.default_rng(12)
    k = 150
    t = runs(rng, 2 * 512 * 512, k, 300).reshape(2, 512, 512).astype(np.uint8)
    p = t.copy()
    salted = rng.random(t.shape) < 0.05
    p[salted] = rng.integers(0, k, int(salted.sum()))
    expected = reference(t, p, k)
    assert expected.diagonal().sum() > 0.9 * t.size  # mostly long runs of one cell
    for threads in (1, 2, 3):
        np.testing.assert_array_equal(confusion_matrix(t, p, num_classes=k, n_threads=threads), expected)
        np.testing.assert_array_equal(confusion_matrix(t[:, :, ::-1], p[:, :, ::-1], num_classes=k), expected)


def test_random_and_coherent_rows_with_many_classes_by_bincount():
    # 150 classes (ADE20K's count): the kernel sends the mixed chunks of
    # random rows to one table and those of coherent or noisy rows to two
    rng = np.random.default_rng(150)
    k, shape = 150, (3, 96, 1100)
    t = runs(rng, int(np.prod(shape)), k, 300).reshape(shape).astype(np.uint8)
    p = t.copy()
    p[rng.random(shape) < 0.05] = rng.integers(0, k)
    random_rows = rng.random(shape[:2]) < 0.5
    t[random_rows] = rng.integers(0, k + 1, (int(random_rows.sum()), shape[2]))  # k: ignored
    p[random_rows] = rng.integers(0, k, (int(random_rows.sum()), shape[2]))
    for threads in (1, 2, 3):
        for per_image in (False, True):
            np.testing.assert_array_equal(
                confusion_matrix(t, p, num_classes=k, ignore_index=k, per_image=per_image, n_threads=threads),
                reference(t, p, k, ignore=k, per_image=per_image),
            )


def test_mixed_dtypes_and_thread_counts():
    rng = np.random.default_rng(3)
    t = rng.integers(0, 20, (4, 300, 301)).astype(np.uint8)
    p = rng.integers(0, 20, (4, 300, 301)).astype(np.int64)
    expected = reference(t, p, 20)
    for threads in (1, 2, 3, 8):
        np.testing.assert_array_equal(confusion_matrix(t, p, num_classes=20, n_threads=threads), expected)
        np.testing.assert_array_equal(
            confusion_matrix(
                t.astype(np.uint16), p.astype(np.int32), num_classes=20, per_image=True, n_threads=threads
            ),
            reference(t, p, 20, per_image=True),
        )


def test_lists_and_torch_tensors():
    t = [[0, 1], [2, 1]]
    p = [[0, 2], [2, 1]]
    expected = reference(np.array(t), np.array(p), 3)
    np.testing.assert_array_equal(confusion_matrix(t, p, num_classes=3), expected)
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(confusion_matrix(torch.tensor(t), torch.tensor(p), num_classes=3), expected)


def test_empty_maps_and_one_pixel():
    np.testing.assert_array_equal(
        confusion_matrix(np.zeros((0, 4), np.uint8), np.zeros((0, 4), np.uint8), num_classes=2), np.zeros((2, 2))
    )
    assert confusion_matrix(np.zeros((3, 0), int), np.zeros((3, 0), int), num_classes=2, per_image=True).shape == (
        3,
        2,
        2,
    )
    np.testing.assert_array_equal(confusion_matrix([], [], num_classes=1), [[0]])
    np.testing.assert_array_equal(confusion_matrix(np.array([1]), np.array([0]), num_classes=2), [[0, 0], [1, 0]])


def test_reduce_zero_label_then_label_map_as_mmsegmentation_1():
    # mmsegmentation 1.x's LoadAnnotations: 0 -> 255, k -> k - 1, 254 -> 255; then the label map, all at once
    y_true = np.array([[0, 1, 2, 3, 255]], dtype=np.uint8)
    y_pred = np.array([[0, 0, 1, 2, 0]], dtype=np.uint8)
    reduced = confusion_matrix(y_true, y_pred, num_classes=3, ignore_index=255, reduce_zero_label=True)
    np.testing.assert_array_equal(reduced, reference(np.array([255, 0, 1, 2, 255]), y_pred.ravel(), 3, 255))
    swapped = confusion_matrix(
        y_true, y_pred, num_classes=3, ignore_index=255, reduce_zero_label=True, label_map={0: 1, 1: 0}
    )
    np.testing.assert_array_equal(swapped, reference(np.array([255, 1, 0, 2, 255]), y_pred.ravel(), 3, 255))
    # label 256 of a wider map: 255 after the reduction, as in mmsegmentation's arithmetic
    wide = confusion_matrix(
        np.array([256, 1]), np.array([0, 0]), num_classes=2, ignore_index=255, reduce_zero_label=True
    )
    np.testing.assert_array_equal(wide, [[1, 0], [0, 0]])


def test_the_first_invalid_pixel_is_named():
    y_true = np.zeros((2, 3, 4), dtype=np.int32)
    y_pred = np.zeros((2, 3, 4), dtype=np.int32)
    y_true[1, 2, 3] = 9
    y_pred[1, 0, 1] = -1
    with pytest.raises(ValueError, match=r"y_pred holds label -1 at index \(1, 0, 1\), which is outside \[0, 3\)\.$"):
        confusion_matrix(y_true, y_pred, num_classes=3)
    y_pred[1, 0, 1] = 0
    with pytest.raises(ValueError, match=r"y_true holds label 9 at index \(1, 2, 3\).*not ignore_index=255\.$"):
        confusion_matrix(y_true, y_pred, num_classes=3, ignore_index=255)
    # an ignored pixel's prediction is not read
    y_true[1, 2, 3] = 255
    y_pred[1, 2, 3] = 77
    assert confusion_matrix(y_true, y_pred, num_classes=3, ignore_index=255).sum() == 23
    big = np.array([2**64 - 1, 0], dtype=np.uint64)
    with pytest.raises(ValueError, match="label 18446744073709551615 at index"):
        confusion_matrix(big, big, num_classes=3)


def test_ignore_values_past_int64():
    # a uint64 map's ignore value past int64's range is matched exactly (not clipped)
    y_true = np.array([0, 2**64 - 1, 1, 2**63 + 5], dtype=np.uint64)
    y_pred = np.array([0, 1, 1, 0], dtype=np.uint64)
    ignored = confusion_matrix(y_true[:3], y_pred[:3], num_classes=2, ignore_index=2**64 - 1)
    np.testing.assert_array_equal(ignored, [[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="label 9223372036854775813 at index \\(3,\\)"):
        confusion_matrix(y_true, y_pred, num_classes=2, ignore_index=2**64 - 1)
    # an ignore value no map holds skips nothing
    np.testing.assert_array_equal(confusion_matrix([0, 1], [1, 1], num_classes=2, ignore_index=2**70), [[0, 1], [0, 1]])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"y_true": np.zeros(3), "y_pred": np.zeros(3, int)}, TypeError, "integer labels, got dtype float64"),
        (
            {"y_true": np.zeros(3, int), "y_pred": np.zeros(4, int)},
            ValueError,
            "different shapes: \\(3,\\) and \\(4,\\)",
        ),
        (
            {"y_true": np.zeros(3, int), "y_pred": np.zeros(3, int), "per_image": True},
            ValueError,
            "first axis is the image",
        ),
        ({"y_true": np.int64(1), "y_pred": np.int64(1)}, ValueError, "must be an array-like"),
        ({"y_true": np.zeros(3, int), "y_pred": np.zeros(3, int), "num_classes": 0}, ValueError, "num_classes"),
        ({"y_true": np.zeros(3, int), "y_pred": np.zeros(3, int), "num_classes": 65536}, ValueError, "num_classes"),
        ({"y_true": np.zeros(3, int), "y_pred": np.zeros(3, int), "num_classes": True}, ValueError, "num_classes"),
        ({"y_true": np.zeros(3, int), "y_pred": np.zeros(3, int), "ignore_index": 1.5}, ValueError, "ignore_index"),
        ({"y_true": np.zeros(3, int), "y_pred": np.zeros(3, int), "label_map": {0: "a"}}, TypeError, "label_map"),
    ],
)
def test_bad_input_is_refused(kwargs, error, match):
    arguments = {"num_classes": 2, **kwargs}
    with pytest.raises(error, match=match):
        confusion_matrix(arguments.pop("y_true"), arguments.pop("y_pred"), **arguments)


def test_a_large_random_map_by_bincount():
    rng = np.random.default_rng(11)
    k = 150
    t = rng.integers(0, k, (2, 512, 512), dtype=np.uint8)
    p = rng.integers(0, k, (2, 512, 512), dtype=np.uint8)
    expected = reference(t, p, k)
    np.testing.assert_array_equal(confusion_matrix(t, p, num_classes=k, n_threads=2), expected)


@given(label_map_pairs())
def test_counts_equal_torchmetrics(pair):
    """torchmetrics' ``multiclass_confusion_matrix`` (rows true; the pixels
    whose target is ``ignore_index`` dropped), where it is installed."""
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torchmetrics.functional.classification")
    k, t, p, ignore = pair
    if k < 2 or t.dtype in (np.uint16, np.uint32, np.uint64, np.bool_):  # types torch lacks or refuses
        return
    expected = functional.multiclass_confusion_matrix(
        torch.from_numpy(p.astype(np.int64)), torch.from_numpy(t.astype(np.int64)), num_classes=k, ignore_index=ignore
    )
    got = confusion_matrix(torch.from_numpy(t), torch.from_numpy(p), num_classes=k, ignore_index=ignore)
    np.testing.assert_array_equal(got, expected.numpy())
