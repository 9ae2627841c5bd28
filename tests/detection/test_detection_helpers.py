"""The detection area's helpers that the COCO tests reach only indirectly:
the keypoint similarity's pairwise sums and the per-thread silencing of
pycocotools-style progress messages."""

from __future__ import annotations

import threading

import numpy as np
from hypothesis import given, strategies as st

from turbometrics.detection import quiet, say
from turbometrics.detection._keypoints import pairwise_row_sums


@given(st.integers(1, 3), st.integers(0, 300), st.integers(0, 2**32 - 1))
def test_pairwise_row_sums_add_in_numpys_order(rows, n, seed):
    x = np.exp(-np.random.default_rng(seed).exponential(20, size=(rows, n)))
    expected = np.array([np.sum(row) for row in x])
    assert np.array_equal(pairwise_row_sums(x), expected)


def test_progress_messages_are_silenced_per_thread(capsys):
    inside = threading.Event()
    release = threading.Event()

    def silenced():
        with quiet():
            inside.set()
            release.wait(5)
            say("from the quiet thread")

    worker = threading.Thread(target=silenced)
    worker.start()
    inside.wait(5)
    say("from the main thread")  # printed although another thread is quiet
    release.set()
    worker.join()
    assert capsys.readouterr().out == "from the main thread\n"
