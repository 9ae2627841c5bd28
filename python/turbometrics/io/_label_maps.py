"""Label maps from the bytes of PNG and NPY files: what a DataFrame of
images holds (Spark's ``binaryFile`` source reads each file's bytes into a
``content`` column).

PNGs are read by Pillow (the ``png`` extra), imported when the first PNG
is read: 8-bit grayscale (mode ``L``) and 1-bit as uint8, 16-bit grayscale
(``I;16``) as uint16, 32-bit (``I``) as int32, and palette PNGs (``P``) as
their palette indices, as Cityscapes' scripts and mmsegmentation read them.
Color PNGs (RGB, RGBA, gray with alpha) are refused: a label map has one
channel. NPY files are read without pickles.
"""

from __future__ import annotations

import io

import numpy as np

_PNG = b"\x89PNG\r\n\x1a\n"
_NPY = b"\x93NUMPY"
#: Pillow's single-channel modes, and the dtype each is read as.
_PNG_MODES = {"1": np.uint8, "L": np.uint8, "P": np.uint8, "I;16": np.uint16, "I;16B": np.uint16, "I": np.int32}


def read_label_map(data: bytes, name: str = "label map") -> np.ndarray:
    """The label map held in ``data``, the bytes of a PNG or ``.npy`` file
    (told apart by their first bytes): an integer (or bool) array of at
    least one pixel.

    Parameters
    ----------
    data : bytes
        The file's bytes.
    name : str, default="label map"
        What the error messages call it (a column, a file).

    Raises
    ------
    ValueError
        For bytes that are neither a PNG nor an NPY file, a broken file, a
        color PNG, an NPY of another dtype than integers or bool, or an
        empty map.
    TypeError
        For ``data`` that is not bytes.
    ImportError
        For a PNG without Pillow.

    Examples
    --------
    >>> import io
    >>> import numpy as np
    >>> from turbometrics.io import read_label_map
    >>> buffer = io.BytesIO()
    >>> np.save(buffer, np.array([[0, 1], [2, 2]], dtype=np.uint8))
    >>> read_label_map(buffer.getvalue())
    array([[0, 1],
           [2, 2]], dtype=uint8)
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name}: label maps are the bytes of PNG or .npy files, got {type(data).__name__}")
    data = bytes(data)
    if data.startswith(_PNG):
        values = _png(data, name)
    elif data.startswith(_NPY):
        values = _npy(data, name)
    else:
        raise ValueError(f"{name}: neither a PNG nor a .npy file (its first bytes are {data[:8]!r})")
    if values.dtype.kind not in "biu":
        raise ValueError(f"{name}: a map of {values.dtype}; label maps hold integer labels")
    if values.ndim == 0 or values.size == 0:
        raise ValueError(f"{name}: an empty label map (shape {values.shape})")
    return values


def _npy(data: bytes, name: str) -> np.ndarray:
    try:
        return np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, EOFError, OSError) as error:
        raise ValueError(f"{name}: a broken .npy file ({error})") from None


def _png(data: bytes, name: str) -> np.ndarray:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("reading PNG label maps needs Pillow: pip install 'turbometrics[png]'") from None
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            mode = image.mode
            if mode not in _PNG_MODES:
                raise ValueError(
                    f"{name}: a PNG of mode {mode} ({len(image.getbands())} channels); label maps are "
                    "single-channel: grayscale (8 or 16 bits) or palette PNGs"
                )
            values = np.asarray(image)
    except (OSError, SyntaxError) as error:  # truncated or corrupt (Pillow raises SyntaxError for some)
        raise ValueError(f"{name}: a broken PNG ({error})") from None
    return values.astype(_PNG_MODES[mode], copy=False)
