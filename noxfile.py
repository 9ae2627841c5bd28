"""Test sessions, one per supported CPython: ``nox -s tests`` runs them all,
``nox -s tests-3.12`` one, ``nox -s tests-3.13 -- tests/test_api.py -x`` a subset.

``tests`` installs the package (its C++ extension built for that Python) with
the ``test`` extra into a fresh virtual environment and runs pytest on the
installed package. ``core`` installs it with only pytest (and pytest-xdist), hypothesis and the
reference libraries (scikit-learn, scipy), at the test extra's pins: the
tests of optional integrations (pandas, dask, Spark, ...) skip, and the
environment takes seconds instead of the extra's 5-6 minutes. CI runs
``core`` on 3.12 and 3.13 (.ci/python_versions) with a test-only build
(``SKBUILD_CMAKE_DEFINE``). Interpreters are looked up on PATH as
``python3.X``; with pyenv, ``PYENV_VERSION=3.11.7:3.12.1:3.13.0 nox`` makes
all three visible. ``CMAKE_CXX_COMPILER_LAUNCHER=ccache`` in the environment
caches the compile across sessions and runs.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import nox

# requires-python = ">=3.11": scikit-learn 1.9.1, the reference of the test
# suite, installs on 3.11 and newer (3.10 is past its end of life).
PYTHONS = ["3.11", "3.12", "3.13"]
# The packages of the ``core`` session, pinned as in the test extra.
CORE_TEST_PACKAGES = ("pytest", "pytest-xdist", "hypothesis", "scipy", "scikit-learn")

# uv where nox finds it (.ci/python_versions installs it beside nox), else venv and pip.
nox.options.default_venv_backend = "uv|venv"
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["tests"]


def test_extra_pins(names: tuple[str, ...]) -> list[str]:
    """The test extra's requirements for the packages ``names``."""
    with open(Path(__file__).parent / "pyproject.toml", "rb") as file:
        extra = tomllib.load(file)["project"]["optional-dependencies"]["test"]
    pins = [requirement for requirement in extra if requirement.split("==")[0].split("[")[0] in names]
    if len(pins) != len(names):
        raise ValueError(f"the test extra pins {pins}, not all of {names}")
    return pins


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """Install ``.[test]`` and run pytest (arguments after ``--`` go to pytest)."""
    session.install(".[test]")
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", *session.posargs)


@nox.session(python=PYTHONS)
def core(session: nox.Session) -> None:
    """Install ``.`` with pytest, hypothesis, scikit-learn and scipy, and run pytest."""
    session.install(".", *test_extra_pins(CORE_TEST_PACKAGES))
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", *session.posargs)
