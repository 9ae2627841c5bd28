"""The dependency direction of python/turbometrics/ (docs/guide/layout.md).

Each area (ranking, classification, calibration, density, stability,
detection, io; coco is the COCO format layer over detection) and each
adapter (states, dask, plot, sklearn, spark, cli, torch) uses another package only
through what that package exports: never its private modules
(``from ..ranking._scores import x``), never its private names
(``from ..ranking import _x``). ``_common`` (private utilities) and the
compiled ``_core`` may be imported by all; the root package, by the areas
and ``_common``, only for ``_core``. The layers (adapters -> areas ->
``_common``) are import-linter's contracts in pyproject.toml, run here.
No modules import each other in a cycle, through imports at the top of a
module or inside functions alike (imports under ``if TYPE_CHECKING:`` do
not run, and do not count).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "turbometrics"
SHARED = {"_common", "_core", "_registry"}
ADAPTERS = {"states", "evaluator", "dask", "plot", "sklearn", "spark", "cli", "torch"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, source: str) -> Iterator[tuple[int, str, list[str]]]:
    """(line, absolute module, imported names) of each import of turbometrics."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module == "turbometrics" or module.startswith("turbometrics."):
                yield node.lineno, module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("turbometrics"):
                    yield node.lineno, alias.name, []


def violations(path: Path, source: str | None = None) -> list[str]:
    """The imports in ``path`` (whose text is ``source``, by default the
    file's) that break the rules of this module."""
    importer = _module_name(path).split(".")
    own = importer[1] if len(importer) > 1 else ""
    found = []
    for line, module, names in _imports(path, path.read_text() if source is None else source):
        parts = module.split(".")
        where = f"{path.relative_to(ROOT)}:{line}: {module} import {', '.join(names)}"
        if len(parts) == 1:  # the root package
            if own and own not in ADAPTERS and set(names) - {"_core"}:
                found.append(f"{where} (only _core comes from the root)")
            elif own:
                found += [f"{where} (private name)" for name in names if name.startswith("_") and name != "_core"]
            continue
        other = parts[1]
        if other == own or other in SHARED:
            continue
        if any(part.startswith("_") for part in parts[2:]) or other.startswith("_"):
            found.append(f"{where} (private module of {other})")
        found += [f"{where} (private name {name})" for name in names if name.startswith("_")]
    return found


def test_no_package_imports_another_packages_private_modules_or_names():
    found = [v for path in sorted(PACKAGE.rglob("*.py")) for v in violations(path)]
    assert found == []


def test_the_check_sees_bad_imports():
    source = (
        "from ..ranking._scores import roc_auc_score\nfrom ..ranking import _state, RankingState\n"
        "from .._common.params import validate\nfrom .. import _core, stability\n"
    )
    assert [v.rpartition(" (")[2] for v in violations(PACKAGE / "states" / "x.py", source)] == [
        "private module of ranking)",
        "private name _state)",
    ]
    assert [v.rpartition(" (")[2] for v in violations(PACKAGE / "density" / "x.py", source)] == [
        "private module of ranking)",
        "private name _state)",
        "only _core comes from the root)",
    ]


def test_import_linter_contracts_are_kept():
    pytest.importorskip("importlinter")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports('pyproject.toml', no_cache=True, no_logo=True))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` that run: at any depth (inside
    functions too), but not in the body of an ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                yield from _runtime_imports(child)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _runtime_imports(node)


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Module name -> the modules among ``sources`` (module name -> text;
    a package also has an entry ``<name>.__init__``) that it imports when
    it runs. ``from package import name`` imports the module
    ``package.name`` where that is one, else ``package``; the compiled
    ``_core`` is no module here (it imports none of them)."""
    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        if name.endswith(".__init__"):
            continue
        package = name if f"{name}.__init__" in sources else name.rpartition(".")[0]
        edges = graph.setdefault(name, set())
        for node in _runtime_imports(ast.parse(source)):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names)
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if alias.name != "_core":
                    target = f"{module}.{alias.name}"
                    edges.add(target if target in sources else module)
        edges &= set(sources)
        edges.discard(name)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def _package_sources() -> dict[str, str]:
    sources = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        sources[name] = path.read_text()
        if path.name == "__init__.py":
            sources[f"{name}.__init__"] = ""  # marks a package (for relative imports)
    return sources


def test_no_import_cycles():
    graph = import_graph(_package_sources())
    assert "turbometrics._common.exceptions" in graph["turbometrics._common.params"]
    assert import_cycles(graph) == []


def test_the_cycle_check_sees_cycles():
    sources = {
        "p": "",
        "p.__init__": "",
        "p.a": "from . import b\n",
        "p.b": "def f():\n    from .c import x\n",
        "p.c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import y\nfrom .a import z\n",
        "p.d": "from .c import w\n",
    }
    assert import_cycles(import_graph(sources)) == [["p.a", "p.b", "p.c"]]
