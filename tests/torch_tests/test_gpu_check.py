"""``benchmarks/gpu_check.py --device cpu --quick``: the GPU check's steps,
fuzz and timing run on the CPU device at small n, every bit equal."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "gpu_check.py"


@pytest.mark.slow
def test_gpu_check_runs_on_the_cpu(monkeypatch, tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("gpu_check", _SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = tmp_path / "report.json"
    argv = ["gpu_check.py", "--device", "cpu", "--quick", "--max-n", "3000", "--repeats", "1", "--json", str(report)]
    monkeypatch.setattr(sys, "argv", argv)
    assert module.main() == 0
    assert "all bits equal" in capsys.readouterr().out
    result = json.loads(report.read_text())
    assert result["failures"] == []
    assert [row["n"] for row in result["timings (s, median)"]] == [3000]
    assert all(row["roc_auc_score bits equal"] for row in result["timings (s, median)"])
