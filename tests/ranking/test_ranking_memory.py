"""Peak memory of ``roc_auc_score``: about 8 bytes per sample beyond the inputs.

The table holds one 8-byte key per sample; nothing else may grow with the
input (the area's trapezoids are streamed into NumPy's summation tree, and
0/1 or bool labels are read in place). Measured by the ranking benchmark's
own probe, in a fresh process, from the peak resident set size.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_ranking.py"


def _bench_ranking() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ranking", _BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_ranking", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the probe reads Linux's peak RSS")
@pytest.mark.parametrize("label_dtype", ["int64", "bool"])
def test_roc_auc_score_peak_memory_is_about_one_key_per_sample(label_dtype: str) -> None:
    # 2e6 samples: 32 MB of inputs; before the streamed sum the probe read
    # 16.4 (int64) and 17.3 (bool) bytes per sample.
    report = _bench_ranking().run_memory_probe(2_000_000, label_dtype, "turbometrics", None)
    assert report["bytes_per_sample"] < 9.0, report
