"""The detection area's input: one side (ground truths or detections) of an
evaluation as NumPy columns, which the format layer (``turbometrics.coco``)
fills from COCO annotation dicts or from results read column-wise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

#: Types pycocotools' arithmetic takes as numbers (a bool counts as 0 or 1).
NUMBER_TYPES = (int, float, bool, np.number, np.bool_)


@dataclass
class Columns:
    """One side (ground truths or detections) of an evaluation: from
    annotation dicts, or (results read by the compiled reader) from columns,
    with ``annotations`` None."""

    annotations: list[dict] | None
    image_id: Any  # a list, or an int64 array
    category_id: Any
    id: np.ndarray  # float64, as pycocotools stores ids in float arrays
    area: np.ndarray
    score: np.ndarray | None = None  # detections
    crowd: np.ndarray | None = None  # ground truths: int(iscrowd) != 0
    ignore: np.ndarray | None = None  # ground truths: the ignore flag
    boxes: np.ndarray | None = None  # (n, 4), bbox evaluations
    bool_scores: bool = False  # detections: some score is a bool (see accumulate.check_bool_scores)

    def __len__(self) -> int:
        return len(self.id)

    def ids_of(self, rows: Sequence[int]) -> list[Any]:
        """The annotations' ids, as pycocotools reports them."""
        if self.annotations is None:
            return self.id[rows].astype(np.int64).tolist()
        return [self.annotations[r]["id"] for r in rows]

    def scores_of(self, rows: Sequence[int]) -> list[Any]:
        """The detections' scores, as pycocotools reports them."""
        if self.annotations is None:
            return cast(np.ndarray, self.score)[rows].tolist()  # column-wise results carry scores
        return [self.annotations[r]["score"] for r in rows]
