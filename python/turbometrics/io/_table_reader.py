"""Reading a table of predictions chunk by chunk: Parquet, CSV, NPY, JSON Lines.

:func:`open_table` returns a :class:`Table` whose :meth:`Table.chunks`
yields ``{column: ndarray}`` for at most ``chunk_rows`` rows at a time, so
files larger than memory stream through. Parquet needs pyarrow (an optional
extra); the other formats need NumPy only.

- Parquet: every column of the Arrow schema (dictionary columns decoded).
- CSV: comma-separated, the first row names the columns. Read by
  pyarrow's streaming reader when pyarrow is installed (types inferred per
  column), else by the csv module (a chunk's column of text becomes
  int64 or float64 when every value parses as one, as pyarrow infers it;
  other text is converted by the caller: see :func:`numeric`); both parse
  numbers to the same doubles.
- NPY: a structured array (columns = field names) or a 2-D array (columns
  = "0", "1", ...), memory-mapped so only one chunk is read at a time.
- JSON Lines: one JSON object per line; the first object's keys are the
  columns, and every object must have the selected ones.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from .._common.input_error import InputError, first_line, shown

__all__ = ["FORMATS", "Coded", "Table", "detect_format", "labels_array", "missing", "numeric", "open_table"]

FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npy": "npy", ".jsonl": "jsonl", ".ndjson": "jsonl"}


class Coded:
    """A text column as codes into its distinct values (how Arrow's
    dictionary encoding holds it), without a Python string per row.

    Attributes
    ----------
    codes : ndarray of int32, shape (n,)
        Each row's index into ``values``; -1 for a null.
    values : ndarray of object
        The distinct values (str), each once.
    """

    def __init__(self, codes: np.ndarray, values: np.ndarray) -> None:
        self.codes = codes
        self.values = values


Chunk = dict[str, Any]  # name -> ndarray, or Coded for the columns asked for so


def detect_format(path: Path, given: str | None) -> str:
    """The format named by ``given``, or the one of the file's extension."""
    if given is not None:
        return given
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(FORMATS))
        raise InputError(f"{path}: unknown format {path.suffix or '(no extension)'!r}; use one of {known} or --format")
    return fmt


class Table:
    """A file of named columns read in chunks.

    Attributes
    ----------
    columns : list of str
        Column names in file order.
    total : int or None
        Progress units in the whole file (rows, or bytes for text formats).
    unit : str
        "rows" or "B".
    """

    def __init__(self, path: Path, columns: list[str], total: int | None, unit: str) -> None:
        self.path = path
        self.columns = columns
        self.total = total
        self.unit = unit

    def chunks(self, names: Sequence[str], chunk_rows: int, coded: Sequence[str] = ()) -> Iterator[tuple[Chunk, int]]:
        """Yield ``(columns, progress)``: the named columns of the next
        ``chunk_rows`` rows (fewer at the end) and the progress units read.
        A column named in ``coded`` may come as :class:`Coded` instead of
        an array: text columns of Parquet, and of CSV read by pyarrow."""
        raise NotImplementedError


class _ParquetTable(Table):
    def __init__(self, path: Path) -> None:
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise InputError("reading Parquet needs pyarrow: pip install 'turbometrics[parquet]'") from None
        try:
            self._file = pq.ParquetFile(path)
        except (ValueError, OSError) as exc:  # pyarrow's ArrowInvalid is a ValueError
            raise InputError(f"{path}: not a Parquet file ({first_line(exc)})") from None
        super().__init__(path, list(self._file.schema_arrow.names), self._file.metadata.num_rows, "rows")

    def chunks(self, names: Sequence[str], chunk_rows: int, coded: Sequence[str] = ()) -> Iterator[tuple[Chunk, int]]:
        import pyarrow as pa

        batches = self._file.iter_batches(batch_size=chunk_rows, columns=list(names))
        while True:
            try:
                batch = next(batches, None)
            except (OSError, pa.ArrowException) as exc:  # a damaged file, found when read
                raise InputError(f"{self.path}: {first_line(exc)}") from None
            if batch is None:
                return
            yield _arrow_columns(pa, batch, coded), batch.num_rows


class _NpyTable(Table):
    def __init__(self, path: Path) -> None:
        try:
            self._array = np.load(path, mmap_mode="r", allow_pickle=False)
        except EOFError:  # a file of zero bytes, or one cut inside the header
            raise InputError(f"{path}: not a .npy file (it ends before its header)") from None
        except (ValueError, OSError) as exc:
            raise InputError(f"{path}: not a .npy file of numbers ({first_line(exc)})") from None
        array = self._array
        if not isinstance(array, np.ndarray):
            raise InputError(f"{path}: not a .npy array file")
        if array.dtype.names is not None and array.ndim == 1:
            columns = list(array.dtype.names)
        elif array.dtype.names is None and array.ndim == 2:
            columns = [str(i) for i in range(array.shape[1])]
        else:
            raise InputError(f"{path}: expected a structured 1-D array or a 2-D array, got shape {array.shape}")
        super().__init__(path, columns, int(array.shape[0]), "rows")

    def chunks(self, names: Sequence[str], chunk_rows: int, coded: Sequence[str] = ()) -> Iterator[tuple[Chunk, int]]:
        array = self._array
        structured = array.dtype.names is not None
        for start in range(0, array.shape[0], chunk_rows):
            rows = array[start : start + chunk_rows]
            yield ({name: np.array(rows[name] if structured else rows[:, int(name)]) for name in names}, rows.shape[0])


class _TextTable(Table):
    """CSV and JSON Lines: read line by line; progress counts bytes."""

    def __init__(self, path: Path, fmt: str) -> None:
        self._fmt = fmt
        with open(path, "rb") as handle:
            first = _first_record(handle, fmt, path)
        columns = list(first.keys()) if isinstance(first, dict) else list(first)
        super().__init__(path, columns, os.path.getsize(path), "B")

    def _records(self, handle: Any, counter: list[int]) -> Iterator[tuple[int, Any]]:
        def lines() -> Iterator[str]:
            for raw in handle:
                counter[0] += len(raw)
                yield _decode(raw, first=counter[0] == len(raw))

        if self._fmt == "csv":
            reader = csv.reader(lines())
            next(reader, None)  # the header
            for row in reader:
                if row:
                    yield reader.line_num, row
        else:
            for number, line in enumerate(lines(), start=1):
                if line.strip():
                    yield number, _parse_json(line, self.path, number)

    def chunks(self, names: Sequence[str], chunk_rows: int, coded: Sequence[str] = ()) -> Iterator[tuple[Chunk, int]]:
        positions = [self.columns.index(name) for name in names]
        counter = [0]
        reported = 0
        try:
            with open(self.path, "rb") as handle:
                rows: list[Any] = []
                for number, record in self._records(handle, counter):
                    rows.append(self._pick(record, number, names, positions))
                    if len(rows) == chunk_rows:
                        yield self._columns(rows, names), counter[0] - reported
                        reported, rows = counter[0], []
                if rows:
                    yield self._columns(rows, names), counter[0] - reported
        except UnicodeDecodeError:
            raise InputError(f"{self.path}: not UTF-8 text") from None
        except csv.Error as exc:
            raise InputError(f"{self.path}: not CSV ({exc})") from None

    def _pick(self, record: Any, number: int, names: Sequence[str], positions: Sequence[int]) -> tuple:
        if self._fmt == "csv":
            if len(record) != len(self.columns):
                raise InputError(
                    f"{self.path}: line {number}: {len(record)} fields, the header has {len(self.columns)}"
                )
            return tuple(record[i] for i in positions)
        if not isinstance(record, dict):
            raise InputError(f"{self.path}: line {number}: not a JSON object")
        try:
            return tuple(record[name] for name in names)
        except KeyError as exc:
            raise InputError(f"{self.path}: line {number}: no key {exc.args[0]!r}") from None

    def _columns(self, rows: list[tuple], names: Sequence[str]) -> Chunk:
        if self._fmt != "csv":  # JSON Lines: null is JSON's null
            return {name: _column_array(values) for name, values in zip(names, zip(*rows))}
        # CSV text: an empty field is null (pandas' NaN), the rest numbers where pyarrow's reader
        # would infer them (a "nan" group is null too)
        return {
            name: _numbers_if_all(_column_array([v if v else None for v in values] if "" in values else values))
            for name, values in zip(names, zip(*rows))
        }


class _ArrowCsvTable(Table):
    """CSV read by pyarrow's streaming reader (much faster than the csv
    module), when pyarrow is installed. Blocks hold about ``chunk_rows``
    rows, estimated from the length of the first lines. An empty field
    (quoted or not) is null, as pandas reads it (NaN); no other text is
    (as with the csv module, "n/a" in a number column is an error)."""

    def __init__(self, path: Path, columns: list[str]) -> None:
        super().__init__(path, columns, os.path.getsize(path), "B")

    def chunks(self, names: Sequence[str], chunk_rows: int, coded: Sequence[str] = ()) -> Iterator[tuple[Chunk, int]]:
        import pyarrow as pa
        import pyarrow.csv as pcsv

        with open(self.path, "rb") as handle:
            sample = handle.read(1 << 16)
            line_bytes = max(1, len(sample) // max(1, sample.count(b"\n")))
            handle.seek(0)
            block = int(min(max(chunk_rows * line_bytes, 1 << 12), 1 << 30))
            reported = 0
            try:
                reader = pcsv.open_csv(
                    handle,
                    read_options=pcsv.ReadOptions(block_size=block),
                    convert_options=pcsv.ConvertOptions(
                        include_columns=list(names), null_values=[""], strings_can_be_null=True
                    ),
                )
                for batch in reader:
                    if any(pa.types.is_binary(column.type) for column in batch.columns):
                        raise InputError(f"{self.path}: not UTF-8 text")  # pyarrow's type for such text
                    position = handle.tell()
                    yield _arrow_columns(pa, batch, coded), position - reported
                    reported = position
            except pa.ArrowInvalid as exc:
                raise InputError(f"{self.path}: {first_line(exc)}") from None


def _arrow_columns(pa: Any, batch: Any, coded: Sequence[str]) -> Chunk:
    """A record batch's columns as NumPy; text columns named in ``coded``
    as :class:`Coded` (Arrow's dictionary encoding: no Python string per
    row)."""
    out: Chunk = {}
    for name, column in zip(batch.schema.names, batch.columns):
        kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
        if name in coded and (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            encoded = column if pa.types.is_dictionary(column.type) else column.dictionary_encode()
            codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
            out[name] = Coded(codes, np.asarray(encoded.dictionary.to_pylist(), dtype=object))
        else:
            out[name] = _arrow_numpy(pa, column)
    return out


def _arrow_numpy(pa: Any, column: Any) -> np.ndarray:
    """An Arrow column as NumPy (dictionary columns decoded)."""
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    return column.to_numpy(zero_copy_only=False)


def _column_array(values: Sequence[Any]) -> np.ndarray:
    """One column of parsed rows as a 1-D array: NumPy's dtype when the
    values are all numbers, all booleans or all strings; otherwise (a mix,
    nulls, nested values) an object array, which the caller rejects or
    converts value by value."""
    kinds = set(map(type, values))
    if kinds <= {int, float} or kinds <= {bool} or kinds <= {str}:
        array = np.asarray(values)
        if array.ndim == 1:
            return array
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _decode(raw: bytes, first: bool) -> str:
    """A line of UTF-8 text; the file's first line may start with a
    byte-order mark (Excel's "CSV UTF-8" writes one), which is dropped."""
    return raw.decode("utf-8-sig" if first else "utf-8")


def _parse_json(text: str, path: Path, number: int) -> Any:
    """Line ``number`` of a JSON Lines file, parsed.

    Raises
    ------
    InputError
        For text that is not JSON, an integer of more digits than Python
        converts (``sys.get_int_max_str_digits()``, 4,300 by default), or
        JSON nested too deeply for Python's parser (a RecursionError).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {number}: not JSON ({exc.msg})") from None
    except ValueError:  # the only other ValueError of json.loads on text
        limit = sys.get_int_max_str_digits()
        raise InputError(f"{path}: line {number}: an integer of more than {limit:,} digits") from None
    except RecursionError:
        raise InputError(f"{path}: line {number}: JSON nested too deeply") from None


def _first_record(handle: Any, fmt: str, path: Path) -> Any:
    try:
        for number, line in enumerate(handle, start=1):
            text = _decode(line, first=number == 1)
            if not text.strip():
                continue
            if fmt == "csv":
                return next(csv.reader(io.StringIO(text)))
            record = _parse_json(text, path, number)
            if not isinstance(record, dict):
                raise InputError(f"{path}: JSON Lines rows must be objects")
            return record
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    raise InputError(f"{path}: empty file")


def _has_pyarrow() -> bool:
    try:
        import pyarrow.csv  # noqa: F401
    except ImportError:
        return False
    return True


def open_table(path: Any, fmt: str | None = None) -> Table:
    """Open ``path`` for reading in chunks, as ``fmt`` or by its extension.

    Raises
    ------
    InputError
        For a missing or unreadable file, an unknown format, a missing
        optional dependency (pyarrow), or a file that is not of its format.
    """
    path = Path(path)
    fmt = detect_format(path, fmt)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    try:
        if fmt == "parquet":
            return _ParquetTable(path)
        if fmt == "npy":
            return _NpyTable(path)
        table = _TextTable(path, fmt)
        if fmt == "csv" and _has_pyarrow():
            return _ArrowCsvTable(path, table.columns)
        return table
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None


def missing(values: np.ndarray) -> np.ndarray:
    """Which values are missing: None (JSON null, a Parquet null in a text
    column) or NaN (a Parquet null in a number column)."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind == "O":
        try:  # elementwise in C: None, or not equal to itself (NaN)
            return np.equal(values, cast(Any, None)) | np.not_equal(values, values)  # NumPy's stubs omit None
        except (ValueError, TypeError):  # elements whose comparison is no bool (arrays of a list column)
            return np.fromiter(
                (v is None or (isinstance(v, float) and v != v) for v in values), dtype=bool, count=values.shape[0]
            )
    return np.zeros(values.shape[0], dtype=bool)


def _refuse_missing(name: str, values: np.ndarray, first_row: int) -> None:
    """InputError naming the first row (numbered from ``first_row``) whose
    value is missing (see :func:`missing`)."""
    absent = missing(values)
    if absent.any():
        raise InputError(f"column {name!r}: missing value (null) in row {first_row + int(np.argmax(absent)):,}")


def numeric(name: str, values: np.ndarray, first_row: int = 1) -> np.ndarray:
    """Column ``name`` as numbers (bool, int or float arrays unchanged;
    text converted to float64). ``first_row`` numbers the rows in messages.

    Raises
    ------
    InputError
        Naming the column and the first value that is not a number.
    """
    if values.dtype.kind in "biuf":
        return values
    _refuse_missing(name, values, first_row)
    try:
        return values.astype(np.float64)
    except (ValueError, TypeError):
        for value in values:
            try:
                float(value)
            except (ValueError, TypeError):
                raise InputError(f"column {name!r}: non-numeric value {shown(value)}") from None
        raise InputError(f"column {name!r}: non-numeric values") from None


def _numbers_if_all(values: np.ndarray) -> np.ndarray:
    """Text or objects as int64 when every value is an integer, else as
    float64 when every value is a number; otherwise unchanged. Nulls
    (None) are NaN in a column of numbers (float64 then, as pyarrow reads
    an integer column with nulls)."""
    absent = missing(values) if values.dtype.kind == "O" else None
    if absent is not None and absent.any():
        present = _numbers_if_all(values[~absent])
        if present.dtype.kind not in "iuf":
            return values
        out = np.full(values.shape[0], np.nan)
        out[~absent] = present
        return out
    for dtype in (np.int64, np.float64):
        try:
            return values.astype(dtype)
        except (ValueError, TypeError, OverflowError):
            continue
    return values


def labels_array(name: str, values: np.ndarray, first_row: int = 1) -> np.ndarray:
    """Column ``name`` as labels: numbers when every value is one (text
    like "1" becomes int64, or float64), else strings. ``first_row``
    numbers the rows in messages.

    Raises
    ------
    InputError
        For missing values (null / None, or NaN, which is how a Parquet
        null reaches a number column) and infinite ones, naming the first
        such row.
    """
    _refuse_missing(name, values, first_row)
    if values.dtype.kind not in "biuf":
        values = _numbers_if_all(values)
        if values.dtype.kind not in "iuf":
            return values.astype(str)
        _refuse_missing(name, values, first_row)  # text "nan"
    if values.dtype.kind == "f" and np.isinf(values).any():
        row = first_row + int(np.argmax(np.isinf(values)))
        raise InputError(f"column {name!r}: infinite label {shown(values[row - first_row])} in row {row:,}")
    return values
