"""pycocotools' accumulate over a match table: which evalImgs entries each
output cell reads, and the eval dict."""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np


def accumulate_table(table: Any, p: Any, pe: Any, n_threads: int) -> dict[str, Any]:
    """The ``eval`` dict of ``COCOeval.accumulate(p)`` for a match table
    evaluated with parameters ``pe``. As in pycocotools, ``p.catIds``
    becomes ``[-1]`` when ``p.useCats`` is 0, and output cells read the
    evalImgs entries that pycocotools' index arithmetic names (so changed
    parameters give pycocotools' results, or its IndexError)."""
    p.catIds = p.catIds if p.useCats == 1 else [-1]
    T, R = len(p.iouThrs), len(p.recThrs)
    K = len(p.catIds) if p.useCats else 1
    A, M = len(p.areaRng), len(p.maxDets)
    cat_ids = pe.catIds if pe.useCats else [-1]
    set_k, set_a, set_m, set_i = set(cat_ids), set(map(tuple, pe.areaRng)), set(pe.maxDets), set(pe.imgIds)
    k_list = [n for n, k in enumerate(p.catIds) if k in set_k]
    m_list = [m for m in p.maxDets if m in set_m]
    a_list = [n for n, a in enumerate(map(tuple, p.areaRng)) if a in set_a]
    i_list = [n for n, i in enumerate(p.imgIds) if i in set_i]
    rows = max(T, len(pe.iouThrs))
    precision = -np.ones((rows, R, K, A, M))
    recall = -np.ones((rows, K, A, M))
    scores = -np.ones((rows, R, K, A, M))
    table.accumulate(
        np.asarray(k_list, dtype=np.int64),
        np.asarray(a_list, dtype=np.int64),
        np.asarray(i_list, dtype=np.int64),
        len(pe.areaRng),
        len(pe.imgIds),
        np.asarray(m_list, dtype=np.int64),
        np.asarray(p.recThrs, dtype=np.float64),
        precision,
        recall,
        scores,
        n_threads,
    )
    if rows > T and (recall[T:] != -1).any():
        raise IndexError(f"index {T} is out of bounds for axis 0 with size {T}")
    return {
        "params": p,
        "counts": [T, R, K, A, M],
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
        "precision": precision[:T],
        "recall": recall[:T],
        "scores": scores[:T],
    }


def check_bool_scores(eval_imgs: Any, p: Any, pe: Any) -> None:
    """Raise pycocotools' TypeError for detections scored with bools.

    pycocotools' accumulate concatenates each cell's ``dtScores`` lists
    into one array and negates it; when every score in the cell is a bool
    the array is boolean and NumPy refuses the negation. Cells mixing bools
    with numbers compute, a bool counting as 0 or 1. This walks the cells
    as pycocotools does (only called when some score is a bool).
    """
    cat_ids = pe.catIds if pe.useCats else [-1]
    categories = p.catIds if p.useCats == 1 else [-1]
    set_a, set_m, set_i = set(map(tuple, pe.areaRng)), set(pe.maxDets), set(pe.imgIds)
    k_list = [n for n, k in enumerate(categories) if k in set(cat_ids)]
    a_list = [n for n, a in enumerate(map(tuple, p.areaRng)) if a in set_a]
    m_list = [m for m in p.maxDets if m in set_m]
    i_list = [n for n, i in enumerate(p.imgIds) if i in set_i]
    n_images, n_areas = len(pe.imgIds), len(pe.areaRng)
    for k0 in k_list:
        for a0 in a_list:
            first = (k0 * n_areas + a0) * n_images
            entries = [e for e in (eval_imgs[first + i] for i in i_list) if e is not None]
            for max_det in m_list:
                if entries and np.concatenate([e["dtScores"][0:max_det] for e in entries]).dtype == bool:
                    raise TypeError(
                        "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
                        "operator or the logical_not function instead (every score of a cell of "
                        "accumulate is a bool)"
                    )
