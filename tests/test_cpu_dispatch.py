"""The CPU dispatch (cpp/include/turbometrics/isa.hpp) as the extension reports it.

Every kernel that has per-instruction-set copies takes them through one
mechanism; ``_core.threads.cpu_dispatch()`` reports what it compiled and chose. A
build with ``TURBOMETRICS_FORCE_GENERIC`` (``.ci/portable``) compiles the
generic copy only, on every processor.
"""

import platform

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
