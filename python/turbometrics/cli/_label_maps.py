"""Label maps for ``turbometrics segmentation``: PNG and NPY files read as
integer arrays, and the pairs of ground-truth and predicted files.

GT and PRED are two files, or two folders whose ``.png`` and ``.npy``
files (any case, not in subfolders; other files are left alone) are paired
by name without the suffix (the stem), in sorted order. A stem on one side
only, a stem held twice in one folder (``a.png`` and ``a.npy``) and a
folder without label maps are errors.

Each file is read by :func:`turbometrics.io.read_label_map` (the modes
and dtypes of PNGs are listed there), which Spark's label-map rows use too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._common.input_error import InputError, first_line
from ..io import read_label_map

SUFFIXES = (".png", ".npy")


def pairs(ground_truth: str, prediction: str) -> list[tuple[Path, Path]]:
    """The (ground truth, prediction) files to compare, in order.

    Raises
    ------
    InputError
        For a missing path, a file paired with a folder, a file that is not
        .png or .npy, a folder without label maps, a name held twice in a
        folder, or a name on one side only (the first such, in sorted order).
    """
    gt, pred = Path(ground_truth), Path(prediction)
    for path in (gt, pred):
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
    if gt.is_dir() != pred.is_dir():
        folder, file = (gt, pred) if gt.is_dir() else (pred, gt)
        raise InputError(f"{folder} is a folder but {file} is a file; give two folders or two files")
    if not gt.is_dir():
        for path in (gt, pred):
            _check_suffix(path)
        return [(gt, pred)]
    gt_maps, pred_maps = _maps(gt), _maps(pred)
    for name in sorted(gt_maps.keys() ^ pred_maps.keys()):
        found, there = (gt_maps[name], pred) if name in gt_maps else (pred_maps[name], gt)
        raise InputError(f"{found} has no match in {there} (maps are paired by name without the suffix)")
    return [(gt_maps[name], pred_maps[name]) for name in sorted(gt_maps)]


def _check_suffix(path: Path) -> None:
    if path.suffix.lower() not in SUFFIXES:
        raise InputError(f"{path}: unsupported file type {path.suffix or '(none)'!r}; use .png or .npy label maps")


def _maps(folder: Path) -> dict[str, Path]:
    """The label maps of ``folder`` by stem."""
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in SUFFIXES and not p.is_dir())
    except OSError as exc:
        raise InputError(f"{folder}: cannot list the folder ({exc.strerror or type(exc).__name__})") from None
    maps: dict[str, Path] = {}
    for path in files:
        if path.stem in maps:
            raise InputError(f"{folder}: two label maps named {path.stem!r} ({maps[path.stem].name} and {path.name})")
        maps[path.stem] = path
    if not maps:
        raise InputError(f"{folder}: no label maps (.png or .npy files) in the folder")
    return maps


def read(path: Path) -> np.ndarray:
    """The label map in ``path`` (:func:`turbometrics.io.read_label_map` of
    its bytes, a PNG or NPY file told apart by its first bytes): an integer
    (or bool) array of at least one pixel.

    Raises
    ------
    InputError
        For a file that cannot be read, one that is neither a PNG nor an NPY
        file, a PNG without Pillow, a color PNG, an NPY of another dtype
        than integers or bool, or an empty map.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or first_line(exc)})") from None
    try:
        return read_label_map(data, name=str(path))
    except (ValueError, ImportError) as exc:
        raise InputError(first_line(exc)) from None
