"""Shared pytest configuration: hypothesis profiles.

Select a profile with the HYPOTHESIS_PROFILE environment variable:

* ``default`` -- local runs: no deadline, 150 examples per property.
* ``ci``      -- CI runs: derandomized (reproducible), no example database,
                 fewer examples so the suite stays within a few minutes.
* ``quick``   -- smoke runs while developing: 25 examples per property.
* ``thorough``-- long bug hunts: 2000 examples per property.
"""

import os

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
