"""Static types of the public functions: mypy --strict and pyright accept the
usual annotations (a float from an averaged score, an array from
average=None), and refuse a wrong one."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# Slow (seconds per test: mypy and pyright in subprocesses): `pytest -m "not slow"` leaves it out.
pytestmark = pytest.mark.slow

_SNIPPET = textwrap.dedent("""
    from typing import Optional, Union

    import numpy as np
    import turbometrics as tm

    y = np.array([0, 1, 1, 0])
    s = np.array([0.1, 0.8, 0.4, 0.5])
    auc: float = tm.roc_auc_score(y, s)
    macro_auc: float = tm.roc_auc_score(y, s, average="weighted")
    ap: float = tm.average_precision_score(y, s)
    maybe_per_label: Union[float, np.ndarray] = tm.roc_auc_score(y, s, average=None)
    p: float = tm.precision_score(y, s > 0.45)
    r: float = tm.recall_score(y, s > 0.45, average="micro")
    f: float = tm.f1_score(y, s > 0.45, average="macro")
    fb: float = tm.fbeta_score(y, s > 0.45, beta=2.0)
    j: float = tm.jaccard_score(y, s > 0.45)
    per_label: np.ndarray = tm.f1_score(y, s > 0.45, average=None)
    chosen: Optional[str] = None
    either: Union[float, np.ndarray] = tm.precision_score(y, s > 0.45, average=chosen)
    accuracy: float = tm.accuracy_score(y, s > 0.45)
    state = tm.ConfusionState.from_arrays(y, s > 0.45)
    state_f1: float = state.f1_score()
""")


def test_mypy_strict_accepts_float_and_array_annotations(tmp_path):
    pytest.importorskip("mypy")
    (tmp_path / "snippet.py").write_text(_SNIPPET)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", "snippet.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _pyright(tmp_path, source: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "snippet.py").write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "snippet.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )


def test_pyright_accepts_float_and_array_annotations(tmp_path):
    pytest.importorskip("pyright")
    result = _pyright(tmp_path, _SNIPPET)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyright_refuses_a_wrong_annotation(tmp_path):
    """The check above sees turbometrics' types (a missing package would be Unknown)."""
    pytest.importorskip("pyright")
    result = _pyright(tmp_path, _SNIPPET + "wrong: str = tm.roc_auc_score(y, s)\n")
    assert result.returncode == 1 and '"float" is not assignable to declared type "str"' in result.stdout
