"""Shared pytest configuration: hypothesis profiles, and ``slow_bits`` tests
marked ``slow`` too (so that ``pytest -m "not slow"`` leaves them out).

Select a profile with the HYPOTHESIS_PROFILE environment variable:

* ``default`` -- local runs: no deadline, 150 examples per property.
* ``ci``      -- CI runs: derandomized (reproducible), no example database,
                 fewer examples so the suite stays within a few minutes.
* ``quick``   -- smoke runs while developing: 25 examples per property.
* ``thorough``-- long bug hunts: 2000 examples per property.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

settings.register_profile("default", max_examples=150, **_COMMON)
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, **_COMMON)
settings.register_profile("quick", max_examples=25, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)

# CI (CI=true) runs the reproducible profile unless a profile is named.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every ``slow_bits`` test ``slow``."""
    for item in items:
        if item.get_closest_marker("slow_bits") is not None:
            item.add_marker(pytest.mark.slow)
