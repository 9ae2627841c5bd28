"""The examples in the documentation stay true.

* Every public module of turbometrics (a module path without a component
  starting with ``_``) and every object it exports in ``__all__`` has its
  docstring examples run by :mod:`doctest`, as ``help()`` shows them.
  Public modules whose optional dependency is not installed are skipped.
* Every ```` ```python ```` block of README.md and of the documentation
  site's Markdown pages (``docs/**/*.md``) is run, unless the line before it
  is ``<!-- not run: REASON -->`` (a block that needs your own files); one
  after ``<!-- needs: MODULE -->`` runs where MODULE imports, else skips.
* Every public name is documented in the site's API reference (``docs/api/``).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import turbometrics

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# The Markdown files whose Python blocks run: README.md and the site's pages.
MARKDOWN = [README, *sorted((ROOT / "docs").rglob("*.md"))]
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# Modules that only run as programs.
NOT_LIBRARY = {"turbometrics.__main__"}


def public_module_names() -> list[str]:
    names = ["turbometrics"]
    for info in pkgutil.walk_packages(turbometrics.__path__, "turbometrics."):
        if not any(part.startswith("_") for part in info.name.split(".")) and info.name not in NOT_LIBRARY:
            names.append(info.name)
    return sorted(names)


def docstring_tests(module_name: str) -> list[doctest.DocTest]:
    """The doctests of a module and of everything it exports."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:  # an optional extra that is not installed
        pytest.skip(f"{module_name}: {error}")
    finder = doctest.DocTestFinder()
    tests: dict[str, doctest.DocTest] = {t.name: t for t in finder.find(module, module_name)}
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name)
        if inspect.ismodule(obj):
            continue  # tested as a module of its own
        for test in finder.find(obj, f"{module_name}.{name}", module=False):
            tests.setdefault(test.name, test)
    return [t for t in tests.values() if t.examples]


@pytest.mark.parametrize("module_name", public_module_names())
def test_docstring_examples(module_name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in docstring_tests(module_name):
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} docstring example(s) of {module_name} failed (output above)"


def test_public_functions_have_examples() -> None:
    """Every exported function and class shows how it is called."""
    missing = []
    for module_name in ("turbometrics", "turbometrics.stability", "turbometrics.coco", "turbometrics.coco.mask"):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or (inspect.isclass(obj) and issubclass(obj, (Warning, Exception))):
                continue
            if ">>> " not in (inspect.getdoc(obj) or ""):
                missing.append(f"{module_name}.{name}")
    assert not missing, f"no example in the docstring of {missing}"


def _skip_reason(comment: str) -> str:
    """Why the block after this comment line is skipped here ('' if it runs)."""
    not_run = re.fullmatch(r"<!-- not run: (.*) -->", comment)
    if not_run:
        return not_run.group(1)
    needs = re.fullmatch(r"<!-- needs: (\S+) -->", comment)
    if needs and importlib.util.find_spec(needs.group(1)) is None:
        return f"needs {needs.group(1)}, not installed"
    return ""


def markdown_python_blocks(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line number, code, skip reason or '') of each ```python block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i + 1
            previous = lines[i - 1].strip() if i > 0 else ""
            end = start
            while lines[end].strip() != "```":
                end += 1
            yield start + 1, "\n".join(lines[start:end]) + "\n", _skip_reason(previous)
            i = end
        i += 1


def all_python_blocks() -> Iterator[tuple[str, int, str, str]]:
    """(file relative to the repository, line, code, skip reason) of every block."""
    for path in MARKDOWN:
        name = path.relative_to(ROOT).as_posix()
        for line, code, skip in markdown_python_blocks(path):
            yield name, line, code, skip


@pytest.mark.parametrize(
    "name, line, code, skip", [pytest.param(*block, id=f"{block[0]}:{block[1]}") for block in all_python_blocks()]
)
def test_markdown_python_blocks_run(name: str, line: int, code: str, skip: str) -> None:
    if skip:
        pytest.skip(f"{name} line {line}: {skip}")
    exec(compile(code, f"{name}:{line}", "exec"), {"__name__": "docs_example"})


def test_markdown_examples_found() -> None:
    """The collection above sees the site's pages (a moved docs/ would leave them untested)."""
    assert any(path.parts[-3:-1] == ("docs", "guide") for path in MARKDOWN)
    assert sum(1 for _ in all_python_blocks()) >= 10


def test_api_reference_lists_every_public_name() -> None:
    """Each name in a public module's __all__ has an entry in docs/api/*.rst."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs" / "api").glob("*.rst")))
    documented = set(re.findall(r"^\.\. (?:auto\w+|py:\w+):: ([\w.]+)", text, re.MULTILINE))
    missing = []
    for module_name in public_module_names():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in getattr(module, "__all__", []):
            if inspect.ismodule(getattr(module, name)):
                continue
            if name not in documented and f"{module_name}.{name}" not in documented:
                missing.append(f"{module_name}.{name}")
    assert not missing, f"not in docs/api/: {missing}"


def _cells(row: str) -> int:
    """The cells of a Markdown table row: '|' that is neither escaped nor in code separates them."""
    outside_code = re.sub(r"`[^`]*`", "", row)
    return len(re.findall(r"(?<!\\)\|", outside_code)) - 1


def test_markdown_table_rows_have_the_headers_cells() -> None:
    """A row with fewer cells than its header shifts its text into the wrong
    columns (metrics.md had a 3-cell row in a 4-column table)."""
    wrong = []
    for path in MARKDOWN:
        header = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.startswith("|"):
                header = None
            elif header is None:
                header = _cells(line)
            elif _cells(line) != header:
                wrong.append(f"{path.relative_to(ROOT)}:{number}: {_cells(line)} cells, the header has {header}")
    assert not wrong, wrong
