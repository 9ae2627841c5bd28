"""The CPU dispatch (cpp/include/turbometrics/isa.hpp) as the extension reports it.

Every kernel that has per-instruction-set copies takes them through one
mechanism; ``_core.threads.cpu_dispatch()`` reports what it compiled and chose. A
build with ``TURBOMETRICS_FORCE_GENERIC`` (``.ci/portable``) compiles the
generic copy only, on every processor.
"""

import json
import os
import pathlib
import platform
import subprocess
import sys

import numpy as np
import pytest

from turbometrics import _core

SETS = ["generic", "avx2", "avx2_fma", "avx512"]


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


def test_reported_sets_are_consistent():
    facts = _core.threads.cpu_dispatch()
    assert facts["compiled"] in (["generic"], SETS)
    assert facts["best"] in facts["compiled"]
    best = SETS.index(facts["best"])
    # dispatch() has copies for generic, avx2_fma and avx512; dispatch_without_fma() for generic and avx2.
    assert facts["dispatch"] == {3: "avx512", 2: "avx2_fma"}.get(best, "generic")
    assert facts["dispatch_without_fma"] == ("avx2" if best >= 1 else "generic")


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64") or _cpu_flags() is None, reason="x86-64 Linux only")
def test_best_set_follows_the_processor():
    facts = _core.threads.cpu_dispatch()
    if facts["compiled"] == ["generic"]:  # TURBOMETRICS_FORCE_GENERIC, or a compiler without copies
        assert facts["best"] == "generic"
        return
    flags = _cpu_flags()
    if "avx2" not in flags:
        expected = "generic"
    elif "fma" not in flags:
        expected = "avx2"
    elif {"avx512f", "avx512dq", "avx512vl"} <= flags:
        expected = "avx512"
    else:
        expected = "avx2_fma"
    assert facts["best"] == expected


# --------------------------------------------------------------------------
# TURBOMETRICS_CPU_DISPATCH: a cap on best_isa(), read once per process, so
# each case runs in a subprocess (.ci/cpu_personalities runs the bit- and
# tolerance-asserting tests under the caps).

_REPORT = "import json, turbometrics; print(json.dumps(turbometrics._core.threads.cpu_dispatch()))"


def _run(cap: str | None, *args: str) -> str:
    env = dict(os.environ)
    env.pop("TURBOMETRICS_CPU_DISPATCH", None)
    if cap is not None:
        env["TURBOMETRICS_CPU_DISPATCH"] = cap
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _facts(cap: str | None) -> dict:
    return json.loads(_run(cap, "-c", _REPORT))


def test_dispatch_cap_lowers_the_set_and_never_raises_it():
    plain = _facts(None)
    detected = plain["detected"]
    assert plain["cap"] is None and not plain["cap_recognised"] and plain["best"] == detected
    for cap in SETS:
        facts = _facts(cap)
        assert facts["detected"] == detected
        assert facts["cap"] == cap and facts["cap_recognised"]
        expected = SETS[min(SETS.index(cap), SETS.index(detected))]
        assert facts["best"] == expected, (cap, facts)
        assert facts["dispatch"] == {3: "avx512", 2: "avx2_fma"}.get(SETS.index(expected), "generic")
        assert facts["dispatch_without_fma"] == ("avx2" if SETS.index(expected) >= 1 else "generic")


@pytest.mark.parametrize("value", ["", "AVX2", "avx512f"])
def test_dispatch_cap_unknown_or_empty_value_falls_back_to_detection(value):
    facts = _facts(value)
    assert facts["best"] == facts["detected"]
    assert not facts["cap_recognised"]
    assert facts["cap"] == (value or None)  # visible, so a misspelt cap is noticed


# tests/dispatch_values.py computes values of the kernels that have per-set copies. Promised
# identical on every build (docs/guide/metrics.md, "With FMA ..."): counts, iqr, the calibration
# bin tables and the label statistics. Sums of products (entropies, variances, the KDE sum) may
# differ in the last bits.
_VALUES = pathlib.Path(__file__).with_name("dispatch_values.py")
_IDENTICAL_ON_EVERY_BUILD = [
    "ece",
    "top_label",
    "diagram",
    "iqr",
    "label_stability",
    "jitter",
    "selection_rate",
    "confusion",
    "multilabel",
    "mean_max_confidence",
]


def test_every_copy_keeps_the_documented_promises(tmp_path):
    """Under every cap the processor allows: the values promised identical on
    every build are identical; the others agree to the documented bounds
    against the references (each copy is within them, so two copies are
    within twice them)."""
    detected = _facts(None)["detected"]
    caps = SETS[: SETS.index(detected) + 1]
    runs = {}
    for cap in caps:
        path = tmp_path / f"{cap}.npz"
        _run(cap, str(_VALUES), str(path))
        with np.load(path) as saved:
            runs[cap] = dict(saved)
    base = runs["generic"]
    for cap in caps[1:]:
        for name in _IDENTICAL_ON_EVERY_BUILD:
            assert runs[cap][name].tobytes() == base[name].tobytes(), (cap, name)
        for name, rtol, atol in [
            ("aleatoric", 2e-12, 2e-15),  # rtol 1e-12, atol 1e-15 against SciPy's xlogy
            ("mutual_info", 2e-12, 2e-15),
            ("variance", 2e-12, 0),  # rtol 1e-12 against np.var / np.std
            ("kde", 2e-9, 0),  # rtol 1e-9 against scikit-learn
            ("gaussian_kde", 2e-9, 0),  # log densities, rtol 1e-9 against scipy
            ("smooth", 2e-9, 0),  # the deposit to rounding (rel 1e-9) of the definition
            ("log_loss", 2e-12, 0),  # rtol 1e-12 against scikit-learn
        ]:
            np.testing.assert_allclose(runs[cap][name], base[name], rtol=rtol, atol=atol, err_msg=f"{cap} {name}")
