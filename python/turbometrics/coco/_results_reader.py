"""Detection results as columns: from a results JSON file (the compiled
reader, ``_core.coco_results.read_results``) or from an in-memory list of dicts.

Both give the same :class:`ResultsColumns` for the same results: a file's
columns equal those :func:`results_from_dicts` builds from ``json.loads`` of
the file, bit for bit. Numbers are stored as Python's ``json`` reads them:
``image_id``, ``category_id``, ``id``, ``iscrowd`` and RLE sizes and counts
must be integers (int64); ``score``, ``area``, ``bbox``, polygons and
keypoints are ``float(value)``.

A known key whose value a column cannot hold exactly (an ``image_id`` of
``3.0``, a ``score`` of ``None``, a segmentation of an unusual shape) is not
an error: its row is flagged ``PRESENT_UNSTORED`` and its column holds the
absent value. A key outside the nine known ones flags the row
``PRESENT_EXTRA_KEY``. ``columnar_complete`` is false when any row is
flagged; the rows' dicts then have to come from a general JSON reader. A
``bbox`` that is neither a list of 4 numbers nor ``[]`` is an error
(ValueError naming the row), as is malformed JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from pathlib import Path
from typing import Any, Union

import numpy as np

from .. import _core

# Bits of ResultsColumns.present.
PRESENT_IMAGE_ID = 1 << 0
PRESENT_CATEGORY_ID = 1 << 1
PRESENT_BBOX = 1 << 2
PRESENT_SCORE = 1 << 3
PRESENT_SEGMENTATION = 1 << 4
PRESENT_KEYPOINTS = 1 << 5
PRESENT_AREA = 1 << 6
PRESENT_ID = 1 << 7
PRESENT_ISCROWD = 1 << 8
PRESENT_BBOX_EMPTY = 1 << 9  # "bbox": [] (PRESENT_BBOX is set too)
PRESENT_EXTRA_KEY = 1 << 14  # a key outside the nine known ones
PRESENT_UNSTORED = 1 << 15  # a known key's value is not in the columns

# Values of ResultsColumns.segmentation_kind.
SEGMENTATION_ABSENT = 0
SEGMENTATION_RLE = 1  # {"size": [h, w], "counts": "<string>"}
SEGMENTATION_RLE_COUNTS = 2  # {"size": [h, w], "counts": [int, ...]}
SEGMENTATION_POLYGONS = 3  # [[x, y, ...], ...]
SEGMENTATION_OTHER = 4  # anything else (the row is flagged PRESENT_UNSTORED)

KNOWN_KEYS = ("image_id", "category_id", "bbox", "score", "segmentation", "keypoints", "area", "id", "iscrowd")

_BBOX_MESSAGE = "'bbox' must be a list of 4 numbers (or [])"


@dataclass(frozen=True, eq=False)
class ResultsColumns:
    """Detection results, one row per result, as NumPy columns.

    Variable-length values are concatenated, with ``*_offsets`` arrays of
    ``n_rows + 1`` entries: row ``i``'s compressed RLE counts are
    ``rle_chars[rle_chars_offsets[i]:rle_chars_offsets[i + 1]].tobytes()``;
    its polygons are ``polygon_row_offsets[i]`` to ``polygon_row_offsets[i +
    1]``, polygon ``j`` being ``polygon_coords[polygon_offsets[j]:
    polygon_offsets[j + 1]]``.
    """

    n_rows: int
    image_id: np.ndarray  # int64 (n,); 0 where absent or unstored
    category_id: np.ndarray  # int64 (n,); 0 where absent or unstored
    score: np.ndarray  # float64 (n,); NaN where absent or unstored
    bbox: np.ndarray  # float64 (n, 4); NaN rows unless a list of 4 numbers
    present: np.ndarray  # uint16 (n,); PRESENT_* bits
    area: np.ndarray  # float64 (n,); NaN where absent or unstored
    id: np.ndarray  # int64 (n,); 0 where absent or unstored
    iscrowd: np.ndarray  # int64 (n,); 0 where absent or unstored
    segmentation_kind: np.ndarray  # uint8 (n,); SEGMENTATION_*
    segmentation_size: np.ndarray  # int64 (n, 2); [h, w] of either RLE kind, else 0
    rle_chars: np.ndarray  # uint8; compressed RLE counts (UTF-8), concatenated
    rle_chars_offsets: np.ndarray  # int64 (n + 1,)
    rle_counts: np.ndarray  # int64; uncompressed RLE counts, concatenated
    rle_counts_offsets: np.ndarray  # int64 (n + 1,)
    polygon_coords: np.ndarray  # float64; every polygon's numbers, concatenated
    polygon_offsets: np.ndarray  # int64 (n_polygons + 1,), into polygon_coords
    polygon_row_offsets: np.ndarray  # int64 (n + 1,), into polygons
    keypoints: np.ndarray  # float64; concatenated
    keypoint_offsets: np.ndarray  # int64 (n + 1,)
    columnar_complete: bool  # no row is flagged PRESENT_EXTRA_KEY or PRESENT_UNSTORED


_FIELDS = tuple(ResultsColumns.__dataclass_fields__)


ResultsSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, np.ndarray]


def read_results_file(source: ResultsSource) -> ResultsColumns:
    """Columns of a COCO results JSON file (a path: ``str`` or path-like) or
    text (bytes, bytearray, memoryview or a 1-D uint8 array).

    The text is decoded as ``json.loads`` decodes bytes: UTF-8 (a byte order
    mark allowed), or UTF-16 / UTF-32 detected from the first bytes.
    Malformed JSON raises ValueError with the byte offset (of the UTF-8
    text) and the row.
    """
    if isinstance(source, (str, os.PathLike)):
        data: Any = Path(source).read_bytes()
    elif isinstance(source, np.ndarray):
        if source.dtype != np.uint8 or source.ndim != 1:
            raise TypeError(f"read_results_file reads a 1-D uint8 array, got {source.dtype} of shape {source.shape}")
        data = np.ascontiguousarray(source)
    else:
        data = source
    data = _as_utf8(data)
    return ResultsColumns(**_core.coco_results.read_results(data))


def _as_utf8(data: Any) -> Any:
    """UTF-16 / UTF-32 text re-encoded as UTF-8, else ``data`` itself (the
    encoding is the one ``json.loads`` detects from the first 4 bytes)."""
    head = data[:4].tobytes() if isinstance(data, np.ndarray) else bytes(memoryview(data)[:4])
    if json.detect_encoding(head) in ("utf-8", "utf-8-sig"):
        return data
    raw = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    encoding = json.detect_encoding(raw)
    try:
        return raw.decode(encoding, "surrogatepass").encode("utf-8", "surrogatepass")
    except UnicodeDecodeError as error:
        raise ValueError(f"results JSON: the text is not valid {encoding.upper()}: {error}") from error


# ---- the list-of-dicts path ----------------------------------------------------

_MISSING: Any = object()
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_LIST_TYPES = (list, tuple)
_POPCOUNT9 = np.array([bin(i).count("1") for i in range(512)], dtype=np.int64)


def _as_int64(value: Any) -> int | None:
    """The int64 a JSON integer gives, else None (floats, bools, too large)."""
    if type(value) is int or isinstance(value, np.integer):
        value = int(value)
        return value if _INT64_MIN <= value <= _INT64_MAX else None
    return None


def _as_float(value: Any) -> float | None:
    """``float(value)`` for a number (not a bool), else None (also when an
    integer is too large for a double)."""
    if type(value) is float:
        return value
    if type(value) is int or isinstance(value, (np.integer, np.floating)):
        try:
            return float(value)
        except OverflowError:
            return None
    return None


def _float_list(value: Any) -> list[float] | None:
    """A list of numbers as floats, else None."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iuf":
            return None
        return [float(v) for v in value.tolist()]
    if not isinstance(value, _LIST_TYPES):
        return None
    if all(type(v) is float for v in value):
        return list(value)
    out = [_as_float(v) for v in value]
    return None if any(v is None for v in out) else out  # type: ignore[return-value]


def _int_list(value: Any) -> list[int] | None:
    if not isinstance(value, _LIST_TYPES):
        return None
    out = [_as_int64(v) for v in value]
    return None if any(v is None for v in out) else out  # type: ignore[return-value]


def _scalar_column(
    values: list[Any], dtype: type, fill: Any, exact_types: tuple[type, ...], convert: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(column, present, unstored) of one scalar key's values (``_MISSING``
    where absent)."""
    n = len(values)
    types = set(map(type, values))
    if types.issubset(exact_types):  # every row has a plain value: one conversion
        try:
            column: np.ndarray = np.array(values, dtype=dtype)
        except OverflowError:
            pass
        else:
            return column, np.ones(n, dtype=bool), np.zeros(n, dtype=bool)
    column = np.full(n, fill, dtype=dtype)
    present = np.zeros(n, dtype=bool)
    unstored = np.zeros(n, dtype=bool)
    if types == {type(_MISSING)}:
        return column, present, unstored
    for i, value in enumerate(values):
        if value is _MISSING:
            continue
        present[i] = True
        converted = convert(value)
        if converted is None:
            unstored[i] = True
        else:
            column[i] = converted
    return column, present, unstored


def _bbox_column(values: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bbox, present, empty); ValueError for a bbox that is neither 4
    numbers nor empty."""
    n = len(values)
    boxes = set(map(type, values)) == {list} and set(map(len, values)) == {4}
    if boxes and set(map(type, chain.from_iterable(values))).issubset((float, int)):
        try:
            flat = np.fromiter(chain.from_iterable(values), dtype=np.float64, count=4 * n)
        except OverflowError:
            pass
        else:
            return flat.reshape(n, 4), np.ones(n, dtype=bool), np.zeros(n, dtype=bool)
    bbox = np.full((n, 4), np.nan)
    present = np.zeros(n, dtype=bool)
    empty = np.zeros(n, dtype=bool)
    for i, value in enumerate(values):
        if value is _MISSING:
            continue
        present[i] = True
        if isinstance(value, (list, tuple, np.ndarray)) and len(value) == 0:
            empty[i] = True
            continue
        box = _float_list(value)
        if box is None or len(box) != 4:
            raise ValueError(f"results: row {i}: {_BBOX_MESSAGE}")
        bbox[i] = box
    return bbox, present, empty


def _offsets(lengths: Any) -> np.ndarray:
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


def _values(rows: list[Mapping[str, Any]], key: str) -> list[Any]:
    """Every row's value of ``key`` (``_MISSING`` where absent)."""
    try:
        return list(map(itemgetter(key), rows))
    except KeyError:
        return [row.get(key, _MISSING) for row in rows]


def _rows_with(rows: list[Mapping[str, Any]], keys: set, key: str) -> list[int]:
    """Indices of the rows that have ``key``."""
    return [i for i, row in enumerate(rows) if key in row] if key in keys else []


def _segmentation(value: Any) -> tuple[int, tuple[int, int], Any]:
    """(kind, size, data) of one segmentation value; data is bytes (RLE),
    a list of ints (RLE counts) or a list of float lists (polygons)."""
    if isinstance(value, Mapping):
        if len(value) != 2 or "size" not in value or "counts" not in value:
            return SEGMENTATION_OTHER, (0, 0), None
        size = _int_list(value["size"])
        if size is None or len(size) != 2:
            return SEGMENTATION_OTHER, (0, 0), None
        counts = value["counts"]
        if isinstance(counts, str):
            return SEGMENTATION_RLE, (size[0], size[1]), counts.encode("utf-8", "surrogatepass")
        if isinstance(counts, bytes):
            return SEGMENTATION_RLE, (size[0], size[1]), counts
        int_counts = _int_list(counts)
        if int_counts is None:
            return SEGMENTATION_OTHER, (0, 0), None
        return SEGMENTATION_RLE_COUNTS, (size[0], size[1]), int_counts
    if isinstance(value, _LIST_TYPES):
        polygons = [_float_list(polygon) for polygon in value]
        if any(polygon is None for polygon in polygons):
            return SEGMENTATION_OTHER, (0, 0), None
        return SEGMENTATION_POLYGONS, (0, 0), polygons
    return SEGMENTATION_OTHER, (0, 0), None


def results_from_dicts(results: Sequence[Mapping[str, Any]]) -> ResultsColumns:
    """The columns :func:`read_results_file` gives for ``json.dumps(results)``,
    built from the dicts themselves (the path for results passed as a
    list). Also accepts NumPy scalars and arrays and tuples where JSON has
    numbers and lists, and bytes RLE counts."""
    rows = results if isinstance(results, list) else list(results)
    n = len(rows)
    if set(map(type, rows)) - {dict}:
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise ValueError(f"results: row {i}: each result must be a dict, got {type(row).__name__}")
    present = np.zeros(n, dtype=np.uint16)
    unstored = np.zeros(n, dtype=bool)
    keys = set().union(*rows)  # every key of any row: keys no row has cost nothing below
    columns = {}
    for bit, key, dtype, fill, exact, convert in (
        (PRESENT_IMAGE_ID, "image_id", np.int64, 0, (int,), _as_int64),
        (PRESENT_CATEGORY_ID, "category_id", np.int64, 0, (int,), _as_int64),
        (PRESENT_SCORE, "score", np.float64, np.nan, (float, int), _as_float),
        (PRESENT_AREA, "area", np.float64, np.nan, (float, int), _as_float),
        (PRESENT_ID, "id", np.int64, 0, (int,), _as_int64),
        (PRESENT_ISCROWD, "iscrowd", np.int64, 0, (int,), _as_int64),
    ):
        if key not in keys:
            columns[key] = np.full(n, fill, dtype=dtype)
            continue
        values = _values(rows, key)
        column, has, bad = _scalar_column(values, dtype, fill, exact, convert)
        columns[key] = column
        present[has] |= bit
        unstored |= bad
    if "bbox" in keys:
        bbox, has_bbox, empty = _bbox_column(_values(rows, "bbox"))
        present[has_bbox] |= PRESENT_BBOX
        present[empty] |= PRESENT_BBOX_EMPTY
    else:
        bbox = np.full((n, 4), np.nan)

    # keypoints and segmentation: only the rows that have them are visited
    keypoint_parts: list[list[float]] = []
    keypoint_lengths = np.zeros(n, dtype=np.int64)
    for i in _rows_with(rows, keys, "keypoints"):
        present[i] |= PRESENT_KEYPOINTS
        keypoints = _float_list(rows[i]["keypoints"])
        if keypoints is None:
            unstored[i] = True
        else:
            keypoint_parts.append(keypoints)
            keypoint_lengths[i] = len(keypoints)

    kind = np.zeros(n, dtype=np.uint8)
    size = np.zeros((n, 2), dtype=np.int64)
    chars: list[bytes] = []
    counts: list[list[int]] = []
    polygons: list[list[float]] = []
    chars_lengths, counts_lengths, polygon_counts = (np.zeros(n, dtype=np.int64) for _ in range(3))
    for i in _rows_with(rows, keys, "segmentation"):
        present[i] |= PRESENT_SEGMENTATION
        row_kind, row_size, data = _segmentation(rows[i]["segmentation"])
        kind[i] = row_kind
        size[i] = row_size
        if row_kind == SEGMENTATION_OTHER:
            unstored[i] = True
        elif row_kind == SEGMENTATION_RLE:
            chars.append(data)
            chars_lengths[i] = len(data)
        elif row_kind == SEGMENTATION_RLE_COUNTS:
            counts.append(data)
            counts_lengths[i] = len(data)
        else:
            polygons.extend(data)
            polygon_counts[i] = len(data)

    if not keys.issubset(KNOWN_KEYS):
        extra = np.fromiter(map(len, rows), dtype=np.int64, count=n) != _POPCOUNT9[present & 0x1FF]
        present[extra] |= PRESENT_EXTRA_KEY
    present[unstored] |= PRESENT_UNSTORED
    return ResultsColumns(
        n_rows=n,
        image_id=columns["image_id"],
        category_id=columns["category_id"],
        score=columns["score"],
        bbox=bbox,
        present=present,
        area=columns["area"],
        id=columns["id"],
        iscrowd=columns["iscrowd"],
        segmentation_kind=kind,
        segmentation_size=size,
        rle_chars=np.frombuffer(b"".join(chars), dtype=np.uint8).copy(),
        rle_chars_offsets=_offsets(chars_lengths),
        rle_counts=np.array(list(chain.from_iterable(counts)), dtype=np.int64),
        rle_counts_offsets=_offsets(counts_lengths),
        polygon_coords=np.array(list(chain.from_iterable(polygons)), dtype=np.float64),
        polygon_offsets=_offsets(list(map(len, polygons))),
        polygon_row_offsets=_offsets(polygon_counts),
        keypoints=np.array(list(chain.from_iterable(keypoint_parts)), dtype=np.float64),
        keypoint_offsets=_offsets(keypoint_lengths),
        columnar_complete=not bool((present & (PRESENT_EXTRA_KEY | PRESENT_UNSTORED)).any()),
    )


__all__ = [
    "KNOWN_KEYS",
    "ResultsColumns",
    "read_results_file",
    "results_from_dicts",
]
