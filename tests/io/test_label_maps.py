"""turbometrics.io.read_label_map: PNG (the single-channel modes) and .npy bytes read as the
integer maps they hold; other bytes, color PNGs, float or pickled .npy files and empty maps
are refused with a ValueError naming the map."""

from __future__ import annotations

import io

import numpy as np
import pytest

from turbometrics.io import read_label_map


def _npy(values) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, values, allow_pickle=True)
    return buffer.getvalue()


def _png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, np.int64, bool])
def test_npy_maps_of_any_dimension(dtype):
    values = (np.arange(24).reshape(2, 3, 4) % 2).astype(dtype)
    read = read_label_map(_npy(values))
    assert read.dtype == dtype and np.array_equal(read, values)


def test_png_modes():
    image_module = pytest.importorskip("PIL.Image")
    labels = np.array([[0, 1, 2], [19, 255, 7]], dtype=np.uint8)
    gray = read_label_map(_png(image_module.fromarray(labels, mode="L")))
    assert gray.dtype == np.uint8 and np.array_equal(gray, labels)
    palette = image_module.fromarray(labels, mode="L").convert("P")
    palette.putpalette([v for i in range(256) for v in (i, 255 - i, i // 2)])
    assert np.array_equal(read_label_map(_png(palette)), np.asarray(palette))
    wide = np.array([[0, 300], [65535, 4]], dtype=np.uint16)
    read = read_label_map(_png(image_module.fromarray(wide)))
    assert read.dtype == np.uint16 and np.array_equal(read, wide)
    bits = read_label_map(_png(image_module.fromarray(labels > 1)))
    assert bits.dtype == np.uint8 and np.array_equal(bits, (labels > 1).astype(np.uint8))


def test_bad_bytes_are_refused():
    image_module = pytest.importorskip("PIL.Image")
    color = _png(image_module.new("RGB", (2, 2)))
    for data, match in (
        (b"GIF89a....", "neither a PNG nor a .npy file"),
        (color, "column 'gt': a PNG of mode RGB"),
        (color[:30], "a broken PNG"),
        (_npy(np.zeros((2, 2)))[:20], "a broken .npy file"),
        (_npy(np.zeros((2, 2))), "a map of float64"),
        (_npy(np.array([{"a": 1}], dtype=object)), "a broken .npy file"),  # pickles are not read
        (_npy(np.zeros((0, 3), np.uint8)), r"an empty label map \(shape \(0, 3\)\)"),
        (_npy(np.uint8(3)), "an empty label map"),
    ):
        with pytest.raises(ValueError, match=match):
            read_label_map(data, "column 'gt'")
    with pytest.raises(TypeError, match=r"bytes of PNG or \.npy files, got str"):
        read_label_map("gt.png")
