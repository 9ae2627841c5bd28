"""Safe serialisation of states: versioned bytes that hold only arrays.

The layout is a NumPy ``.npz`` archive (a zip of ``.npy`` members, see
``numpy.lib.format``) with:

* ``__header__``: a uint8 array holding UTF-8 JSON, an object with
  ``"format": "turbometrics-state"``, ``"format_version"`` (this module's
  :data:`FORMAT_VERSION`), ``"kind"`` (the state's class name),
  ``"version"`` (the state's own layout version) and ``"fields"`` (the
  state's scalar fields: JSON numbers, strings, booleans, null, lists and
  objects);
* one member per array field, in a non-object dtype.

Loading never unpickles: ``np.load(..., allow_pickle=False)`` refuses
object arrays, and the header is parsed by :mod:`json`. What comes back is
only arrays and JSON values, which the state then validates as it
validates any array input, so corrupted or tampered bytes raise
ValueError instead of reaching the kernels.
"""

from __future__ import annotations

import io
import json
import math
import struct
import zipfile
from collections.abc import Mapping
from typing import IO, Any

import numpy as np

from .. import _core
from .input_error import first_line

FORMAT = "turbometrics-state"
FORMAT_VERSION = 1
_HEADER = "__header__"
_CHUNK = 1 << 24  # bytes read at a time from a member
#: uint64 limbs of an exact sum (``ExactSum``: a fixed-point integer worth ``2**-1100`` per unit).
EXACT_SUM_LIMBS: int = _core.exact_sums.LIMBS


def _json_default(value: Any) -> Any:
    """NumPy scalars as their Python values; anything else is refused."""
    if isinstance(value, (np.integer, np.floating, np.bool_, np.str_)):
        return value.item()
    raise TypeError(f"a state field of type {type(value).__name__} cannot be serialised")


def dump_state(kind: str, version: int, fields: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> bytes:
    """The bytes of a state: its JSON-able ``fields`` and its ``arrays``.

    Raises
    ------
    TypeError
        If a field is not JSON-able or an array has object dtype.
    """
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "version": version,
        "fields": dict(fields),
    }
    text = json.dumps(header, default=_json_default, sort_keys=True)
    members: dict[str, np.ndarray] = {_HEADER: np.frombuffer(text.encode(), dtype=np.uint8)}
    for name, array in sorted(arrays.items()):
        array = np.asarray(array)
        if array.dtype.hasobject:
            raise TypeError(f"state array {name!r} has object dtype and cannot be serialised")
        members[name] = array
    return _npz(members)


def _npz(members: Mapping[str, np.ndarray]) -> bytes:
    """The ``.npz`` archive of ``members`` (what ``np.savez`` writes, with
    every entry dated 1980-01-01 so that one state always gives the same
    bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, array in members.items():
            with archive.open(
                zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0)), "w", force_zip64=True
            ) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    return buffer.getvalue()


def load_state(data: Any, kind: str, version: int) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The ``(fields, arrays)`` of bytes written by :func:`dump_state` for
    a state of this ``kind`` and ``version``; nothing is unpickled.

    Raises
    ------
    ValueError
        If the bytes are not such an archive, hold an object array, or are
        of another kind, format or version.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{kind}.from_bytes takes bytes, not {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(b"PK"):  # np.load would try other formats (.npy, pickle) on such bytes
        raise ValueError(f"not a serialised {kind}: not an .npz archive")
    members = read_members(data, f"not a serialised {kind}")
    raw = members.pop(_HEADER, None)
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
        raise ValueError(f"not a serialised {kind}: no header")
    try:
        header = json.loads(raw.tobytes().decode())
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError(f"not a serialised {kind}: the header is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"not a serialised {kind}: unknown format")
    if header.get("format_version") != FORMAT_VERSION:
        raise ValueError(
            f"serialised state format version {header.get('format_version')!r} is not supported "
            f"(this is version {FORMAT_VERSION})"
        )
    if header.get("kind") != kind:
        raise ValueError(f"the bytes hold a {header.get('kind')!r}, not a {kind}")
    if header.get("version") != version:
        raise ValueError(
            f"serialised {kind} version {header.get('version')!r} is not supported (this is version {version})"
        )
    fields = header.get("fields")
    if not isinstance(fields, dict):
        raise ValueError(f"not a serialised {kind}: the header has no fields")
    return fields, members


def read_members(data: bytes, refusal: str) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive of uncompressed ``.npy`` members,
    read without trusting a size it claims: each member must be stored (not
    compressed nor encrypted), named ``<name>.npy`` once, and hold exactly
    the bytes its ``.npy`` header's shape and dtype (numeric, bool or
    fixed-width string) call for, so reading costs at most about the size
    of ``data`` whatever the archive says.

    Raises
    ------
    ValueError
        Starting with ``refusal``, for anything else.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            for info in infos:
                _check_member(info, len(data), refusal)
            names = [info.filename[: -len(".npy")] for info in infos]
            if len(set(names)) != len(names):
                raise ValueError(f"{refusal}: a member name repeats")
            members = {}
            for name, info in zip(names, infos):
                with archive.open(info) as member:
                    members[name] = _npy(member, info.file_size, name, refusal)
            return members
    except (OSError, EOFError, zipfile.BadZipFile, KeyError, NotImplementedError, RuntimeError, struct.error) as error:
        raise ValueError(f"{refusal}: {error}") from None


def _check_member(info: zipfile.ZipInfo, size: int, refusal: str) -> None:
    """A member is a stored ``<name>.npy`` of at most ``size`` bytes."""
    name = info.filename
    if not name.endswith(".npy"):
        raise ValueError(f"{refusal}: member {name!r} is not an .npy array")
    if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:
        raise ValueError(f"{refusal}: member {name!r} is compressed or encrypted (states are stored uncompressed)")
    if info.file_size != info.compress_size or info.file_size > size:
        raise ValueError(f"{refusal}: member {name!r} claims {info.file_size} bytes, more than the archive holds")


def array_dtype(name: Any, what: str) -> np.dtype:
    """The dtype a state array may have, from its name: a number, bool or
    fixed-width string dtype (no object, record or zero-size dtype).

    Raises
    ------
    ValueError
        Starting with ``what``.
    """
    try:
        dtype = np.dtype(name) if isinstance(name, str) else None
    except (TypeError, ValueError, SyntaxError):
        dtype = None
    if dtype is None:
        raise ValueError(f"{what}: {name!r} is not a dtype")
    _check_dtype(dtype, what)
    return dtype


def _check_dtype(dtype: np.dtype, what: str) -> None:
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None or dtype.itemsize == 0:
        raise ValueError(f"{what} has dtype {dtype}, not a number, bool or string dtype")


def _npy(stream: IO[bytes], size: int, name: str, refusal: str) -> np.ndarray:
    """The array of one ``.npy`` member of ``size`` bytes, its header
    checked against the bytes that follow it before anything is allocated,
    then read in chunks into the array (no second copy of the member)."""
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
        else:
            raise ValueError(f".npy format version {version} is not supported")
    except (ValueError, TypeError, SyntaxError, RecursionError, OverflowError, KeyError) as error:
        raise ValueError(f"{refusal}: member {name!r} is not an .npy array ({first_line(error)})") from None
    _check_dtype(dtype, f"{refusal}: member {name!r}")
    if not all(isinstance(n, int) and n >= 0 for n in shape):
        raise ValueError(f"{refusal}: member {name!r} has shape {shape}")
    count, left = math.prod(shape), size - stream.tell()
    if count * dtype.itemsize != left:
        raise ValueError(
            f"{refusal}: member {name!r} of shape {shape} and dtype {dtype} needs "
            f"{count * dtype.itemsize} bytes, but holds {left}"
        )
    array = np.empty(count, dtype)
    into, done = array.view(np.uint8), 0
    while done < left:
        chunk = stream.read(min(_CHUNK, left - done))
        if not chunk:
            raise ValueError(f"{refusal}: member {name!r} is truncated")
        into[done : done + len(chunk)] = np.frombuffer(chunk, np.uint8)
        done += len(chunk)
    stream.read(1)  # at the end: the member's CRC is checked
    return array.reshape(shape, order="F" if fortran else "C")


def ints_from_limbs(limbs: np.ndarray) -> list[int]:
    """Exact sums (fixed-point ints) from (n, limbs) little-endian two's
    complement uint64 limbs."""
    data = np.ascontiguousarray(limbs, dtype="<u8").tobytes()  # one conversion, not one per row
    width = 8 * limbs.shape[1]
    return [int.from_bytes(data[i : i + width], "little", signed=True) for i in range(0, width * len(limbs), width)]


def limbs_from_ints(values: list[int]) -> np.ndarray:
    """The (n, limbs) uint64 limbs of exact sums (the inverse of :func:`ints_from_limbs`).

    Raises
    ------
    OverflowError
        For an int too large for the limbs.
    """
    data = b"".join(value.to_bytes(8 * EXACT_SUM_LIMBS, "little", signed=True) for value in values)
    return np.frombuffer(data, dtype="<u8").reshape(len(values), EXACT_SUM_LIMBS).copy()
