"""The COCO results reader against Python's json module.

A plain per-row reference (``reference_columns``) builds the columns from
``json.loads`` of a text; the compiled reader (``read_results_file``) on
the text and the list path (``results_from_dicts``) on the loaded objects
must both equal it, floats bit for bit. The texts are written by a
serializer that varies what ``json.dumps`` never varies: number spellings
(exponents, long mantissas, huge and tiny magnitudes, NaN and infinities),
string escapes (``\\uXXXX``, surrogate pairs, lone surrogates), whitespace,
key order and repeated keys.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st

from turbometrics import _core
from turbometrics.coco import _results_reader as rr
from turbometrics.coco._results_reader import ResultsColumns, read_results_file, results_from_dicts

# --------------------------------------------------------------------------
# reference: one row at a time, from the objects json.loads gives

BIT = {key: 1 << k for k, key in enumerate(rr.KNOWN_KEYS)}
INT_KEYS = ("image_id", "category_id", "id", "iscrowd")
FLOAT_KEYS = ("score", "area")


def _int64(value: Any):
    if type(value) is int and -(2**63) <= value < 2**63:
        return value
    return None


def _float(value: Any):
    if type(value) is float:
        return value
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:
            return None
    return None


def _floats(value: Any):
    if not isinstance(value, list):
        return None
    out = [_float(v) for v in value]
    return None if any(v is None for v in out) else out


def reference_columns(rows: Any) -> ResultsColumns:
    if not isinstance(rows, list):
        raise ValueError("top level is not a list")
    n = len(rows)
    ints = {key: np.zeros(n, dtype=np.int64) for key in INT_KEYS}
    floats = {key: np.full(n, np.nan) for key in FLOAT_KEYS}
    bbox = np.full((n, 4), np.nan)
    present = np.zeros(n, dtype=np.uint16)
    kind = np.zeros(n, dtype=np.uint8)
    size = np.zeros((n, 2), dtype=np.int64)
    chars, chars_offsets = bytearray(), [0]
    counts: list[int] = []
    counts_offsets = [0]
    coords: list[float] = []
    polygon_offsets, polygon_row_offsets = [0], [0]
    keypoints: list[float] = []
    keypoint_offsets = [0]
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"row {i} is not an object")
        flags, unstored = 0, False
        for key, value in row.items():
            flags |= BIT.get(key, rr.PRESENT_EXTRA_KEY)
            if key in INT_KEYS:
                v = _int64(value)
                unstored |= v is None
                ints[key][i] = 0 if v is None else v
            elif key in FLOAT_KEYS:
                v = _float(value)
                unstored |= v is None
                floats[key][i] = np.nan if v is None else v
            elif key == "bbox":
                if value == [] and isinstance(value, list):
                    flags |= rr.PRESENT_BBOX_EMPTY
                else:
                    box = _floats(value)
                    if box is None or len(box) != 4:
                        raise ValueError(f"row {i}: bad bbox")
                    bbox[i] = box
            elif key == "keypoints":
                values = _floats(value)
                unstored |= values is None
                keypoints.extend(values or [])
            elif key == "segmentation":
                k = rr.SEGMENTATION_OTHER
                if isinstance(value, dict) and set(value) == {"size", "counts"}:
                    hw, c = value["size"], value["counts"]
                    if isinstance(hw, list) and len(hw) == 2 and all(_int64(x) is not None for x in hw):
                        if isinstance(c, str):
                            k = rr.SEGMENTATION_RLE
                            chars.extend(c.encode("utf-8", "surrogatepass"))
                        elif isinstance(c, list) and all(_int64(x) is not None for x in c):
                            k = rr.SEGMENTATION_RLE_COUNTS
                            counts.extend(c)
                        if k != rr.SEGMENTATION_OTHER:
                            size[i] = hw
                elif isinstance(value, list):
                    polygons = [_floats(p) for p in value]
                    if all(p is not None for p in polygons):
                        k = rr.SEGMENTATION_POLYGONS
                        for p in polygons:
                            coords.extend(p)
                            polygon_offsets.append(len(coords))
                unstored |= k == rr.SEGMENTATION_OTHER
                kind[i] = k
        present[i] = flags | (rr.PRESENT_UNSTORED if unstored else 0)
        chars_offsets.append(len(chars))
        counts_offsets.append(len(counts))
        polygon_row_offsets.append(len(polygon_offsets) - 1)
        keypoint_offsets.append(len(keypoints))
    offsets = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    return ResultsColumns(
        n_rows=n,
        image_id=ints["image_id"],
        category_id=ints["category_id"],
        score=floats["score"],
        bbox=bbox,
        present=present,
        area=floats["area"],
        id=ints["id"],
        iscrowd=ints["iscrowd"],
        segmentation_kind=kind,
        segmentation_size=size,
        rle_chars=np.frombuffer(bytes(chars), dtype=np.uint8),
        rle_chars_offsets=offsets(chars_offsets),
        rle_counts=np.array(counts, dtype=np.int64),
        rle_counts_offsets=offsets(counts_offsets),
        polygon_coords=np.array(coords, dtype=np.float64),
        polygon_offsets=offsets(polygon_offsets),
        polygon_row_offsets=offsets(polygon_row_offsets),
        keypoints=np.array(keypoints, dtype=np.float64),
        keypoint_offsets=offsets(keypoint_offsets),
        columnar_complete=not any(int(f) & (rr.PRESENT_EXTRA_KEY | rr.PRESENT_UNSTORED) for f in present),
    )


DTYPES = {
    "image_id": np.int64,
    "category_id": np.int64,
    "score": np.float64,
    "bbox": np.float64,
    "present": np.uint16,
    "area": np.float64,
    "id": np.int64,
    "iscrowd": np.int64,
    "segmentation_kind": np.uint8,
    "segmentation_size": np.int64,
    "rle_chars": np.uint8,
    "rle_chars_offsets": np.int64,
    "rle_counts": np.int64,
    "rle_counts_offsets": np.int64,
    "polygon_coords": np.float64,
    "polygon_offsets": np.int64,
    "polygon_row_offsets": np.int64,
    "keypoints": np.float64,
    "keypoint_offsets": np.int64,
}


def assert_same(got: ResultsColumns, want: ResultsColumns) -> None:
    """Every field equal; arrays in dtype, shape and bytes (so floats bit
    for bit, NaN and -0.0 included)."""
    assert isinstance(got.n_rows, int) and got.n_rows == want.n_rows
    assert type(got.columnar_complete) is bool and got.columnar_complete == want.columnar_complete
    for name, dtype in DTYPES.items():
        g, w = getattr(got, name), getattr(want, name)
        assert g.dtype == dtype and w.dtype == dtype, name
        assert g.shape == w.shape, (name, g.shape, w.shape)
        assert g.tobytes() == w.tobytes(), (name, g, w)


def outcome(function, argument):
    try:
        return function(argument)
    except ValueError as error:
        return error


def check_text(data: bytes) -> None:
    """The reader, the list path and the reference agree on ``data``
    (including on whether it is an error)."""
    try:
        loaded = json.loads(data)
    except (ValueError, RecursionError):
        with pytest.raises(ValueError, match="results JSON"):
            read_results_file(data)
        return
    want = outcome(reference_columns, loaded)
    got = outcome(read_results_file, data)
    listed = outcome(results_from_dicts, loaded) if isinstance(loaded, list) else want
    if isinstance(want, ValueError):
        assert isinstance(got, ValueError) and isinstance(listed, ValueError), (got, listed)
        return
    assert not isinstance(got, ValueError), got
    assert not isinstance(listed, ValueError), listed
    assert_same(got, want)
    assert_same(listed, want)


# --------------------------------------------------------------------------
# a JSON serializer with random spellings


class Raw(str):
    """A literal token (a number, true, false, null) written as is."""


class Obj(list):
    """An object as (key, value) pairs: keys may repeat."""


def _write_string(s: str, rnd: random.Random, out: list[str]) -> None:
    out.append('"')
    for ch in s:
        code = ord(ch)
        short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
        must = code < 0x20 or ch in '"\\' or 0xD800 <= code <= 0xDFFF
        if ch == "/" and rnd.random() < 0.5:
            out.append("\\/")
        elif ch in short and rnd.random() < 0.7:
            out.append(short[ch])
        elif must or rnd.random() < 0.15:
            if code >= 0x10000:
                code -= 0x10000
                pair = (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
                out.append("".join(rnd.choice(("\\u%04x", "\\u%04X")) % u for u in pair))
            else:
                out.append(rnd.choice(("\\u%04x", "\\u%04X")) % code)
        else:
            out.append(ch)
    out.append('"')


def serialize(value: Any, rnd: random.Random) -> str:
    out: list[str] = []

    def ws() -> None:
        r = rnd.random()
        if r < 0.5:
            return
        out.append(rnd.choice([" ", "\n", "\t", "\r\n  ", "  ", " \n\t"]))

    def write(v: Any) -> None:
        if isinstance(v, Raw):
            out.append(v)
        elif isinstance(v, str):
            _write_string(v, rnd, out)
        elif isinstance(v, Obj):
            out.append("{")
            for k, (key, item) in enumerate(v):
                if k:
                    out.append(",")
                ws()
                _write_string(key, rnd, out)
                ws()
                out.append(":")
                ws()
                write(item)
                ws()
            if not v:
                ws()
            out.append("}")
        elif isinstance(v, list):
            out.append("[")
            for k, item in enumerate(v):
                if k:
                    out.append(",")
                ws()
                write(item)
                ws()
            if not v:
                ws()
            out.append("]")
        else:
            raise TypeError(type(v))

    ws()
    write(value)
    ws()
    return "".join(out)


def _float_text(x: float) -> str:
    return json.dumps(x)  # repr, or NaN / Infinity / -Infinity


TRICKY_NUMBERS = [
    "0",
    "-0",
    "0.0",
    "-0.0",
    "0e0",
    "-0E-5",
    "1",
    "-1",
    "1.5",
    "0.1",
    "1e400",
    "-1e400",
    "1e-400",
    "-1e-400",
    "2.4703282292062328e-324",
    "2.4703282292062327e-324",
    "4.9406564584124654e-324",
    "2.2250738585072011e-308",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "1.7976931348623159e308",
    "1" + "0" * 309,
    "-1" + "0" * 400,
    "9007199254740993",
    "9007199254740993.0",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "123456789012345678901234567890",
    "0.30000000000000004",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "7.2057594037927933e16",
    "1E+22",
    "1e23",
    "3.0",
    "3e0",
    "1" + "0" * 400 + "e-400",
    "0." + "0" * 400 + "1e401",
    "NaN",
    "Infinity",
    "-Infinity",
    "123456789012345678.5",
    "0.000001",
    "1e-7",
    "4503599627370497.5",
]

NUMBERS = st.one_of(
    st.integers(-5, 10**6).map(str),
    st.integers(-(2**64), 2**64).map(str),
    st.floats().map(_float_text),
    st.from_regex(r"\A-?(0|[1-9][0-9]{0,24})(\.[0-9]{1,24})?([eE][-+]?[0-9]{1,3})?\Z"),
    st.sampled_from(TRICKY_NUMBERS),
).map(Raw)

RLE_TEXT = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=48, max_codepoint=111), max_size=30),
    st.text(
        alphabet=st.one_of(
            st.characters(), st.sampled_from(["\\", '"', "/", "\x00", "\x1f", "\ud800", "\udfff", "\U0001f600"])
        ),
        max_size=12,
    ),
)
KEYS = st.one_of(st.sampled_from(rr.KNOWN_KEYS + ("size", "counts", "Image_id", "")), st.text(max_size=6))
SCALARS = st.one_of(NUMBERS, st.sampled_from([Raw("null"), Raw("true"), Raw("false")]), st.text(max_size=5))
ANY_VALUE = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.lists(st.tuples(KEYS, children), max_size=3).map(Obj)
    ),
    max_leaves=6,
)
INTEGERS = st.one_of(
    st.integers(-3, 10**5), st.integers(-(2**63), 2**63 - 1), st.sampled_from([2**63, -(2**63) - 1, 10**30])
).map(lambda v: Raw(str(v)))
INT_VALUE = st.one_of(INTEGERS, INTEGERS, NUMBERS, ANY_VALUE)
FLOAT_VALUE = st.one_of(NUMBERS, NUMBERS, ANY_VALUE)
NUMBER_LIST = st.lists(NUMBERS, max_size=6)


@st.composite
def segmentations(draw):
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return draw(st.lists(NUMBER_LIST, max_size=3))
    size = draw(
        st.one_of(st.lists(INTEGERS, min_size=2, max_size=2), ANY_VALUE)
        if choice == 5
        else st.lists(INTEGERS, min_size=2, max_size=2)
    )
    counts = draw(RLE_TEXT if choice in (1, 2) else st.lists(INTEGERS, max_size=5) if choice == 3 else ANY_VALUE)
    pairs = [("size", size), ("counts", counts)]
    if choice == 4 or draw(st.integers(0, 9)) == 0:
        pairs.append((draw(KEYS), draw(ANY_VALUE)))
    if draw(st.integers(0, 9)) == 0:  # a repeated key, the first value replaced
        pairs.insert(0, (draw(st.sampled_from(["size", "counts"])), draw(ANY_VALUE)))
    if draw(st.booleans()):
        pairs = [pairs[i] for i in draw(st.permutations(range(len(pairs))))]
    return Obj(pairs)


FIELD_VALUES = {
    "image_id": INT_VALUE,
    "category_id": INT_VALUE,
    "id": INT_VALUE,
    "iscrowd": INT_VALUE,
    "score": FLOAT_VALUE,
    "area": FLOAT_VALUE,
    "bbox": st.one_of(st.lists(NUMBERS, min_size=4, max_size=4), st.just([])),
    "segmentation": st.one_of(segmentations(), ANY_VALUE),
    "keypoints": st.one_of(NUMBER_LIST, ANY_VALUE),
}


@st.composite
def rows(draw):
    keys = [k for k in rr.KNOWN_KEYS if draw(st.integers(0, 3)) > 0 or k in ("image_id", "score")]
    pairs = [(k, draw(FIELD_VALUES[k])) for k in keys]
    if draw(st.integers(0, 5)) == 0:
        pairs.append((draw(KEYS), draw(ANY_VALUE)))
    if pairs and draw(st.integers(0, 7)) == 0:  # a repeated key: json keeps the last value
        key = draw(st.sampled_from([k for k, _ in pairs]))
        other = draw(st.one_of(FIELD_VALUES.get(key, ANY_VALUE), ANY_VALUE))
        pairs.insert(0, (key, other))
    order = draw(st.permutations(range(len(pairs))))
    return Obj([pairs[i] for i in order])


@st.composite
def texts(draw, max_rows=6) -> bytes:
    value = draw(st.lists(rows(), max_size=max_rows))
    text = serialize(value, draw(st.randoms(use_true_random=False)))
    data = text.encode("utf-8")
    if draw(st.integers(0, 19)) == 0:
        data = b"\xef\xbb\xbf" + data  # json.loads(bytes) accepts a UTF-8 BOM
    return data


# --------------------------------------------------------------------------
# properties


@given(texts())
def test_random_texts_match_json_loads(data):
    check_text(data)


@st.composite
def plain_results(draw):
    """What users' files hold: json.dumps of ints, floats, lists and RLE strings."""
    floats = st.floats(width=64)
    row = st.fixed_dictionaries(
        {"image_id": st.integers(0, 2**40), "category_id": st.integers(1, 90)},
        optional={
            "bbox": st.lists(floats, min_size=4, max_size=4),
            "score": st.one_of(floats, st.integers(-(2**70), 2**70)),
            "segmentation": st.one_of(
                st.fixed_dictionaries(
                    {"size": st.lists(st.integers(0, 5000), min_size=2, max_size=2), "counts": st.text(max_size=20)}
                ),
                st.lists(st.lists(floats, max_size=8), max_size=3),
            ),
            "keypoints": st.lists(st.one_of(floats, st.integers(0, 2)), max_size=9),
            "area": floats,
            "id": st.integers(),
            "iscrowd": st.integers(0, 1),
            "extra": st.text(max_size=3),
        },
    )
    return draw(st.lists(row, max_size=8))


@given(plain_results(), st.sampled_from([None, 0, 1, 2, 4, "\t"]), st.booleans())
def test_json_dumps_texts(results, indent, ensure_ascii):
    text = json.dumps(results, indent=indent, ensure_ascii=ensure_ascii)
    check_text(text.encode("utf-8", "surrogatepass"))


@given(
    texts(max_rows=3),
    st.lists(
        st.tuples(
            st.integers(0, 2**16),
            st.integers(0, 3),
            st.sampled_from(list(b'[]{}",:\\-+.0123456789eENIaflnrstu \n') + [0, 0x80, 0xC3, 0xED, 0xFF]),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_texts_never_crash(data, edits):
    """Truncated and edited texts: the same outcome as json.loads (a
    ValueError when it fails, else the same columns)."""
    data = bytearray(data)
    for position, operation, byte in edits:
        position = position % (len(data) + 1)
        if operation == 0:
            del data[position:]
        elif operation == 1:
            data.insert(position, byte)
        elif operation == 2 and position < len(data):
            data[position] = byte
        else:
            del data[position : position + 1 + byte % 4]
    check_text(bytes(data))


# --------------------------------------------------------------------------
# examples


@pytest.mark.parametrize("number", TRICKY_NUMBERS)
def test_number_spellings(number):
    for text in (
        f'[{{"score": {number}, "image_id": {number}, "bbox": [{number}, 0, {number}, 1]}}]',
        f'[{{"area": {number}, "keypoints": [{number}], "segmentation": [[{number}]]}}]',
    ):
        check_text(text.encode())


def test_sample_rows():
    data = (
        b'[{"image_id": 1, "category_id": 18, "bbox": [258.15, 41.29, 348.26, 243.78], "score": 0.236},'
        b' {"image_id": 2, "category_id": 1, "segmentation": {"size": [427, 640], "counts": "a\\\\b\\"c\\u00e9"},'
        b' "score": 1}]'
    )
    got = read_results_file(data)
    assert got.n_rows == 2 and got.columnar_complete
    assert got.image_id.tolist() == [1, 2] and got.category_id.tolist() == [18, 1]
    assert got.bbox[0].tolist() == [258.15, 41.29, 348.26, 243.78] and np.isnan(got.bbox[1]).all()
    assert got.score.tolist() == [0.236, 1.0]
    assert got.present.tolist() == [
        rr.PRESENT_IMAGE_ID | rr.PRESENT_CATEGORY_ID | rr.PRESENT_BBOX | rr.PRESENT_SCORE,
        rr.PRESENT_IMAGE_ID | rr.PRESENT_CATEGORY_ID | rr.PRESENT_SEGMENTATION | rr.PRESENT_SCORE,
    ]
    assert got.segmentation_kind.tolist() == [rr.SEGMENTATION_ABSENT, rr.SEGMENTATION_RLE]
    assert got.segmentation_size.tolist() == [[0, 0], [427, 640]]
    start, stop = got.rle_chars_offsets[1:3]
    assert got.rle_chars[start:stop].tobytes() == 'a\\b"cé'.encode()
    check_text(data)


def test_repeated_keys_keep_the_last_value():
    data = (
        b'[{"image_id": 1.5, "image_id": 2, "bbox": [1, 2, 3], "bbox": [], "segmentation": [[1, 2]],'
        b' "segmentation": {"size": [1, 2], "counts": "ab"}, "keypoints": [1], "keypoints": [2, 3],'
        b' "score": null, "score": 0.5},'
        b' {"image_id": 3, "image_id": "x", "bbox": [1, 2, 3, 4], "bbox": [],'
        b' "segmentation": {"counts": [1, 2], "size": [3, 4], "counts": "z"}}]'
    )
    got = read_results_file(data)
    assert got.image_id.tolist() == [2, 0] and np.isnan(got.bbox).all()
    assert got.present[0] & rr.PRESENT_BBOX_EMPTY and not got.present[0] & rr.PRESENT_UNSTORED
    assert got.present[1] & rr.PRESENT_UNSTORED and not got.columnar_complete
    assert got.keypoints.tolist() == [2.0, 3.0] and got.polygon_coords.size == 0
    assert got.segmentation_kind.tolist() == [rr.SEGMENTATION_RLE, rr.SEGMENTATION_RLE]
    assert got.rle_chars.tobytes() == b"abz" and got.rle_counts.size == 0
    check_text(data)


def test_unstored_values_flag_the_row_only():
    data = (
        b'[{"image_id": 3.0, "category_id": 1, "score": 0.5}, {"image_id": 4, "category_id": 2, "score": 0.25},'
        b' {"image_id": 5, "segmentation": {"size": [1, 2], "counts": "x", "id": 1}}, {"image_id": 6, "note": 1}]'
    )
    got = read_results_file(data)
    flags = [int(f) & (rr.PRESENT_UNSTORED | rr.PRESENT_EXTRA_KEY) for f in got.present]
    assert flags == [rr.PRESENT_UNSTORED, 0, rr.PRESENT_UNSTORED, rr.PRESENT_EXTRA_KEY]
    assert got.image_id.tolist() == [0, 4, 5, 6] and got.category_id.tolist() == [1, 2, 0, 0]
    assert got.segmentation_kind[2] == rr.SEGMENTATION_OTHER and not got.columnar_complete
    check_text(data)


@pytest.mark.parametrize(
    "data, fragments",
    [
        (b"", ["expected a JSON array", "byte 0"]),
        (b"  ", ["byte 2"]),
        (b'{"image_id": 1}', ["top level must be a JSON array", "byte 0"]),
        (b"[1]", ["row 0", "must be a JSON object", "byte 1"]),
        (b'[{"bbox": [1, 2, 3]}]', ["row 0", "'bbox' must be a list of 4 numbers", "byte 10"]),
        (b'[{}, {"bbox": [1, 2, 3, 4, 5]}]', ["row 1", "'bbox'"]),
        (b'[{}, {}, {"bbox": null}]', ["row 2", "'bbox'"]),
        (b'[{"bbox": [1, 2, 3, 4], "bbox": {}, "score": 1}]', ["row 0", "'bbox'", "byte 32"]),
        (b'[{"bbox": [1, 2, "3", 4]}]', ["row 0", "'bbox'"]),
        (b'[{"bbox": [1, 2, 3, 1' + b"0" * 400 + b"]}]", ["row 0", "'bbox'"]),
        (b'[{"image_id": 1,}]', ["row 0", "expected a key string"]),
        (b'[{"image_id": 01}]', ["row 0", "expected ',' or '}'"]),
        (b'[{"score": -NaN}]', ["row 0", "invalid JSON value"]),
        (b'[{"score": nan}]', ["row 0", "invalid JSON value"]),
        (b'[{"score": 1.}]', ["row 0", "invalid JSON number"]),
        (b'[{"score": .5}]', ["row 0", "invalid JSON value"]),
        (b'[{"score": 1e}]', ["row 0", "invalid JSON number"]),
        (b'[{"x": "\\q"}]', ["row 0", "invalid escape"]),
        (b'[{"x": "\\u12G4"}]', ["row 0", "invalid \\uXXXX escape"]),
        (b'[{"x": "a\nb"}]', ["row 0", "control character"]),
        (b'[{"x": "\xff"}]', ["row 0", "invalid UTF-8"]),
        (b'[{"x": "\xc0\xaf"}]', ["row 0", "invalid UTF-8"]),
        (b'[{"x": "abc', ["row 0", "unterminated string"]),
        (b'[{"x": [1, 2}]', ["row 0", "expected ',' or ']'"]),
        (b'[{"x": 1}', ["row 0", "expected ',' or ']'"]),
        (b'[{"x": 1}] x', ["extra data", "byte 11"]),
        (b'[{"x": 1' + b"0" * 4300 + b"}]", ["row 0", "more than 4300 digits"]),
        (b"[" + b'{"score": 1}, ' * 17 + b'{"score": tru}]', ["row 17"]),
    ],
)
def test_malformed_text_messages(data, fragments):
    with pytest.raises(ValueError) as info:
        read_results_file(data)
    message = str(info.value)
    assert message.startswith("results JSON: ")
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    check_text(data)


def test_accepted_spellings():
    for data in [
        b"[]",
        b" \r\n\t[ ] \n",
        b'\xef\xbb\xbf[{"score": 1}]',
        b'[{"score": NaN, "area": -Infinity, "id": 7}]',
        b'[{"\\u0069mage_id": 5, "k\\ud83d\\ude00": "\\u00e9\\/\\b\\f\\n\\r\\t"}]',
        b'[{"x": "\xed\xa0\x80"}]',
        b'[{"segmentation": {"size": [1, 2], "counts": "\\ud800\\udc00\\udc00\\ud800x\xed\xb0\x80"}}]',
        b'[{"x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{"a": []}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]',
        '[{"score": 0.5, "note": "caf\u00e9 \U0001f600"}]'.encode("utf-16"),
        '[{"score": 0.5}]'.encode("utf-32-le"),
    ]:
        check_text(data)
    assert read_results_file(b"[]").n_rows == 0


def test_many_small_rows_grow_the_columns():
    """Rows shorter than the reader's size estimate: every column grows
    several times, and optional columns start late."""
    rng = random.Random(5)
    rows = []
    for i in range(20000):
        if rng.random() < 0.99:
            rows.append("{}")
        else:
            row = {"image_id": i, "score": rng.random(), "bbox": [i, 1, 2, 3], "area": rng.random()}
            if i > 10000:
                row["keypoints"] = [i, 0.5]
                row["segmentation"] = [[i, 1.5]] if i % 2 else {"size": [1, 2], "counts": "x"}
            if i > 15000:
                row["id"] = i
            rows.append(json.dumps(row))
    check_text(("[" + ",".join(rows) + "]").encode())


def test_inputs_and_ownership(tmp_path: Path):
    data = b'[{"image_id": 4, "category_id": 2, "bbox": [1, 2, 3, 4], "score": 0.5, "keypoints": [1, 2]}]'
    path = tmp_path / "results.json"
    path.write_bytes(data)
    want = read_results_file(data)
    for source in (str(path), path, bytearray(data), memoryview(data), np.frombuffer(data, dtype=np.uint8)):
        assert_same(read_results_file(source), want)
    with pytest.raises(TypeError, match="bytes-like"):
        _core.coco_results.read_results(data.decode())
    with pytest.raises(TypeError, match="1-D uint8"):
        read_results_file(np.zeros((2, 2), dtype=np.uint8))
    with pytest.raises(ValueError, match="row 0"):
        read_results_file(data.replace(b"[1, 2, 3, 4]", b"[1, 2, 3]"))
    raw = _core.coco_results.read_results(bytes(data))
    assert set(raw) == set(rr._FIELDS)
    column = raw["image_id"]
    del raw
    assert column.tolist() == [4] and column.flags.writeable  # owns its buffer through a capsule


def test_results_from_dicts_accepts_numpy_values_and_tuples():
    rows = [
        {
            "image_id": np.int64(4),
            "category_id": np.int32(2),
            "bbox": np.array([1.0, 2.0, 3.0, 4.0]),
            "score": np.float32(0.5),
            "segmentation": {"size": (4, 5), "counts": b"ab\\"},
        },
        {
            "image_id": 5,
            "category_id": 3,
            "bbox": (1, 2, 3, 4),
            "score": 0.25,
            "keypoints": np.array([1.0, 2.0]),
            "segmentation": [np.array([1.0, 2.0]), (3, 4)],
        },
    ]
    got = results_from_dicts(rows)
    assert got.image_id.tolist() == [4, 5] and got.category_id.tolist() == [2, 3]
    assert got.bbox.tolist() == [[1, 2, 3, 4], [1, 2, 3, 4]] and got.score.tolist() == [0.5, 0.25]
    assert got.rle_chars.tobytes() == b"ab\\" and got.segmentation_size[0].tolist() == [4, 5]
    assert got.polygon_coords.tolist() == [1, 2, 3, 4] and got.polygon_offsets.tolist() == [0, 2, 4]
    assert got.keypoints.tolist() == [1, 2] and got.columnar_complete
    with pytest.raises(ValueError, match="row 1: 'bbox'"):
        results_from_dicts([{"bbox": [1, 2, 3, 4]}, {"bbox": (1, 2, 3)}])
    with pytest.raises(ValueError, match="row 0: each result must be a dict"):
        results_from_dicts([[1, 2]])
    with pytest.raises(ValueError, match="row 0: 'bbox'"):
        results_from_dicts([{"bbox": [True, 2, 3, 4]}])


@pytest.mark.parametrize(
    "text",
    [
        b"[]",
        b" [ ] \n",
        b'[{"image_id": 1, "segmentation": [[1.5, 2, 3]]} , {"score": NaN}]\n',
        b"\xef\xbb\xbf[1, 2]",
        '[1, "\u00e9"]'.encode("utf-16"),
        b"[1,]",
        b"[1 2]",
        b"[1] x",
        b"",
        b'{"a": 1}',
        b"[1",
        b'["\xff"]',
    ],
)
def test_results_parsed_piece_by_piece_equal_json_loads(text, monkeypatch):
    """loads_results parses a JSON array one result at a time (so Ctrl-C
    stops it, see test_interrupt.py) into json.loads' objects, and raises
    json.loads' own error for malformed text."""
    from turbometrics.coco._results import loads_results

    monkeypatch.setitem(sys.modules, "orjson", None)  # the standard library's path

    def outcome(load):
        try:
            return "ok", repr(load(text))
        except ValueError as error:
            return type(error).__name__, str(error)

    assert outcome(loads_results) == outcome(json.loads)
