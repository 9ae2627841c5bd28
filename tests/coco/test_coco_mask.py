"""turbometrics.coco.mask against pycocotools.mask 2.0.11.

Differential hypothesis tests (masks, RLE strings, polygons, boxes, merge,
IoU), every annotation of the COCO fixtures in tests/data/coco, the
exceptions pycocotools raises, and the ValueErrors that replace its crashes,
hangs and uninitialised reads.
"""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

P = pytest.importorskip("pycocotools.mask")
from pycocotools import _mask as P_core  # noqa: E402

from turbometrics.coco import mask as T  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DATA_DIRS = [REPO / "tests" / "data" / "coco", REPO.parent / "shared" / "data" / "coco"]


def fixture_path(name):
    for directory in DATA_DIRS:
        if (directory / name).exists():
            return directory / name
    pytest.skip(f"fixture {name} not found")


def same_array(a, b):
    assert type(a) is type(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.flags.f_contiguous == b.flags.f_contiguous and a.flags.c_contiguous == b.flags.c_contiguous
    np.testing.assert_array_equal(a, b)  # NaN == NaN; doubles compared exactly


def same_error(p_call, t_call):
    with pytest.raises(BaseException) as p_info:
        p_call()
    with pytest.raises(BaseException) as t_info:
        t_call()
    assert type(t_info.value) is type(p_info.value), (t_info.value, p_info.value)
    assert str(t_info.value) == str(p_info.value)


def rle_from_counts(counts, h, w):
    """A compressed RLE object with exactly these counts (pycocotools')."""
    return P_core.frUncompressedRLE([{"size": [h, w], "counts": counts}], h, w)[0]


# --------------------------------------------------------------------------
# strategies


@st.composite
def masks(draw, max_side=12, max_n=3):
    h = draw(st.integers(0, max_side))
    w = draw(st.integers(0, max_side))
    n = draw(st.integers(0, max_n))
    kind = draw(st.sampled_from(["random", "empty", "full", "blocks"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "random":
        m = rng.random((h, w, n)) < rng.random()
    elif kind == "empty":
        m = np.zeros((h, w, n), bool)
    elif kind == "full":
        m = np.ones((h, w, n), bool)
    else:
        m = np.zeros((h, w, n), bool)
        for i in range(n):
            if h and w:
                y0, x0 = rng.integers(0, h), rng.integers(0, w)
                m[y0 : rng.integers(y0, h + 1), x0 : rng.integers(x0, w + 1), i] = True
    dtype = draw(st.sampled_from([np.uint8, np.bool_]))
    return np.asfortranarray(m.astype(dtype))


coordinates = st.one_of(
    st.floats(-6, 46, allow_nan=False, allow_infinity=False),
    st.integers(-6, 46).map(float),
    st.integers(-30, 230).map(lambda v: v / 5),  # hits the upsampling's rounding ties
    st.integers(0, 4).map(float),  # repeated and collinear vertices
)


@st.composite
def polygon_lists(draw, coords=coordinates):
    first = draw(st.lists(coords, min_size=5, max_size=18))
    others = draw(st.lists(st.lists(coords, min_size=0, max_size=14), max_size=2))
    polys = [first] + others
    if draw(st.booleans()):  # repeat a vertex
        p = polys[0]
        j = draw(st.integers(0, len(p) // 2 - 1))
        polys[0] = p[: 2 * j + 2] + p[2 * j : 2 * j + 2] + p[2 * j + 2 :]
    return polys


sizes = st.integers(0, 40)
box_values = st.one_of(
    st.floats(-8, 40, allow_nan=False, allow_infinity=False), st.integers(-8, 40).map(float), st.just(0.0)
)
boxes = st.lists(st.lists(box_values, min_size=4, max_size=4), min_size=0, max_size=6)


# --------------------------------------------------------------------------
# encode / decode / area / toBbox


@given(masks())
def test_encode_decode_area_bbox_match(m):
    p_rles, t_rles = P.encode(m), T.encode(m)
    assert t_rles == p_rles
    assert all(type(r["counts"]) is bytes and type(r["size"][0]) is int for r in t_rles)
    same_array(T.area(t_rles), P.area(p_rles))
    same_array(T.toBbox(t_rles), P.toBbox(p_rles))
    if m.shape[2]:
        same_array(T.decode(t_rles), P.decode(p_rles))
        np.testing.assert_array_equal(T.decode(t_rles), m.astype(np.uint8))
        one = np.asfortranarray(m[:, :, 0])
        assert T.encode(one) == P.encode(one)
        r = T.encode(one)
        same_array(T.decode(r), P.decode(r))
        assert type(T.area(r)) is type(P.area(r)) and T.area(r) == P.area(r)
        same_array(T.toBbox(r), P.toBbox(r))
        assert T.encode(m, n_threads=2) == t_rles


def test_one_row_one_column_and_empty_shapes():
    for shape in [(1, 9), (9, 1), (0, 5), (5, 0), (0, 0), (1, 1)]:
        for fill in (0, 1):
            m = np.full(shape, fill, np.uint8, order="F")
            assert T.encode(m) == P.encode(m)
            if m.size or fill == 0:
                same_array(T.decode(T.encode(m)), P.decode(P.encode(m)))
    m = np.zeros((3, 4, 0), np.uint8, order="F")
    assert T.encode(m) == P.encode(m) == []
    same_array(T.area([]), P.area([]))
    same_array(T.toBbox([]), P.toBbox([]))


def test_non_binary_values_start_new_runs_like_pycocotools():
    m = np.asfortranarray(np.array([[0, 2, 2, 1, 1, 0, 7]], np.uint8))
    assert T.encode(m) == P.encode(m)
    assert T.area(T.encode(m)) == P.area(P.encode(m))


count_lists = st.lists(st.integers(0, 2**32 - 1), max_size=12) | st.lists(st.integers(0, 40), max_size=12)


def pycocotools_encodes(counts, rle):
    """Whether pycocotools' rleToString stays inside its buffer of 6 bytes
    per count (values of 2^29 or more take 7 characters and overflow it,
    corrupting the heap)."""
    return len(rle["counts"]) < 6 * len(counts)


def pycocotools_decodes(counts):
    """Whether pycocotools' string decoder returns these counts. Its
    sign extension of a 7-character value (``-1 << 35`` on a C int) is
    undefined and, in the x86-64 wheels, corrupts counts whose difference
    to the count two places earlier is below -2^29 (masks of more than 2^29
    pixels); turbometrics decodes those correctly."""
    return all(counts[i] - counts[i - 2] >= -(2**29) for i in range(3, len(counts)))


@given(count_lists, st.integers(1, 2**33), st.integers(0, 2**33))
def test_string_codec_area_bbox_on_arbitrary_counts(counts, h, w):
    if h % 2**32 == 0:
        h += 1  # pycocotools divides by zero for a height of 0 modulo 2^32
    t = T.frPyObjects({"size": [h, w], "counts": counts}, 1, 1)
    assert T.frPyObjects([{"size": [h, w], "counts": counts}], 1, 1) == [t]
    assert T.area(t) == sum(counts[1::2]) % 2**32  # the exact counts come back
    if not pycocotools_encodes(counts, t):
        return
    p = rle_from_counts(counts, h, w)
    assert t == p
    if pycocotools_decodes(counts):
        same_array(T.area([p]), P.area([p]))
        same_array(T.toBbox([p]), P.toBbox([p]))
        # str counts are read as their UTF-8 bytes
        s = {"size": [h, w], "counts": p["counts"].decode()}
        same_array(T.toBbox([s]), P.toBbox([s]))


def test_large_counts_round_trip():
    counts = [0, 2**32 - 1, 5, 2**31 + 7, 2**29 + 2**28, 2**29 - 1, 0, 3]
    assert not pycocotools_decodes(counts)
    r = T.frPyObjects({"size": [70000, 70000], "counts": counts}, 1, 1)
    assert pycocotools_encodes(counts, r)
    assert r == rle_from_counts(counts, 70000, 70000)
    assert T.area(r) == (2**32 - 1 + 2**31 + 7 + 2**29 - 1 + 3) % 2**32
    counts = [0, 2**32 - 1, 5, 2**32 - 2**28, 2**29, 2**32 - 2**29, 0, 2**32 - 2**30 + 5]
    assert pycocotools_decodes(counts)
    r = T.frPyObjects({"size": [70000, 70000], "counts": counts}, 1, 1)
    assert pycocotools_encodes(counts, r)
    assert r == rle_from_counts(counts, 70000, 70000)
    assert T.area(r) == P.area(r)
    same_array(T.toBbox(r), P.toBbox(r))


# --------------------------------------------------------------------------
# merge and iou of RLEs


@st.composite
def same_size_masks(draw, max_n=4):
    h = draw(st.integers(1, 10))
    w = draw(st.integers(1, 10))
    n = draw(st.integers(0, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]))
    m = rng.random((h, w, n)) < density
    if n and draw(st.booleans()):  # a small blob, so that boxes often do not overlap
        m[:, :, 0] = False
        m[rng.integers(0, h), rng.integers(0, w), 0] = True
    return P.encode(np.asfortranarray(m.astype(np.uint8)))


@given(same_size_masks(), st.sampled_from([0, 1, True, False, 2, 0.5]))
def test_merge_matches(rles, intersect):
    assert T.merge(rles, intersect) == P.merge(rles, intersect)
    assert T.merge(rles) == P.merge(rles)


def test_merge_size_mismatch_and_empty():
    a = P.encode(np.ones((2, 2), np.uint8, order="F"))
    b = P.encode(np.ones((2, 3), np.uint8, order="F"))
    assert T.merge([a, b]) == P.merge([a, b]) == {"size": [0, 0], "counts": b""}
    assert T.merge([]) == P.merge([]) == {"size": [0, 0], "counts": b""}
    odd = rle_from_counts([1, 0, 0, 3], 2, 2)  # one RLE is returned as it is
    assert T.merge([odd]) == P.merge([odd])


@given(same_size_masks(), same_size_masks(), st.data())
def test_rle_iou_matches(dt, gt, data):
    crowd = data.draw(st.lists(st.sampled_from([0, 1, True, False, 3]), min_size=len(gt), max_size=len(gt)))
    expected = P.iou(dt, gt, crowd)
    got = T.iou(dt, gt, crowd)
    if isinstance(expected, list):
        assert got == expected == []
    else:
        same_array(got, expected)
        same_array(T.iou(dt, gt, crowd, n_threads=2), expected)


def test_rle_iou_size_mismatch_is_minus_one_only_when_boxes_overlap():
    a = P.encode(np.ones((4, 4), np.uint8, order="F"))
    b = P.encode(np.ones((4, 5), np.uint8, order="F"))
    c = P.encode(np.asfortranarray(np.pad(np.ones((1, 1), np.uint8), ((3, 0), (4, 0)))))  # pixel (3, 4) of 4x5
    for dt, gt in [([a], [b]), ([a], [c]), ([a, c], [b, c])]:
        for crowd in ([0] * len(gt), [1] * len(gt)):
            same_array(T.iou(dt, gt, crowd), P.iou(dt, gt, crowd))
    assert T.iou([a], [b], [0])[0, 0] == -1


def test_iou_empty_inputs():
    r = P.encode(np.ones((2, 2), np.uint8, order="F"))
    for dt, gt, crowd in [
        ([], [], []),
        ([r], [], []),
        ([], [r], [0]),
        ([[0, 0, 1, 1]], [], []),
        (np.zeros((0, 4)), [[0, 0, 1, 1]], [0]),
        ([], np.zeros((0, 4)), []),
    ]:
        assert T.iou(dt, gt, crowd) == P.iou(dt, gt, crowd) == []


# --------------------------------------------------------------------------
# boxes


@given(boxes, boxes, st.data())
def test_box_iou_matches(dt, gt, data):
    crowd = data.draw(st.lists(st.booleans(), min_size=len(gt), max_size=len(gt)))
    expected = P.iou(dt, gt, crowd)
    got = T.iou(dt, gt, crowd)
    if isinstance(expected, list):
        assert got == expected
        return
    same_array(got, expected)
    same_array(
        T.iou(np.array(dt), np.array(gt, dtype=np.float32), crowd), P.iou(np.array(dt), np.array(gt, np.float32), crowd)
    )
    same_array(T.iou([np.array(b) for b in dt], gt, crowd), P.iou([np.array(b) for b in dt], gt, crowd))


def test_box_iou_nan_negative_and_threads():
    dt = [[0, 0, 1, np.nan], [0, 0, -1, 1], [0, 0, 0, 0], [1, 1, 2, 2], [np.inf, 0, 1, 1]]
    gt = [[0, 0, 2, 2], [0.5, 0.5, 1, 1], [np.nan, 0, 1, 1]]
    for crowd in ([0, 0, 0], [1, 0, 1]):
        same_array(T.iou(dt, gt, crowd), P.iou(dt, gt, crowd))
    rng = np.random.default_rng(0)
    dt = rng.uniform(0, 100, (300, 4))
    gt = rng.uniform(0, 100, (500, 4))
    crowd = rng.integers(0, 2, 500)
    same_array(T.iou(dt, gt, crowd, n_threads=2), P.iou(dt, gt, crowd))


@given(st.lists(st.lists(box_values, min_size=4, max_size=4), min_size=1, max_size=5), sizes, sizes)
def test_frbbox_matches(bbs, h, w):
    bb = np.array(bbs, dtype=np.float64)
    assert T.frPyObjects(bb, h, w) == P.frPyObjects(bb, h, w)


def test_frbbox_fortran_array_is_read_correctly():
    # pycocotools reads a Fortran-ordered array's memory as if it were C-ordered
    bb = np.array([[0, 0, 1, 1], [1, 1, 2, 2.0]])
    assert T.frPyObjects(np.asfortranarray(bb), 3, 3) == P.frPyObjects(bb, 3, 3)


# --------------------------------------------------------------------------
# polygons


@given(polygon_lists(), sizes, sizes)
def test_polygons_match(polys, h, w):
    assert T.frPyObjects(polys, h, w) == P.frPyObjects(polys, h, w)


@settings(max_examples=40)
@given(polygon_lists(st.floats(-3e5, 3e5, allow_nan=False, allow_infinity=False)), sizes, sizes)
def test_far_out_polygons_match(polys, h, w):
    assert T.frPyObjects(polys, h, w) == P.frPyObjects(polys, h, w)


def test_polygon_special_shapes():
    h, w = 20, 30
    shapes = [
        [0, 0, 0, 0, 0, 0],  # one point three times
        [1, 1, 5, 5, 9, 9],  # collinear
        [0, 0, 30, 0, 30, 20, 0, 20],  # the whole image
        [-10, -10, 40, -10, 40, 30, -10, 30],  # larger than the image
        [2.5, 2.5, 7.5, 2.5, 7.5, 7.5, 2.5, 7.5, 1],  # odd length
        [5, 5, 15, 5, 5, 15, 15, 15],  # self-intersecting
        [-3, 4, -1, 8, -2, 12],  # left of the image
        [0.1, 0.1, 0.3, 0.1, 0.2, 0.3],  # below a pixel
        [29.5, 0, 35, 10, 29.5, 20],
        np.array([3, 3, 9, 3, 6, 11.5]),
        (3, 3, 9, 3, 6, 11.5),
    ]
    for s in shapes:
        assert T.frPyObjects([s], h, w) == P.frPyObjects([s], h, w)
    for hh, ww in [(0, 10), (10, 0), (0, 0)]:
        assert T.frPyObjects([[1, 2, 3, 4, 5, 6]], hh, ww) == P.frPyObjects([[1, 2, 3, 4, 5, 6]], hh, ww)
    assert T.frPyObjects([[1, 2, 3, 4, 5, 6], [], [1, 1]], 5, 5) == P.frPyObjects(
        [[1, 2, 3, 4, 5, 6], [], [1, 1]], 5, 5
    )
    # sizes converted like Cython: floats truncated
    assert T.frPyObjects([[0, 0, 3, 0, 3, 3]], 3.7, np.int64(4)) == P.frPyObjects(
        [[0, 0, 3, 0, 3, 3]], 3.7, np.int64(4)
    )


def test_long_edges_are_fast():
    # far-out vertices: pycocotools walks (and allocates) every scaled unit
    poly = [[-2e8, -2e8, 2e8, -2e8, 2e8, 10.5, 7, 3.2]]
    result = T.frPyObjects(poly, 30, 40)
    assert result[0]["size"] == [30, 40]


# --------------------------------------------------------------------------
# uncompressed RLE


@given(st.lists(st.integers(0, 30), max_size=10), st.integers(0, 10), st.integers(0, 10))
def test_uncompressed_rle_matches(counts, h, w):
    obj = {"size": [h, w], "counts": counts}
    assert T.frPyObjects(obj, 99, 99) == P.frPyObjects(obj, 99, 99)
    assert T.frPyObjects([obj, obj], 1, 1) == P.frPyObjects([obj, obj], 1, 1)


def test_uncompressed_rle_value_conversion():
    for counts in ([1.7, 2], np.array([1, 2]), (3, 4), []):
        obj = {"size": [3, 3], "counts": counts}
        assert T.frPyObjects(obj, 5, 5) == P.frPyObjects(obj, 5, 5)


# --------------------------------------------------------------------------
# the COCO fixtures


@pytest.fixture(scope="module")
def coco_gt():
    with open(fixture_path("instances_val2014_100.json")) as handle:
        data = json.load(handle)
    images = {image["id"]: image for image in data["images"]}
    return images, data["annotations"]


@pytest.fixture(scope="module")
def coco_dt():
    with open(fixture_path("instances_val2014_fakesegm100_results.json")) as handle:
        return json.load(handle)


def pycocotools_area(rles):
    """pycocotools.mask.area in chunks: with NumPy 2 it raises OverflowError
    for more than 255 RLEs (a leftover ``np.array((n,), dtype=np.uint8)``);
    turbometrics takes any number."""
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        P.area(rles[:256])
    return np.concatenate([P.area(rles[i : i + 255]) for i in range(0, len(rles), 255)])


def gt_rles(images, annotations):
    out = {}
    for a in annotations:
        image = images[a["image_id"]]
        h, w = image["height"], image["width"]
        segm = a["segmentation"]
        if isinstance(segm, list):
            p = P.merge(P.frPyObjects(segm, h, w))
            t = T.merge(T.frPyObjects(segm, h, w))
        else:
            p, t = P.frPyObjects(segm, h, w), T.frPyObjects(segm, h, w)
        assert t == p
        out[a["id"]] = p
    return out


def test_fixture_annotations(coco_gt):
    images, annotations = coco_gt
    assert any(a["iscrowd"] for a in annotations)
    for a in annotations:
        image = images[a["image_id"]]
        segm = a["segmentation"]
        if isinstance(segm, list):
            assert T.frPyObjects(segm, image["height"], image["width"]) == P.frPyObjects(
                segm, image["height"], image["width"]
            )
    rles = list(gt_rles(images, annotations).values())
    same_array(T.area(rles), pycocotools_area(rles))
    same_array(T.toBbox(rles), P.toBbox(rles))
    for r in rles[:50]:
        same_array(T.decode(r), P.decode(r))
        assert T.encode(P.decode(r)) == P.encode(P.decode(r)) == r


def test_fixture_results_and_iou(coco_gt, coco_dt):
    images, annotations = coco_gt
    gts = gt_rles(images, annotations)
    dts = [d["segmentation"] for d in coco_dt]
    same_array(T.area(dts), pycocotools_area(dts))
    same_array(T.toBbox(dts), P.toBbox(dts))
    by_image = {}
    for a in annotations:
        by_image.setdefault(a["image_id"], ([], []))
        by_image[a["image_id"]][0].append(gts[a["id"]])
        by_image[a["image_id"]][1].append(a["iscrowd"])
    dt_by_image = {}
    for d in coco_dt:
        dt_by_image.setdefault(d["image_id"], []).append(d["segmentation"])
    compared = 0
    for image_id, dt in dt_by_image.items():
        gt, crowd = by_image.get(image_id, ([], []))
        expected = P.iou(dt, gt, crowd)
        if isinstance(expected, list):
            assert T.iou(dt, gt, crowd) == expected
            continue
        same_array(T.iou(dt, gt, crowd), expected)
        same_array(T.iou(dt, gt, [1] * len(gt)), P.iou(dt, gt, [1] * len(gt)))
        same_array(T.iou(T.toBbox(dt), T.toBbox(gt), crowd), P.iou(P.toBbox(dt), P.toBbox(gt), crowd))
        compared += expected.size
    assert compared > 1000
    # every detection against every ground truth: sizes differ (-1) or boxes miss (0)
    all_gt = list(gts.values())[:300]
    crowd = [a["iscrowd"] for a in annotations][:300]
    same_array(T.iou(dts[:200], all_gt, crowd, n_threads=2), P.iou(dts[:200], all_gt, crowd))
    assert T.merge(dts[:20]) == P.merge(dts[:20])  # sizes differ: the empty 0x0 RLE


# --------------------------------------------------------------------------
# exceptions that pycocotools raises: same type and message


def test_errors_match_pycocotools():
    r = {"size": [2, 2], "counts": b"13"}
    cases = [
        lambda M: M.encode(np.zeros((3, 4), np.uint8)),
        lambda M: M.encode(np.zeros((3, 4), np.int8, order="F")),
        lambda M: M.encode(np.zeros((3, 4, 2), np.float64, order="F")),
        lambda M: M.encode(np.zeros((3, 4, 2), np.int64)),
        lambda M: M.encode([[0, 1]]),
        lambda M: M.decode({"size": [2, 2], "counts": [0, 4]}),
        lambda M: M.decode({"size": [2, 2], "counts": np.bytes_(b"4")}),
        lambda M: M.decode({"size": [2, 2], "counts": bytearray(b"4")}),
        lambda M: M.area([{"size": [2, 2]}]),
        lambda M: M.area([r, {"counts": b"4"}]),
        lambda M: M.area([r, 5]),
        lambda M: M.area(({"size": [2, 2], "counts": b"4"},)),
        lambda M: M.area({"size": [-2, 2], "counts": b"4"}),
        lambda M: M.area({"size": [2, "a"], "counts": b"4"}),
        lambda M: M.area({"size": [2**64, 2], "counts": b"4"}),
        lambda M: M.area({"size": [2], "counts": b"4"}),
        lambda M: M.toBbox({"size": None, "counts": b"4"}),
        lambda M: M.iou([[0, 0, 1, 1]], [[0, 0, 2, 2]], [0, 1]),
        lambda M: M.iou([r], [], [1]),
        lambda M: M.iou([[0, 0, 1, 1]], [r], [0]),
        lambda M: M.iou(((0, 0, 1, 1),), [[0, 0, 2, 2]], [0]),
        lambda M: M.iou([(0, 0, 1, 1)], [[0, 0, 2, 2]], [0]),
        lambda M: M.iou([[0, 0, 1, 1], [0, 0, 1]], [[0, 0, 1, 1]], [0]),
        lambda M: M.iou([[0, 0, 1, 1], 5], [[0, 0, 1, 1]], [0]),
        lambda M: M.iou(np.array([4, 0, 1, 1]), [[0, 0, 2, 2]], [0]),
        lambda M: M.iou(np.array([1.0, 0, 1, 1]), [[0, 0, 2, 2]], [0]),
        lambda M: M.iou(np.array([3, 0, 1]), [[0, 0, 2, 2]], [0]),
        lambda M: M.iou(np.zeros((2, 3)), [[0, 0, 2, 2]], [0]),
        lambda M: M.iou([[0, 0, 1, "a"]], [[0, 0, 2, 2]], [0]),
        lambda M: M.iou([np.zeros((4, 2))], [[0, 0, 2, 2]], [0]),
        lambda M: M.iou([[0, 0, 1, 1]], [[0, 0, 2, 2]], None),
        lambda M: M.iou([[0, 0, 1, 1]], [[0, 0, 2, 2]], 0),
        lambda M: M.iou([[0, 0, 1, 1]], [[0, 0, 2, 2]], [[0]]),
        lambda M: M.iou([[0, 0, 1, 1]], [[0, 0, 2, 2]], [-1]),
        lambda M: M.iou([[0, 0, 1, 1]], 5, [0]),
        lambda M: M.iou("ab", [[0, 0, 1, 1]], [0]),
        lambda M: M.iou(r, [[0, 0, 1, 1]], [0]),
        lambda M: M.merge([r, r], intersect=None),
        lambda M: M.merge([r, r], intersect="a"),
        lambda M: M.merge([r], intersect=2**40),
        lambda M: M.merge(r),
        lambda M: M.frPyObjects([[0, 0, 1, 1]], 3, 3),
        lambda M: M.frPyObjects(np.array([[0, 0, 1, 1]]), 3, 3),
        lambda M: M.frPyObjects(np.array([[0, 0, 1, 1]], np.float32), 3, 3),
        lambda M: M.frPyObjects(np.array([[0, 0, 1, 1]], object), 3, 3),
        lambda M: M.frPyObjects(np.zeros((1, 4), ">f8"), 3, 3),
        lambda M: M.frPyObjects(np.zeros((1, 4), "f2"), 3, 3),
        lambda M: M.frPyObjects(np.array([0, 0, 1, 1.0]), 3, 3),
        lambda M: M.frPyObjects([0, 0, 1, 1], 3, 3),
        lambda M: M.frPyObjects([0.5, 0, 1, 1, 3, 3], 3, 3),
        lambda M: M.frPyObjects([], 3, 3),
        lambda M: M.frPyObjects([[]], 3, 3),
        lambda M: M.frPyObjects((0, 0, 1, 1), 3, 3),
        lambda M: M.frPyObjects({"counts": [1, 2]}, 3, 3),
        lambda M: M.frPyObjects([[[1, 2], [3, 4], [5, 6]]], 10, 10),
        lambda M: M.frPyObjects([[1, 2, 3, 4, 5, 6], "abcdefg"], 10, 10),
        lambda M: M.frPyObjects([[1, 2, 3, 4, 5, 6], [[1, 2], [3, 4]]], 10, 10),
        lambda M: M.frPyObjects([[0, 0, 1, 1, 2, 2]], -3, 3),
        lambda M: M.frPyObjects([[0, 0, 1, 1, 2, 2]], 3, "3"),
        lambda M: M.frPyObjects([[0, 0, 1, 1, 2, 2]], 3, None),
        lambda M: M.frPyObjects({"size": [3, 3], "counts": [1, -2]}, 5, 5),
        lambda M: M.frPyObjects({"size": [3, 3], "counts": [1, 2**32]}, 5, 5),
        lambda M: M.frPyObjects({"size": [-3, 3], "counts": [1, 2]}, 5, 5),
        lambda M: M.frPyObjects({"size": [3, 3], "counts": [1, 2]}, -5, 5),
        lambda M: M.frPyObjects([{"size": [3, 3], "counts": b"12"}], 5, 5),
        lambda M: M.frPyObjects([{"size": [3, 3], "counts": [[1, 2]]}], 5, 5),
        lambda M: M.frPyObjects([{"size": [3, 3], "counts": [1, 2], "a": 1, "b": 2}], 5, 5),
    ]
    for case in cases:
        same_error(lambda: case(P), lambda: case(T))


# --------------------------------------------------------------------------
# where pycocotools crashes, hangs or reads garbage: a clear ValueError


@pytest.mark.parametrize(
    "counts, message",
    [
        (b"1x", "outside '0'..'o'"),
        (b"1 2", "outside '0'..'o'"),
        (b"3\x004", "outside '0'..'o'"),
        (b"3P", "truncated"),
        (b"PPPPPPPPPPPPP0", "longer than 12"),
        (b"0oooooo7", "outside 0 .. 2^32 - 1"),  # 2^33 - 1
        (b"0O", "outside 0 .. 2^32 - 1"),  # -1
        (b"1234L", "outside 0 .. 2^32 - 1"),  # 3 - 4 < 0
        ("\u00e9", "outside '0'..'o'"),
    ],
)
def test_malformed_strings_raise(counts, message):
    r = {"size": [100, 100], "counts": counts}
    for call in (T.area, T.toBbox, T.decode, lambda x: T.merge([x]), lambda x: T.iou([x], [x], [0])):
        with pytest.raises(ValueError, match=re.escape(message)):
            call(r)


def test_decode_validates_coverage_and_sizes():
    with pytest.raises(ValueError, match="Invalid RLE mask representation"):
        P.decode({"size": [2, 2], "counts": b"9"})
    with pytest.raises(ValueError, match="Invalid RLE mask representation"):
        T.decode({"size": [2, 2], "counts": b"9"})
    with pytest.raises(ValueError, match="Invalid RLE mask representation: the counts cover 1 pixels"):
        T.decode({"size": [2, 2], "counts": b"1"})  # pycocotools: uninitialised memory
    with pytest.raises(ValueError, match="Invalid RLE mask representation"):
        T.decode({"size": [2, 2], "counts": b""})
    with pytest.raises(ValueError, match="same size"):
        T.decode([{"size": [2, 2], "counts": b"4"}, {"size": [1, 4], "counts": b"4"}])
    with pytest.raises(ValueError, match="at least one RLE"):
        T.decode([])


def test_hangs_and_crashes_become_errors():
    a = {"size": [2, 2], "counts": b"13"}
    short = {"size": [2, 2], "counts": b"12"}  # covers 3 of 4 pixels
    with pytest.raises(ValueError, match="loop forever"):
        T.merge([a, short])
    with pytest.raises(ValueError, match="loop forever"):
        T.iou([a], [short], [0])
    with pytest.raises(ValueError, match="loop forever"):  # raised from a parallel region
        T.iou([a] * 70, [a] * 40 + [short] + [a] * 29, [0] * 70, n_threads=2)
    with pytest.raises(ValueError, match="no counts"):
        T.merge([{"size": [2, 2], "counts": b""}, a])
    with pytest.raises(ValueError, match="height of 0"):
        T.toBbox({"size": [0, 3], "counts": b"01"})
    # a different size never reaches the walk
    assert T.iou([a], [{"size": [2, 3], "counts": b"15"}], [0])[0, 0] == -1
    assert T.merge([{"size": [2, 2], "counts": b""}, {"size": [1, 1], "counts": b"01"}]) == {
        "size": [0, 0],
        "counts": b"",
    }


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 1e12, -5e8])
def test_bad_coordinates_raise(value):
    with pytest.raises(ValueError, match="polygon coordinate"):
        T.frPyObjects([[0, 0, 5, 0, value, 5]], 10, 10)
    with pytest.raises(ValueError, match="coordinate"):
        T.frPyObjects(np.array([[0, 0, value, 5]]), 10, 10)


def test_width_zero_with_huge_polygon_raises():
    # pycocotools keeps every column when w == 0 (w - 1 wraps around), here
    # about 4e8 of them; turbometrics stops with an error instead
    with pytest.raises(ValueError, match="width 0"):
        T.frPyObjects([[0, 0, 4e8, 0, 4e8, 5, 0, 5]], 10, 0)
    assert T.frPyObjects([[0, 0, 4e8, 0, 4e8, 5, 0, 5]], 0, 0) == [{"size": [0, 0], "counts": b"0"}]


def test_encode_needs_two_or_three_dimensions():
    assert P.encode(np.zeros(3, np.uint8)) is None
    with pytest.raises(ValueError, match="got 1 dimensions"):
        T.encode(np.zeros(3, np.uint8))


def test_n_threads_validated():
    with pytest.raises(ValueError):
        T.iou([[0, 0, 1, 1]], [[0, 0, 1, 1]], [0], n_threads=0)
