"""Thread-count determinism, the global thread setting, and fork safety.

Results must be bit-identical whatever the number of threads; a child forked
after the parent ran parallel kernels must compute (not hang, not crash).
"""

import math
import os
import signal
import time

import numpy as np
import pytest
import sklearn.metrics as skm

import turbometrics as tm
from helpers import assert_score_equal, curve_comparator

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

THREADS = [1, 2, 3, 4]
CURVES = ["roc_curve", "precision_recall_curve", "det_curve", "confusion_matrix_at_thresholds"]


def _data(n=200_003, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(np.int64)
    s = np.round(rng.standard_normal(n) + 0.7 * y, 2)  # ~1000 distinct values: heavy ties
    w = rng.choice([0.0, 0.3, 1.0, 2.7], n)  # zero and non-dyadic weights
    return y, s, w


Y, S, W = _data()


def _identical(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, z in zip(a, b):
            _identical(x, z)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=True), "results differ between thread counts"
    else:
        assert type(a) is type(b)
        assert a == b or (math.isnan(a) and math.isnan(b)), f"{a!r} != {b!r}"


def _calls():
    yield "roc_curve", (Y, S), {}
    yield "roc_curve", (Y, S), dict(sample_weight=W, drop_intermediate=False)
    yield "precision_recall_curve", (Y, S), dict(sample_weight=W)
    yield "precision_recall_curve", (Y, S), dict(drop_intermediate=True)
    yield "det_curve", (Y, S), dict(sample_weight=W)
    yield "confusion_matrix_at_thresholds", (Y, S), dict(sample_weight=W)
    yield "roc_auc_score", (Y, S), {}
    yield "roc_auc_score", (Y, S), dict(sample_weight=W)
    yield "roc_auc_score", (Y, S), dict(sample_weight=W, max_fpr=0.3)
    yield "average_precision_score", (Y, S), {}
    yield "average_precision_score", (Y, S), dict(sample_weight=W)
    yield "roc_auc_score", (Y, S.astype(np.float32)), dict(sample_weight=W)
    yield "average_precision_score", (Y, np.clip(S * 30 + 128, 0, 255).astype(np.uint8)), dict(sample_weight=W)


CALLS = list(_calls())


@pytest.mark.parametrize("name,args,kwargs", CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_bit_identical_across_thread_counts(name, args, kwargs):
    func = getattr(tm, name)
    ref = func(*args, n_threads=1, **kwargs)
    for n in THREADS[1:]:
        _identical(ref, func(*args, n_threads=n, **kwargs))
    _identical(ref, func(*args, **kwargs))  # default thread count


@pytest.mark.parametrize("name,args,kwargs", CALLS[:11], ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS[:11])])
def test_large_input_matches_sklearn(name, args, kwargs):
    got = getattr(tm, name)(*args, n_threads=4, **kwargs)
    sk = getattr(skm, name)(*args, **kwargs)
    if name in CURVES:
        # non-dyadic weights: allow summation-order rounding on rates
        curve_comparator(name, rtol=1e-10, atol=1e-9)(sk, got)
    else:
        assert_score_equal(sk, got, rtol=1e-10, atol=1e-12)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "samples", None])
@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_multilabel_bit_identical_across_thread_counts(name, average):
    rng = np.random.default_rng(1)
    n = 300 if average == "samples" else 60_000
    y = (rng.random((n, 5)) < 0.3).astype(int)
    s = np.round(rng.random((n, 5)) + 0.2 * y, 2)
    w = rng.choice([0.0, 0.3, 1.0], n)
    func = getattr(tm, name)
    ref = func(y, s, sample_weight=w, average=average, n_threads=1)
    for k in THREADS[1:]:
        _identical(ref, func(y, s, sample_weight=w, average=average, n_threads=k))


def test_more_threads_than_samples():
    for name in CURVES + ["roc_auc_score", "average_precision_score"]:
        y, s = np.array([0, 1, 1]), np.array([0.3, 0.2, 0.3])
        ref = getattr(skm, name)(y, s)
        for k in (1, 2, 8, 64):
            got = getattr(tm, name)(y, s, n_threads=k)
            if isinstance(ref, tuple):
                curve_comparator(name)(ref, got)
            else:
                assert_score_equal(ref, got)


def test_concurrent_calls_from_python_threads():
    # kernels release the GIL: concurrent calls must not interfere
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(9)
    jobs = []
    for i in range(8):
        n = 30_000 + 1_000 * i
        y = rng.integers(0, 2, n)
        s = np.round(rng.random(n), 2 + i % 2)
        w = rng.choice([0.0, 1.0, 2.0], n) if i % 2 else None
        jobs.append((y, s, w))
    serial = [
        (tm.roc_auc_score(y, s, sample_weight=w, n_threads=1), tm.roc_curve(y, s, sample_weight=w, n_threads=1))
        for y, s, w in jobs
    ]

    def work(i):
        y, s, w = jobs[i]
        return tm.roc_auc_score(y, s, sample_weight=w, n_threads=2), tm.roc_curve(y, s, sample_weight=w, n_threads=2)

    for _ in range(3):
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(work, range(len(jobs))))
        for ref, got in zip(serial, results):
            _identical(ref[0], got[0])
            _identical(ref[1], got[1])


# --------------------------------------------------------------------------
# set_num_threads / get_num_threads


@pytest.fixture
def restore_threads():
    yield
    tm.set_num_threads(None)


def test_get_num_threads_default_is_positive_int(restore_threads):
    n = tm.get_num_threads()
    assert type(n) is int and n >= 1


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_set_get_round_trip(restore_threads, n):
    tm.set_num_threads(n)
    assert tm.get_num_threads() == n
    assert type(tm.get_num_threads()) is int
    # the default is then used by the kernels and gives the same results
    _identical(tm.roc_auc_score(Y, S, n_threads=1), tm.roc_auc_score(Y, S))


def test_set_num_threads_numpy_int(restore_threads):
    tm.set_num_threads(np.int64(2))
    assert tm.get_num_threads() == 2 and type(tm.get_num_threads()) is int


@pytest.mark.parametrize("bad", [0, -1, -8])
def test_set_num_threads_rejects_non_positive(restore_threads, bad):
    tm.set_num_threads(3)
    with pytest.raises(ValueError):
        tm.set_num_threads(bad)
    assert tm.get_num_threads() == 3, "a rejected value must not change the setting"


@pytest.mark.parametrize("bad", [1.5, "2", True, [2]])
def test_set_num_threads_rejects_non_integers(restore_threads, bad):
    tm.set_num_threads(3)
    with pytest.raises((TypeError, ValueError)):
        tm.set_num_threads(bad)
    assert tm.get_num_threads() == 3


@pytest.mark.parametrize("bad", [0, -1])
def test_n_threads_argument_rejects_non_positive(bad):
    with pytest.raises(ValueError):
        tm.roc_auc_score(Y[:10], S[:10], n_threads=bad)


def test_n_threads_is_keyword_only():
    with pytest.raises(TypeError):
        tm.roc_curve(Y[:10], S[:10], None, None, True, 2)


# --------------------------------------------------------------------------
# fork safety

posix_only = pytest.mark.skipif(not hasattr(os, "fork") or os.name != "posix", reason="needs os.fork")


def _fork_and_wait(child_body, timeout=60.0):
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 1
        try:
            code = child_body()
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail(f"forked child did not finish within {timeout} s (deadlock after fork?)")


@posix_only
@pytest.mark.parametrize("child_threads", [None, 2])
def test_fork_after_parallel_use(child_threads):
    rng = np.random.default_rng(5)
    big_y = rng.integers(0, 2, 1_000_000)
    big_s = rng.random(1_000_000)
    tm.roc_auc_score(big_y, big_s, n_threads=2)  # parent spins up its thread pool

    y, s = big_y[:100_000], np.round(big_s[:100_000], 3)
    expected_auc = skm.roc_auc_score(y, s)
    expected_curve = skm.roc_curve(y, s)

    def child():
        kw = {} if child_threads is None else dict(n_threads=child_threads)
        auc = tm.roc_auc_score(y, s, **kw)
        fpr, tpr, thr = tm.roc_curve(y, s, **kw)
        ok = (
            math.isclose(auc, expected_auc, rel_tol=1e-12)
            and np.allclose(fpr, expected_curve[0], rtol=1e-12, atol=0)
            and np.allclose(tpr, expected_curve[1], rtol=1e-12, atol=0)
            and np.array_equal(thr, expected_curve[2])
        )
        return 0 if ok else 2

    code = _fork_and_wait(child)
    assert code == 0, f"child exited with {code} (1: exception, 2: wrong result)"
    # the parent is unaffected
    assert math.isclose(tm.roc_auc_score(y, s, n_threads=2), expected_auc, rel_tol=1e-12)


@posix_only
def test_fork_then_parent_keeps_parallelism():
    tm.roc_auc_score(Y, S, n_threads=2)
    before = tm.get_num_threads()
    code = _fork_and_wait(lambda: 0)
    assert code == 0
    assert tm.get_num_threads() == before, "fork handler must only affect the child"
    _identical(tm.roc_auc_score(Y, S, n_threads=1), tm.roc_auc_score(Y, S, n_threads=2))


@posix_only
def test_fork_child_of_child():
    tm.roc_auc_score(Y, S, n_threads=2)
    y, s = Y[:50_000], S[:50_000]
    expected = skm.roc_auc_score(y, s)

    def child():
        tm.roc_auc_score(y, s, n_threads=2)

        def grandchild():
            return 0 if math.isclose(tm.roc_auc_score(y, s, n_threads=2), expected, rel_tol=1e-12) else 2

        pid = os.fork()
        if pid == 0:
            try:
                os._exit(grandchild())
            except BaseException:
                os._exit(1)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
        return 3

    code = _fork_and_wait(child)
    assert code == 0, f"child/grandchild exited with {code}"


_WAIT_POLICY_SCRIPT = """
import ctypes, os, sys
import turbometrics
print(os.environ.get("OMP_WAIT_POLICY"))
try:
    display = ctypes.CDLL("libgomp.so.1").omp_display_env
except (OSError, AttributeError):
    sys.exit(0)
sys.stdout.flush()
display(0)  # the runtime's settings, on stderr
"""


@pytest.mark.parametrize("user_value", [None, "ACTIVE"])
def test_wait_policy_is_passive_without_changing_the_environment(user_value):
    """libgomp loads with OMP_WAIT_POLICY=PASSIVE (idle threads sleep) unless
    the user chose a policy; the process environment keeps the user's value."""
    import subprocess
    import sys

    env = {key: value for key, value in os.environ.items() if key != "OMP_WAIT_POLICY"}
    if user_value is not None:
        env["OMP_WAIT_POLICY"] = user_value
    result = subprocess.run(
        [sys.executable, "-c", _WAIT_POLICY_SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines()[0] == str(user_value)
    if "OMP_WAIT_POLICY" in result.stderr:  # GNU libgomp: the policy it runs with
        assert f"OMP_WAIT_POLICY = '{user_value or 'PASSIVE'}'" in result.stderr
