"""Rules of the test suite itself: the tests of an area live in
``tests/<area>/``, and no test asserts nothing."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "python" / "turbometrics"
# Calls that fail a test: pytest's, and exec of documentation examples (which fail by raising).
_FAILING_CALLS = {"raises", "warns", "deprecated_call", "fail", "exec"}


def _called_name(call: ast.Call) -> str:
    function = call.func
    return (
        function.attr if isinstance(function, ast.Attribute) else function.id if isinstance(function, ast.Name) else ""
    )


def _checks_directly(function: ast.AST) -> bool:
    """An ``assert``, a failing call, or ``subprocess.run(..., check=True)``."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Call):
            name = _called_name(node)
            if name in _FAILING_CALLS or name.startswith("assert"):
                return True
            if name == "run" and any(k.arg == "check" for k in node.keywords):
                return True
    return False


def _functions() -> dict[str, list[ast.AST]]:
    """Every function and lambda-free definition of the suite, by name."""
    found: dict[str, list[ast.AST]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(node.name, []).append(node)
    return found


def _checking(functions: dict[str, list[ast.AST]]) -> set[str]:
    """The names of the functions that check something, directly or through
    a function of the suite that does (a fixed point over names)."""
    checking = {name for name, nodes in functions.items() if any(_checks_directly(node) for node in nodes)}
    while True:
        more = {
            name
            for name, nodes in functions.items()
            if name not in checking
            and any(
                isinstance(call, ast.Call) and _called_name(call) in checking
                for node in nodes
                for call in ast.walk(node)
            )
        }
        if not more:
            return checking
        checking |= more


def test_no_test_asserts_nothing():
    functions = _functions()
    checking = _checking(functions)
    empty = sorted(name for name in functions if name.startswith("test_") and name not in checking)
    assert empty == []


def test_the_rule_sees_a_test_that_asserts_nothing():
    source = "def helper(x):\n    return x\n\ndef test_a():\n    helper(1)\n\ndef test_b():\n    assert helper(1)\n"
    functions: dict[str, list[ast.AST]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            functions.setdefault(node.name, []).append(node)
    assert sorted(set(functions) - _checking(functions)) == ["helper", "test_a"]


# Areas named after a package the tests import: their folder is <area>_tests, as a
# folder named dask in tests/ (on sys.path) would be imported as dask where dask is
# not installed.
_SHADOWING = {"dask", "sklearn", "torch"}


def _folder(area: str) -> str:
    return f"{area}_tests" if area in _SHADOWING else area


def test_area_tests_live_in_their_area():
    """A test module named after an area (``test_<area>.py``,
    ``test_<area>_*.py``; not ``test_torchmetrics_patch.py``) lives in
    ``tests/<area>/``; ``tests/`` itself holds the package-wide tests."""
    areas = sorted(path.name for path in PACKAGE.iterdir() if path.is_dir() and not path.name.startswith("_"))
    misplaced = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        for area in areas
        if (path.stem == f"test_{area}" or path.stem.startswith(f"test_{area}_")) and path.parent.name != _folder(area)
    ]
    assert misplaced == []
    assert {path.parent.name for path in TESTS.glob("*/test_*.py")} <= {_folder(area) for area in areas}
    assert not any((TESTS / area).exists() for area in _SHADOWING)


_GROUPED_TESTS = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("{group}")


@pytest.mark.parametrize("case", range(6))
def test_case(case):
    with open(os.environ["WORKERS_SEEN"], "a") as seen:
        seen.write("{group} " + os.environ["PYTEST_XDIST_WORKER"] + "\\n")
"""


@pytest.mark.slow
def test_loadgroup_keeps_each_group_on_one_worker(tmp_path):
    """``--dist loadgroup`` (the README's command) runs the tests of one
    ``xdist_group`` on one worker, so that the Spark, Ray and dask-cluster
    tests start one session or cluster each. pytest 9.2.0 with
    pytest-xdist 3.8.0 silently drops the grouping (pytest-xdist issue
    1386) and spreads the tests over every worker."""
    for group in ("first", "second"):
        for module in ("a", "b"):
            (tmp_path / f"test_{group}_{module}.py").write_text(_GROUPED_TESTS.format(group=group))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    seen = tmp_path / "seen.txt"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env={**os.environ, "WORKERS_SEEN": str(seen)},
        check=True,
        capture_output=True,
    )
    workers: dict[str, set[str]] = {}
    for line in seen.read_text().splitlines():
        group, worker = line.split()
        workers.setdefault(group, set()).add(worker)
    assert {group: len(names) for group, names in workers.items()} == {"first": 1, "second": 1}
    assert sum(1 for _ in seen.read_text().splitlines()) == 24
