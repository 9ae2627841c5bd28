"""Thread-count policy shared by every parallel function.

The default is the number of CPUs this process may run on (its affinity mask
and, on Linux, its cgroup CPU quota), overridden by ``OMP_NUM_THREADS`` and
then by :func:`set_num_threads`. A child created with ``os.fork()`` after the
parent ran parallel kernels runs serially: the OpenMP runtime's thread pool
does not survive a fork, and using it in the child can hang.
"""

from __future__ import annotations

import functools
import importlib
import math
import os
import sys
from numbers import Integral

_configured_threads: int | None = None
_parallel_kernels_used = False
_forked_after_parallel_use = False


def load_core_with_passive_wait() -> None:
    """Import ``turbometrics._core`` with ``OMP_WAIT_POLICY=PASSIVE`` set
    only while it loads, unless the user set the variable.

    GNU libgomp reads its wait policy from the environment once, when the
    library loads (it has no API to change it later), and the first import
    of ``_core`` loads it. PASSIVE makes idle OpenMP threads sleep instead
    of spinning for about 300,000 iterations after each parallel kernel,
    which slows every process sharing the CPUs. The variable is removed
    again right after, so the user's environment, and that of the
    processes it starts, is unchanged. Where the OpenMP runtime was already
    loaded by another library, its policy stays as it is.
    """
    if "OMP_WAIT_POLICY" in os.environ or "turbometrics._core" in sys.modules:
        importlib.import_module("turbometrics._core")
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        importlib.import_module("turbometrics._core")
    finally:
        del os.environ["OMP_WAIT_POLICY"]


def _after_fork_in_child() -> None:
    global _forked_after_parallel_use
    if _parallel_kernels_used:
        _forked_after_parallel_use = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _cgroup_cpu_limit() -> int | None:
    """CPUs allowed by a cgroup v2 or v1 quota, or None when unlimited."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as handle:
            quota, period = handle.read().split()[:2]
        if quota != "max":
            return max(1, math.ceil(int(quota) / int(period)))
        return None
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") as handle:
            quota_us = int(handle.read())
        with open("/sys/fs/cgroup/cpu/cpu.cfs_period_us") as handle:
            period_us = int(handle.read())
        if quota_us > 0 and period_us > 0:
            return max(1, math.ceil(quota_us / period_us))
    except (OSError, ValueError):
        pass
    return None


@functools.cache
def available_cpus() -> int:
    """Number of CPUs this process can actually use (read once: the
    affinity mask and the cgroup quota, at the first call)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 1
    limit = _cgroup_cpu_limit()
    return max(1, min(cpus, limit) if limit else cpus)


def _threads_from_environment() -> int | None:
    value = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    return None


def _validate(n_threads: object, name: str) -> int:
    if isinstance(n_threads, bool) or not isinstance(n_threads, Integral):
        raise TypeError(f"{name} must be a positive int or None, got {n_threads!r}")
    if n_threads < 1:
        raise ValueError(f"{name} must be a positive int or None, got {n_threads!r}")
    return int(n_threads)


def set_num_threads(n_threads: int | None) -> None:
    """Set the default number of threads of every turbometrics kernel.

    Parameters
    ----------
    n_threads : int or None
        A positive thread count, or None to return to the default
        (``OMP_NUM_THREADS`` if set, else the CPUs available to the process).

    Raises
    ------
    ValueError
        If ``n_threads`` is smaller than 1.
    TypeError
        If ``n_threads`` is not an int or None.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.set_num_threads(2)
    >>> tm.get_num_threads()
    2
    >>> tm.set_num_threads(None)   # back to OMP_NUM_THREADS or the available CPUs
    """
    global _configured_threads
    _configured_threads = None if n_threads is None else _validate(n_threads, "n_threads")


def get_num_threads() -> int:
    """Return the number of threads kernels use when ``n_threads`` is None.

    Returns
    -------
    int
        1 in a process forked after parallel kernels ran; otherwise the value
        of :func:`set_num_threads`, else ``OMP_NUM_THREADS``, else the number
        of CPUs available to the process.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.get_num_threads() >= 1
    True
    """
    if _forked_after_parallel_use:
        return 1
    if _configured_threads is not None:
        return _configured_threads
    return _threads_from_environment() or available_cpus()


# Below this many samples a kernel runs on one thread: waking a thread team
# costs more than it saves, and spinning threads hurt a loaded machine.
SERIAL_BELOW = 1 << 17


def threads_for(n_threads: int, n_samples: int) -> int:
    """The thread count to use for a kernel over ``n_samples`` samples."""
    return n_threads if n_samples >= SERIAL_BELOW else 1


def resolve_threads(n_threads: int | None) -> int:
    """Thread count for one kernel call (``n_threads=None`` means default)."""
    global _parallel_kernels_used
    threads = get_num_threads() if n_threads is None else _validate(n_threads, "n_threads")
    if _forked_after_parallel_use:
        threads = 1
    if threads > 1:
        _parallel_kernels_used = True
    return threads
