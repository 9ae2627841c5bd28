"""Reading JSON files: orjson when it is installed (an optional extra),
else the standard library. Both give the same Python objects."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Union

PathLike = Union[str, "os.PathLike[str]"]


def loads(data: bytes | str) -> Any:
    """Parse JSON text."""
    try:
        import orjson
    except ImportError:
        return json.loads(data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # orjson rejects NaN and Infinity, which the standard library accepts
        return json.loads(data)


def load(path: PathLike) -> Any:
    """Parse a JSON file."""
    return loads(Path(path).read_bytes())
