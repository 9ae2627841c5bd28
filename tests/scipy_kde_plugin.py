"""pytest plugin: scipy's own ``gaussian_kde`` tests run against turbometrics.

Loaded with ``-p scipy_kde_plugin`` (``tests/`` on ``PYTHONPATH``) before
``--pyargs scipy.stats.tests.test_kdeoth`` is collected, it replaces
``scipy.stats.gaussian_kde`` by :class:`turbometrics.gaussian_kde`, so the
test module's ``stats.gaussian_kde`` (and its subclasses of it) are
turbometrics' class. ``.ci/scipy_kde_suite`` runs it.
"""

import scipy.stats

import turbometrics

scipy.stats.gaussian_kde = turbometrics.gaussian_kde


def pytest_report_header(config):  # noqa: ARG001 - pytest's hook signature
    return f"scipy.stats.gaussian_kde is turbometrics.gaussian_kde ({turbometrics.__file__})"
