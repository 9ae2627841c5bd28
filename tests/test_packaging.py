"""The installed distribution's metadata (editable install or wheel): the
version has one source, and the license ships with the package."""

from __future__ import annotations

import importlib.metadata

import turbometrics


def test_version_is_the_distribution_version() -> None:
    # pyproject.toml reads __version__ from __init__.py (scikit-build-core's
    # regex provider); a second hand-written copy would drift.
    assert importlib.metadata.version("turbometrics") == turbometrics.__version__


def test_license_ships_with_the_distribution() -> None:
    dist = importlib.metadata.distribution("turbometrics")
    assert dist.metadata["License-Expression"] == "BSD-3-Clause"
    assert dist.metadata.get_all("License-File") == ["LICENSE"]
    license_files = [path for path in dist.files or () if path.name == "LICENSE"]
    assert len(license_files) == 1, dist.files
    assert license_files[0].read_text().startswith("BSD 3-Clause License")
