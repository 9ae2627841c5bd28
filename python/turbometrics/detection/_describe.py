"""Naming an annotation in error messages, and the check of a box that
ground truths and results share."""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np


def describe(kind: str, annotation: Any, index: int) -> str:
    """``"<kind> <index> (id <id>)"``, or without the id when it has none."""
    if isinstance(annotation, dict) and "id" in annotation:
        return f"{kind} {index} (id {annotation['id']!r})"
    return f"{kind} {index}"


class MissingFieldError(KeyError, ValueError):
    """An annotation lacks a field the evaluation reads: a KeyError, as
    pycocotools raises, and a ValueError, as turbometrics documents; its
    text is the message itself (no quotes)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def check_box(box: Any, what: str) -> None:
    """Raise unless ``box`` is a sequence of 4 numbers: TypeError for
    something else than a sequence or for a value that is no number (None,
    a string: pycocotools' arithmetic on it raises TypeError), ValueError
    for another length. Bools, NaN, infinities and negative sizes are
    numbers: pycocotools evaluates them (a bool as 0 or 1)."""
    if not isinstance(box, (list, tuple, np.ndarray)):
        raise TypeError(f"{what}: 'bbox' must be a list of 4 numbers [x, y, w, h], got {box!r}")
    if len(box) != 4:
        raise ValueError(f"{what}: 'bbox' must be a list of 4 numbers [x, y, w, h], got {box!r}")
    for value in box:
        if not isinstance(value, (Real, np.integer, np.floating, np.bool_)):
            raise TypeError(f"{what}: 'bbox' must hold numbers, got {box!r}")
