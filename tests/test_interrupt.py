"""Ctrl-C stops long kernels (turbometrics/interrupt.hpp).

Each case starts a computation that runs for many seconds on two cores in a
subprocess, sends it SIGINT after about a second (when the compiled kernel
is running) and checks that it stops within 2 s: uncaught, the process dies
of KeyboardInterrupt raised from the kernel's call; caught, the process uses
no CPU afterwards (no thread still computing) and gets the same results from
the same kernel as before.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from live_sigint import live_sigint

# Slow (a second or more per case, in subprocesses): `pytest -m "not slow"` leaves it out.
pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX"), pytest.mark.slow]

# Crowded images: 16 images with 500 ground truths and 5,000 kept detections
# each (0.3 to 1 s of matching per image).
COCO_SETUP = """
import contextlib, io
from turbometrics.coco import COCO, COCOeval
rng = np.random.default_rng(0)
def boxes(count):
    return np.hstack([rng.uniform(0, 400, (count, 2)), rng.uniform(20, 200, (count, 2))]).tolist()
def evaluation(n_images, n_gts, n_dts):
    gts = [{"id": k + 1, "image_id": k // n_gts, "category_id": 1, "bbox": b, "area": b[2] * b[3], "iscrowd": 0}
           for k, b in enumerate(boxes(n_images * n_gts))]
    dts = [{"image_id": k // n_dts, "category_id": 1, "bbox": b, "score": s}
           for k, (b, s) in enumerate(zip(boxes(n_images * n_dts), rng.random(n_images * n_dts).tolist()))]
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = {"images": [{"id": i} for i in range(n_images)], "categories": [{"id": 1}], "annotations": gts}
        gt.createIndex()
        result = COCOeval(gt, gt.loadRes(dts), "bbox")
    result.params.maxDets = [1, 10, n_dts]
    return result
def evaluated(evaluation):
    with contextlib.redirect_stdout(io.StringIO()):
        evaluation.evaluate()
        evaluation.accumulate()
    return evaluation.eval["precision"].tobytes()
large, tiny = evaluation(16, 500, 5000), evaluation(5, 20, 50)
"""

# name -> (setup, long call, small call, the kernel call in the traceback).
# Without interruption the long calls take from 5 s (the sort of 1e8 scores)
# to minutes (the bootstrap) on two cores.
CASES = {
    "roc_auc_ci bootstrap": (
        "rng = np.random.default_rng(0)\ny, s = rng.integers(0, 2, 2_000_000), rng.random(2_000_000)",
        "tm.roc_auc_ci(y, s, method='bootstrap', n_bootstraps=2000, random_state=0)",
        "tm.roc_auc_ci(y[:1000], s[:1000], method='bootstrap', n_bootstraps=50, random_state=0)",
        "bootstrap_table_metric",
    ),
    "roc_auc_ci delong (the sort)": (
        "rng = np.random.default_rng(0)\n"
        "y, s = rng.integers(0, 2, 100_000_000, dtype=np.int8), rng.random(100_000_000)",
        "tm.roc_auc_ci(y, s)",
        "tm.roc_auc_ci(y[:1000], s[:1000])",
        "roc_auc_delong",
    ),
    "gaussian_kde evaluate": (
        "rng = np.random.default_rng(0)\ndata = rng.normal(size=(3, 100_000))\nestimate = tm.gaussian_kde(data)",
        "estimate.evaluate(data)",
        "estimate.evaluate(data[:, :100])",
        "_core.density.log_sums",
    ),
    "segmentation confusion_matrix": (
        "maps = np.broadcast_to(np.uint8(1), (2000, 100_000, 100))  # 2e10 pixels, no memory",
        "tm.segmentation.confusion_matrix(maps, maps, num_classes=3)",
        "tm.segmentation.confusion_matrix(maps[:2, :10], maps[:2, :10], num_classes=3)",
        "confusion_counts",
    ),
    "segmentation hausdorff_distance": (
        # 4 classes of a random 180^3 volume: seconds of boundaries and transforms, about 200 MB
        "rng = np.random.default_rng(0)\n"
        "maps = rng.integers(0, 4, (180, 180, 180), dtype=np.uint8)\n"
        "other = rng.integers(0, 4, (180, 180, 180), dtype=np.uint8)",
        "tm.segmentation.hausdorff_distance(maps, other, num_classes=4)",
        "tm.segmentation.hausdorff_distance(maps[:6, :6, :6], other[:6, :6, :6], num_classes=4)",
        "surface_distances",
    ),
    "kde exact": (
        "rng = np.random.default_rng(0)\nx = rng.normal(size=1_000_000)",
        "tm.kde(x, x[:300_000], bandwidth=0.01)",
        "tm.kde(x[:1000], x[:100], bandwidth=0.01)",
        "_core.density.log_sums",
    ),
    "COCO results JSON (stdlib json)": (
        # 27 MB of polygon results: seconds of json.loads, which checks no signal (with orjson
        # installed, orjson parses the whole text, so it is hidden from the loader here)
        "import sys\nsys.modules['orjson'] = None\n"
        "from turbometrics.coco._results import loads_results\n"
        "element = json.dumps({'image_id': 1, 'category_id': 1, 'score': 0.5, 'segmentation': "
        "[np.random.default_rng(0).uniform(0, 500, 60).round(2).tolist()]})\n"
        "big = ('[' + ', '.join([element] * 50_000) + ']').encode()",
        "any(loads_results(big) is None for _ in iter(int, 1))",
        "loads_results(big[:1000].rsplit(b'}, ', 1)[0] + b'}]')",
        "loads_results",
    ),
    "COCOeval evaluate": (
        COCO_SETUP,
        "evaluated(large)",
        "evaluated(tiny)",
        "evaluation.match",
    ),
}

CHILD = """
import json, resource, sys, time
import numpy as np
import turbometrics as tm
{setup}
def small():
    return {small}
before = small()
print("ready", flush=True)
if sys.argv[1] == "uncaught":
    {call}
    sys.exit("the long call finished")
try:
    {call}
    sys.exit("the long call finished")
except KeyboardInterrupt:
    print("caught at", time.time(), flush=True)
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu = usage.ru_utime + usage.ru_stime
time.sleep(0.5)
usage = resource.getrusage(resource.RUSAGE_SELF)
print("cpu after interrupt", usage.ru_utime + usage.ru_stime - cpu, flush=True)
after = small()
assert repr(after) == repr(before), (after, before)
print("same result", flush=True)
"""


def _start(case: str, mode: str, delay: float = 1.0) -> subprocess.Popen:
    setup, call, small, _ = CASES[case]
    script = CHILD.format(setup=setup, call=call, small=small)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=live_sigint,  # also when the suite runs with SIGINT ignored
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line == "ready\n", (line, child.stderr.read() if child.stderr else "")
    time.sleep(delay)  # well inside the kernel (on a loaded machine the checks before it may take longer)
    return child


def _interrupt(child: subprocess.Popen) -> tuple:
    """SIGINT, then (seconds until the process exited, stdout, stderr, time.time() when sent)."""
    sent_at = time.time()
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        pytest.fail(f"no exit within 30 s of SIGINT; stderr: {err[-2000:]}")
    return time.perf_counter() - sent, out, err, sent_at


@pytest.mark.parametrize("case", sorted(CASES))
def test_sigint_stops_the_kernel_with_keyboard_interrupt(case):
    kernel = CASES[case][3]
    # A signal sent before the kernel started (the Python checks before it
    # can outlast the first delay on a loaded machine) is sent again later.
    for delay in (1.0, 3.0):
        child = _start(case, "uncaught", delay)
        elapsed, _out, err, _ = _interrupt(child)
        assert child.returncode == -signal.SIGINT, (child.returncode, err[-2000:])
        assert err.rstrip().endswith("KeyboardInterrupt"), err[-2000:]
        if kernel in err:  # raised from the kernel's call, not between calls
            break
    else:
        pytest.fail(f"SIGINT {delay} s after the start was not raised from {kernel}: {err[-2000:]}")
    assert elapsed < 2.0, elapsed


@pytest.mark.parametrize("case", sorted(CASES))
def test_after_a_caught_interrupt_nothing_runs_and_results_are_unchanged(case):
    child = _start(case, "caught")
    _, out, err, sent_at = _interrupt(child)
    assert child.returncode == 0, err[-2000:]
    assert "same result" in out
    caught_at = float(out.split("caught at ")[1].split()[0])
    assert caught_at - sent_at < 2.0, caught_at - sent_at
    cpu = float(out.split("cpu after interrupt ")[1].split()[0])
    assert cpu < 0.1, out  # no thread kept computing
