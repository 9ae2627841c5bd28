"""The object a patch function returns (``turbometrics.sklearn.patch``,
``turbometrics.coco.patch_pycocotools``): leaving a ``with`` block on it
undoes the patch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Patched:
    """What a patch function returns: leaving a ``with`` block unpatches.

    Parameters
    ----------
    unpatch : callable
        The function that undoes the patch (called with no arguments).
    """

    def __init__(self, unpatch: Callable[[], None]) -> None:
        self._unpatch = unpatch

    def __enter__(self) -> Patched:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._unpatch()
