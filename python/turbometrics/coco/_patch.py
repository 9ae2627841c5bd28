"""Making pycocotools use turbometrics: ``patch_pycocotools()`` swaps
``pycocotools.cocoeval.COCOeval`` and the functions of
``pycocotools.mask`` for turbometrics' (bit-identical) ones, so tools built
on pycocotools run faster unchanged; ``unpatch_pycocotools()`` restores
them. Both are idempotent, and ``patch_pycocotools()`` also works as a
context manager."""

from __future__ import annotations

import importlib
from typing import Any

from .._common.patched import Patched
from . import mask as _mask

_MASK_FUNCTIONS = ("encode", "decode", "area", "toBbox", "iou", "merge", "frPyObjects")
_saved: dict[tuple[str, str], Any] = {}


def _targets() -> dict[tuple[str, str], Any]:
    from ._cocoeval import COCOeval

    targets: dict[tuple[str, str], Any] = {("pycocotools.cocoeval", "COCOeval"): COCOeval}
    for name in _MASK_FUNCTIONS:
        targets[("pycocotools.mask", name)] = getattr(_mask, name)
    return targets


def patch_pycocotools() -> Patched:
    """Swap pycocotools' ``COCOeval`` and mask functions for turbometrics'.

    Code that looks them up after the call (``pycocotools.cocoeval.COCOeval``,
    ``from pycocotools.cocoeval import COCOeval`` run later, and everything
    that calls ``pycocotools.mask.*`` — ``pycocotools.coco.COCO`` included)
    gets turbometrics'. ``pycocotools.coco.COCO`` stays pycocotools' own;
    turbometrics' ``COCOeval`` accepts it.

    Raises
    ------
    ImportError
        If pycocotools is not installed.

    Examples
    --------
    >>> import pycocotools.cocoeval
    >>> from turbometrics.coco import patch_pycocotools
    >>> with patch_pycocotools():
    ...     pycocotools.cocoeval.COCOeval.__module__
    ...
    'turbometrics.coco._cocoeval'
    >>> pycocotools.cocoeval.COCOeval.__module__
    'pycocotools.cocoeval'
    """
    for (module_name, attribute), replacement in _targets().items():
        module = importlib.import_module(module_name)
        key = (module_name, attribute)
        if key not in _saved:
            _saved[key] = getattr(module, attribute)
        setattr(module, attribute, replacement)
    return Patched(unpatch_pycocotools)


def unpatch_pycocotools() -> None:
    """Restore what ``patch_pycocotools()`` replaced.

    Examples
    --------
    >>> import pycocotools.mask
    >>> from turbometrics.coco import patch_pycocotools, unpatch_pycocotools
    >>> patched = patch_pycocotools()
    >>> pycocotools.mask.iou.__module__
    'turbometrics.coco.mask'
    >>> unpatch_pycocotools()
    >>> pycocotools.mask.iou.__module__
    'pycocotools._mask'
    """
    while _saved:
        (module_name, attribute), original = _saved.popitem()
        setattr(importlib.import_module(module_name), attribute, original)
