"""Label maps for ``turbometrics segmentation``: PNG and NPY files read as
integer arrays, and the pairs of ground-truth and predicted files.

GT and PRED are two files, or two folders whose ``.png`` and ``.npy``
files (any case, not in subfolders; other files are left alone) are paired
by name without the suffix (the stem), in sorted order. A stem on one side
only, a stem held twice in one folder (``a.png`` and ``a.npy``) and a
folder without label maps are errors.

PNGs are read by Pillow (the ``png`` extra), imported when the first PNG
is read: 8-bit grayscale (mode ``L``) as uint8, 16-bit grayscale
(``I;16``) as uint16, 32-bit (``I``) as int32, 1-bit as uint8, and palette
PNGs (``P``) as their palette indices, as Cityscapes' scripts and
mmsegmentation (``imfrombytes(..., flag="unchanged")``) read them. Color
PNGs (RGB, RGBA, gray with alpha) are refused: a label map has one channel.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._common.input_error import InputError, first_line

SUFFIXES = (".png", ".npy")

#: Pillow's single-channel modes, and the dtype each is read as.
_PNG_MODES = {"1": np.uint8, "L": np.uint8, "P": np.uint8, "I;16": np.uint16, "I;16B": np.uint16, "I": np.int32}


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
    """The label map in ``path``: an integer (or bool) array of at least one
    pixel.

    Raises
    ------
    InputError
        For a file that cannot be read, a PNG without Pillow, a color PNG,
        an NPY of another dtype than integers or bool, or an empty map.
    """
    try:
        values = _read_png(path) if path.suffix.lower() == ".png" else _read_npy(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or first_line(exc)})") from None
    if values.dtype.kind not in "biu":
        raise InputError(f"{path}: a map of {values.dtype}; label maps hold integer labels")
    if values.ndim == 0 or values.size == 0:
        raise InputError(f"{path}: an empty label map (shape {values.shape})")
    return values


def _read_npy(path: Path) -> np.ndarray:
    try:
        values = np.load(path, allow_pickle=False)
    except ValueError:
        raise InputError(f"{path}: not a .npy file of numbers") from None
    except EOFError:
        raise InputError(f"{path}: not a .npy file (it ends before its header)") from None
    if not isinstance(values, np.ndarray):  # an .npz archive under a .npy name
        values.close()
        raise InputError(f"{path}: not a .npy array file")
    return values


def _read_png(path: Path) -> np.ndarray:
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise InputError(
            "reading PNG label maps needs Pillow: pip install 'turbometrics[png]' (or use .npy maps)"
        ) from None
    try:
        with Image.open(path) as image:
            if image.format != "PNG":
                raise InputError(f"{path}: not a PNG file ({image.format} image)")
            if image.mode not in _PNG_MODES:
                raise InputError(
                    f"{path}: a PNG of mode {image.mode} ({len(image.getbands())} channels); label maps are "
                    f"single-channel: grayscale (8 or 16 bits) or palette PNGs"
                )
            values = np.asarray(image)
    except UnidentifiedImageError:
        raise InputError(f"{path}: not a PNG file (Pillow cannot identify it)") from None
    except (ValueError, SyntaxError) as exc:  # a truncated or corrupt PNG (Pillow raises SyntaxError for some)
        raise InputError(f"{path}: a broken PNG ({exc})") from None
    return values.astype(_PNG_MODES[image.mode], copy=False)
