"""Peak resident memory of one call, measured in a fresh child process
(Linux), shared by the benchmark scripts' ``--peak`` options."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def peak_kb(function: Callable[[], Any]) -> int:
    """Peak resident memory (KB) of one call above the resident memory
    before it (Linux: the high-water mark reset through /proc/self/clear_refs)."""
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    function()
    return _status("VmHWM") - before


def peak_mb_in_child(module: str, factory: str, kwargs: dict[str, Any], name: str) -> float:
    """Peak memory (MB) of the first call ``module.factory(**kwargs)[name]()``
    in a fresh child process: ``factory`` builds the inputs (not measured)
    and returns a dict of calls; a call's ``prepare`` attribute, where it
    has one, builds its own inputs first (not measured); ``kwargs`` must be
    JSON."""
    code = (
        f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import peak_memory, {module} as m; "
        f"f = m.{factory}(**json.loads({json.dumps(kwargs)!r}))[{name!r}]; "
        "getattr(f, 'prepare', lambda: None)(); print(peak_memory.peak_kb(f))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if out.returncode:
        raise RuntimeError(f"the peak-memory child of {name!r} failed:\n{out.stderr[-2000:]}")
    return int(out.stdout.split()[-1]) / 1024
