"""Parameters of the stubs of turbometrics._core against the compiled module.

mypy's stubtest (.ci/stubtest) checks names and kinds but cannot compare
parameters here: pybind11 functions carry no inspectable signature. pybind11
writes a function's signature as the first line of its docstring
(``name(a: T, b: U = 0) -> R``); this compares the parameter names, their order
and which have a default with the stub's, for every function and method in
python/turbometrics/_core/<area>.pyi. Types are not compared (pybind11 names
them differently). Prints one line per mismatch and exits 1 if there is one.
Run from the repository root with turbometrics installed.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
import sys
from collections.abc import Iterator
from typing import Any

STUBS = pathlib.Path("python/turbometrics/_core")

Parameters = list[tuple[str, bool]]  # (name, has a default), in order


def parameters(function: ast.FunctionDef) -> Parameters:
    """The parameters of a parsed function definition."""
    args = function.args
    positional = args.posonlyargs + args.args
    with_default = len(args.defaults)
    listed = [(a.arg, i >= len(positional) - with_default) for i, a in enumerate(positional)]
    listed += [(a.arg, d is not None) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.vararg:
        listed.append(("*" + args.vararg.arg, False))
    if args.kwarg:
        listed.append(("**" + args.kwarg.arg, False))
    return listed


def runtime_parameters(obj: Any, name: str) -> Parameters | None:
    """The parameters in a pybind11 docstring's signature line, or None if
    the docstring has none."""
    line = (getattr(obj, "__doc__", None) or "").split("\n", 1)[0]
    if not line.startswith(name + "("):
        return None
    try:
        tree = ast.parse(f"def {line}: ...")
    except SyntaxError:
        return None
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    return parameters(function)


def stub_functions(body: list[ast.stmt], runtime: Any, path: str) -> Iterator[tuple[str, ast.FunctionDef, Any]]:
    """(path, stub definition, runtime object) of every function and method."""
    for node in body:
        if isinstance(node, ast.ClassDef):
            yield from stub_functions(node.body, getattr(runtime, node.name, None), f"{path}.{node.name}")
        elif isinstance(node, ast.FunctionDef) and not node.decorator_list:  # properties: stubtest checks them
            yield f"{path}.{node.name}", node, getattr(runtime, node.name, None)


def main() -> int:
    problems = checked = 0
    for stub in sorted(STUBS.glob("*.pyi")):
        if stub.stem == "__init__":
            continue
        module = f"turbometrics._core.{stub.stem}"
        runtime = importlib.import_module(module)
        for path, definition, obj in stub_functions(ast.parse(stub.read_text()).body, runtime, module):
            checked += 1
            expected = runtime_parameters(obj, definition.name)
            if expected is None:
                print(f"{path}: no pybind11 signature at runtime to compare with")
                problems += 1
            elif parameters(definition) != expected:
                print(f"{path}: stub parameters {parameters(definition)} != runtime {expected}")
                problems += 1
    print(
        f"{problems} of {checked} stub functions differ from the module"
        if problems
        else f"The parameters of all {checked} stub functions match the module."
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
