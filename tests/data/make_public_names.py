"""Write ``public_names.json``: every public name importable from the public
modules, recorded before issue 13 moved the private modules into area
subpackages (``python tests/data/make_public_names.py``).

A module's public names are its ``__all__``, the names it defines at top level
without a leading underscore, and its public submodules.
``tests/test_public_names.py`` imports each; do not regenerate the file to
make a name disappear.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import types
from pathlib import Path

MODULES = (
    "turbometrics",
    "turbometrics.stability",
    "turbometrics.coco",
    "turbometrics.coco.mask",
    "turbometrics.coco.synthetic",
    "turbometrics.states",
    "turbometrics.states.ranking",
    "turbometrics.states.confusion",
    "turbometrics.states.calibration",
    "turbometrics.states.binned_ranking",
    "turbometrics.states.parquet",
    "turbometrics.dask",
    "turbometrics.plot",
    "turbometrics.sklearn",
    "turbometrics.sklearn.pytest_plugin",
    "turbometrics.cli",
)
OUT = Path(__file__).parent / "public_names.json"


def _defined_names(module: types.ModuleType) -> list[str]:
    """Public names bound at the top level of the module's source."""
    names = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return [name for name in names if not name.startswith("_")]


def public_names(name: str) -> list[str]:
    module = importlib.import_module(name)
    names = set(getattr(module, "__all__", ())) | set(_defined_names(module))
    names |= {
        attribute
        for attribute, value in vars(module).items()
        if isinstance(value, types.ModuleType)
        and not attribute.startswith("_")
        and value.__name__ == f"{name}.{attribute}"
    }
    return sorted(names)


def main() -> None:
    OUT.write_text(json.dumps({name: public_names(name) for name in MODULES}, indent=1) + "\n")


if __name__ == "__main__":
    main()
