"""Test sessions, one per supported CPython: ``nox`` runs them all, ``nox -s
tests-3.12`` one, ``nox -s tests-3.13 -- tests/test_api.py -x`` a subset.

Each session installs the package (its C++ extension built for that Python)
with the ``test`` extra into a fresh virtual environment and runs pytest on
the installed package. Interpreters are looked up on PATH as ``python3.X``;
with pyenv, ``PYENV_VERSION=3.11.7:3.12.1:3.13.0 nox`` makes all three
visible. ``CMAKE_CXX_COMPILER_LAUNCHER=ccache`` in the environment caches the
compile across sessions and runs.
"""

from __future__ import annotations

import nox

# requires-python = ">=3.11": scikit-learn 1.9.1, the reference of the test
# suite, installs on 3.11 and newer (3.10 is past its end of life).
PYTHONS = ["3.11", "3.12", "3.13"]

nox.options.default_venv_backend = "venv"
nox.options.error_on_missing_interpreters = True


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """Install ``.[test]`` and run pytest (arguments after ``--`` go to pytest)."""
    session.install(".[test]")
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", *session.posargs)
