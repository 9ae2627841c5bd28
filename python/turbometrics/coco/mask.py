"""Run-length encoded (RLE) masks: a drop-in for ``pycocotools.mask``.

Every function takes the arguments of pycocotools 2.0.11's function of the
same name and returns the same values, types, dtypes and memory layouts
(bit-identical RLE strings, polygon rasterisation, IoU doubles and box
floats), computed by turbometrics' own C++ kernels. ``encode``, ``decode``
and ``iou`` also take a keyword-only ``n_threads``.

Formats
-------
RLE
    ``{'size': [h, w], 'counts': bytes}``. The ``h x w`` mask is read in
    column-major (Fortran) order and ``counts`` lists the lengths of
    alternating runs of 0s and 1s, starting with 0s, in pycocotools'
    compressed text form (signed 5-bit groups, characters ``'0'`` to ``'o'``,
    from the fourth count on as differences to the count two places
    earlier). ``counts`` may also be given as a ``str``. An *uncompressed*
    RLE has a list of ints as ``counts`` and is only read by
    :func:`frPyObjects`.
Box
    ``[x, y, w, h]`` in pixels; ``[0, 0, 1, 1]`` covers the first pixel.
Polygon
    ``[x1, y1, x2, y2, ...]`` (an odd last value is ignored); an object is
    a list of polygons, whose masks :func:`frPyObjects` returns separately
    (``merge`` them for the object's mask).

Errors
------
Where pycocotools raises, the same exception type and message are raised
(including its plain ``Exception`` and ``AssertionError`` in ``iou`` and
``frPyObjects``, and Cython's buffer messages such as ``"ndarray is not
Fortran contiguous"``). Where pycocotools would crash, hang or return
uninitialised memory, a ``ValueError`` saying why is raised instead:

* a ``counts`` string that is not a valid encoding (characters outside
  ``'0'`` to ``'o'``, a truncated last value, a count outside 0 .. 2^32 - 1);
* ``decode`` of RLEs whose counts do not cover exactly ``h * w`` pixels,
  of RLEs of different sizes, or of an empty list;
* ``iou`` or ``merge`` of two RLEs of the same size whose counts cover
  different numbers of pixels (pycocotools loops forever), and ``merge``
  of an RLE with empty counts (pycocotools segfaults);
* ``toBbox`` (or ``iou``) of an RLE with set pixels and height 0;
* polygon or box coordinates that are NaN, infinite or beyond about
  ±4.29e8 (pycocotools' ``int`` conversions overflow);
* ``encode`` of an array that is neither 2-D nor 3-D (pycocotools returns
  None).

Sizes and flags are converted like pycocotools' Cython code: ``h``, ``w``
and ``size`` entries may be any object with ``__int__`` (2.7 becomes 2),
negative values raise ``OverflowError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .._common.threads import resolve_threads, threads_for

__all__ = ["area", "decode", "encode", "frPyObjects", "iou", "merge", "toBbox"]

RLE = dict[str, Any]

# Below this many RLE pairs iou runs on one thread.
_SERIAL_PAIRS = 4096

_CYTHON_TYPE_NAMES = {
    "b": "'signed char'",
    "B": "'unsigned char'",
    "?": "'bool'",
    "h": "'short'",
    "H": "'unsigned short'",
    "i": "'int'",
    "I": "'unsigned int'",
    "l": "'long'",
    "L": "'unsigned long'",
    "q": "'long long'",
    "Q": "'unsigned long long'",
    "f": "'float'",
    "d": "'double'",
    "g": "'long double'",
    "F": "'complex float'",
    "D": "'complex double'",
    "G": "'complex long double'",
    "O": "Python object",
    "S": "a string",
    "V": "end",
}


def _type_name(obj: object) -> str:
    """The C-level name of an object's type, as Cython prints it."""
    cls = type(obj)
    if cls.__module__ == "builtins" or cls.__flags__ & (1 << 9):  # builtin or heap (Python) type
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def _check_buffer(array: np.ndarray, ctype: str, accepted: str, ndim: int, fortran: bool = False) -> None:
    """Cython's checks when it acquires a typed NumPy buffer, in its order."""
    dtype = array.dtype
    if dtype.kind in "mM":
        raise ValueError(f"cannot include dtype '{dtype.kind}' in a buffer")
    if fortran and not array.flags.f_contiguous:
        raise ValueError("ndarray is not Fortran contiguous")
    if array.ndim != ndim:
        raise ValueError(f"Buffer has wrong number of dimensions (expected {ndim}, got {array.ndim})")
    if dtype.char in "eU":
        raise ValueError(
            f"Does not understand character buffer dtype format string ('{'w' if dtype.char == 'U' else 'e'}')"
        )
    if not dtype.isnative:
        raise ValueError("Big-endian buffer not supported on little-endian compiler")
    if dtype.char not in accepted:
        got = _CYTHON_TYPE_NAMES.get(dtype.char, f"'{dtype}'")
        raise ValueError(f"Buffer dtype mismatch, expected '{ctype}' but got {got}")


def _as_int(value: Any) -> int:
    if isinstance(value, int):
        return int(value)
    to_int = getattr(type(value), "__int__", None)
    if to_int is None:
        raise TypeError("an integer is required")
    return int(to_int(value))


def _siz(value: Any) -> int:
    """``value`` as pycocotools' ``siz`` (C unsigned long)."""
    number = _as_int(value)
    if number < 0:
        raise OverflowError("can't convert negative value to siz")
    if number >= 1 << 64:
        raise OverflowError("Python int too large to convert to C unsigned long")
    return number


def _parse(rleObjs: Any) -> Any:
    """Parse and validate a sequence of compressed RLE objects."""
    return _core.coco_masks.parse(rleObjs)


def _encode(masks: Any, n_threads: int | None) -> list[RLE]:
    if not isinstance(masks, np.ndarray):
        raise TypeError(f"Argument 'mask' has incorrect type (expected numpy.ndarray, got {_type_name(masks)})")
    _check_buffer(masks, "uint8_t", "B?", 3, fortran=True)
    threads = threads_for(resolve_threads(n_threads), masks.size)
    return _core.coco_masks.encode(masks, threads)


def encode(bimask: np.ndarray, *, n_threads: int | None = None) -> RLE | list[RLE]:
    """Run-length encode binary masks.

    Parameters
    ----------
    bimask : numpy.ndarray
        An ``(h, w)`` mask, or ``(h, w, n)`` masks, of dtype uint8 or bool in
        Fortran (column-major) order, as pycocotools requires; C-ordered
        arrays raise ``ValueError("ndarray is not Fortran contiguous")``
        (use ``np.asfortranarray``). A new run starts wherever a value
        differs from the previous one, as in pycocotools, so masks should
        hold 0 and 1 only.
    n_threads : int, optional
        Threads for several masks (default: :func:`turbometrics.get_num_threads`).

    Returns
    -------
    dict or list of dict
        ``{'size': [h, w], 'counts': bytes}`` for a 2-D mask, a list of
        ``n`` of them for a 3-D array (``[]`` when ``n == 0``). A mask with
        no pixels encodes as ``b'0'``.

    Raises
    ------
    ValueError
        For a dtype other than uint8/bool, a non-Fortran-ordered array, or
        an array that is neither 2-D nor 3-D.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.coco import mask as maskUtils
    >>> m = np.zeros((4, 5), dtype=np.uint8, order="F")
    >>> m[1:3, 1:4] = 1
    >>> rle = maskUtils.encode(m)
    >>> rle
    {'size': [4, 5], 'counts': b'5220003'}
    >>> maskUtils.encode(np.asfortranarray(np.stack([m, m], axis=2)))[1]["counts"]
    b'5220003'
    """
    shape = bimask.shape
    if len(shape) == 3:
        return _encode(bimask, n_threads)
    if len(shape) == 2:
        h, w = shape
        return _encode(bimask.reshape((h, w, 1), order="F"), n_threads)[0]
    raise ValueError(f"encode expects an (h, w) or (h, w, n) array, got {len(shape)} dimensions")


def _decode(rleObjs: Any, n_threads: int | None) -> np.ndarray:
    threads = resolve_threads(n_threads)
    rles = _parse(rleObjs)
    threads = threads_for(threads, int(min(rles.pixels(), 2.0**62))) if len(rles) > 1 else 1
    return _core.coco_masks.decode(rles, threads)


def decode(rleObjs: RLE | list[RLE], *, n_threads: int | None = None) -> np.ndarray:
    """Decode RLE masks.

    Parameters
    ----------
    rleObjs : dict or list of dict
        One RLE or a list of RLEs, all of the same size.
    n_threads : int, optional
        Threads for several masks.

    Returns
    -------
    numpy.ndarray
        uint8 0/1 values in Fortran order: ``(h, w)`` for one RLE,
        ``(h, w, n)`` for a list.

    Raises
    ------
    ValueError
        If a counts string is malformed, if an RLE's counts do not cover
        exactly ``h * w`` pixels (pycocotools raises ``"Invalid RLE mask
        representation"`` for too many and returns uninitialised memory for
        too few), if the RLEs differ in size, or for an empty list.
    TypeError
        If ``counts`` is neither bytes nor str (e.g. an uncompressed RLE:
        convert it with :func:`frPyObjects` first).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.coco import mask as maskUtils
    >>> m = np.zeros((4, 5), dtype=np.uint8, order="F")
    >>> m[1:3, 1:4] = 1
    >>> rle = maskUtils.encode(m)
    >>> np.array_equal(maskUtils.decode(rle), m)
    True
    >>> maskUtils.decode([rle]).shape
    (4, 5, 1)
    """
    if type(rleObjs) is list:
        return _decode(rleObjs, n_threads)
    return _decode([rleObjs], n_threads)[:, :, 0]


def area(rleObjs: RLE | list[RLE]) -> np.uint32 | np.ndarray:
    """Number of set pixels of RLE masks.

    Parameters
    ----------
    rleObjs : dict or list of dict
        One RLE or a list of RLEs.

    Returns
    -------
    numpy.uint32 or numpy.ndarray
        The area (a ``numpy.uint32``) for one RLE, a uint32 array for a
        list. As in pycocotools the sum of the runs of 1s is taken modulo
        2^32, and the counts are not checked against the size.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.coco import mask as maskUtils
    >>> m = np.zeros((4, 5), dtype=np.uint8, order="F")
    >>> m[1:3, 1:4] = 1
    >>> int(maskUtils.area(maskUtils.encode(m)))
    6
    """
    if type(rleObjs) is list:
        return _core.coco_masks.area(rleObjs)
    return _core.coco_masks.area([rleObjs])[0]


def toBbox(rleObjs: RLE | list[RLE]) -> np.ndarray:
    """Bounding boxes ``[x, y, w, h]`` of RLE masks.

    Parameters
    ----------
    rleObjs : dict or list of dict
        One RLE or a list of RLEs.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(4,)`` for one RLE (a view of a ``(1, 4)`` array)
        or ``(n, 4)``. An empty mask (counts ``[h * w]``) gives
        ``[0, 0, 0, 0]``. Exactly pycocotools' rleToBbox: a run of 1s that
        spans two or more columns widens the box to the full height, and
        counts with two or more entries but no set pixel give
        ``[w, h, 2**32 - w + 1, 2**32 - h + 1]`` (unsigned wrap-around).

    Raises
    ------
    ValueError
        For a malformed counts string, or set pixels with height 0
        (pycocotools divides by zero).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.coco import mask as maskUtils
    >>> m = np.zeros((4, 5), dtype=np.uint8, order="F")
    >>> m[1:3, 1:4] = 1
    >>> maskUtils.toBbox(maskUtils.encode(m))
    array([1., 1., 3., 2.])
    """
    if type(rleObjs) is list:
        return _core.coco_masks.to_bbox(rleObjs)
    return _core.coco_masks.to_bbox([rleObjs])[0]


def merge(rleObjs: list[RLE], intersect: Any = 0) -> RLE:
    """Union or intersection of RLE masks.

    Parameters
    ----------
    rleObjs : list of dict
        RLEs of one size.
    intersect : int or bool, default 0
        Intersection if nonzero (after C ``int`` conversion, so 0.5 means
        union), union otherwise.

    Returns
    -------
    dict
        The merged RLE. As in pycocotools: an empty list gives
        ``{'size': [0, 0], 'counts': b''}``, one RLE is returned
        re-encoded, and if some RLE's size differs from the first one's the
        result is ``{'size': [0, 0], 'counts': b''}``.

    Raises
    ------
    ValueError
        For malformed counts strings, RLEs of one size whose counts cover
        different numbers of pixels, or an RLE with empty counts among
        several (pycocotools hangs or crashes on these).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.coco import mask as maskUtils
    >>> m = np.zeros((4, 5), dtype=np.uint8, order="F")
    >>> m[1:3, 1:4] = 1
    >>> other = np.zeros((4, 5), dtype=np.uint8, order="F")
    >>> other[:, 2] = 1
    >>> both = maskUtils.merge([maskUtils.encode(m), maskUtils.encode(other)])
    >>> int(maskUtils.area(both))
    8
    >>> int(maskUtils.area(maskUtils.merge([maskUtils.encode(m), maskUtils.encode(other)], intersect=True)))
    2
    """
    return _core.coco_masks.merge(rleObjs, intersect)


def _iou_operand(objs: Any) -> Any:
    """pycocotools' conversion of an ``iou`` argument: RLE lists are
    parsed, box lists and arrays become float64 arrays, empty inputs stay."""
    if len(objs) == 0:
        return objs
    if type(objs) is np.ndarray:
        if len(objs.shape) == 1:
            objs = objs.reshape((objs[0], 1))  # pycocotools' own (always failing) 1-D handling
        if len(objs.shape) != 2 or objs.shape[1] != 4:
            raise Exception("numpy ndarray input is only for *bounding boxes* and should have Nx4 dimension")
        return objs.astype(np.double)
    if type(objs) is list:
        box_flags = [len(obj) == 4 and (type(obj) is list or type(obj) is np.ndarray) for obj in objs]
        rle_flags = [type(obj) is dict for obj in objs]
        if all(box_flags):
            boxes = np.array(objs, dtype=np.double)
            if len(boxes.shape) == 1:
                boxes = boxes.reshape((1, boxes.shape[0]))
            return boxes
        if all(rle_flags):
            return _parse(objs)
        raise Exception("list input can be bounding box (Nx4) or RLEs ([RLE])")
    raise Exception(
        "unrecognized type.  The following type: RLEs (rle), np.ndarray (box), and list (box) are supported."
    )


def _operand_length(objs: Any) -> int:
    if type(objs) is _core.coco_masks.RleBatch:
        return len(objs)
    if len(objs) == 0:
        return 0
    if type(objs) is np.ndarray:
        return objs.shape[0]
    return 0


def iou(dt: Any, gt: Any, pyiscrowd: Any, *, n_threads: int | None = None) -> np.ndarray | list[Any]:
    """Intersection over union of every detection with every ground truth.

    Parameters
    ----------
    dt, gt : list of dict, list of boxes, or numpy.ndarray
        RLEs (a list of RLE dicts) or boxes (a list of 4-element lists or
        arrays, or an ``(n, 4)`` array); both must be of the same kind.
    pyiscrowd : sequence of bool or int
        One flag per ground truth (converted with
        ``np.array(pyiscrowd, dtype=np.uint8)``). For a crowd ground truth
        the union is the detection's area, so a detection inside a crowd
        region scores 1.
    n_threads : int, optional
        Threads for large matrices.

    Returns
    -------
    numpy.ndarray or list
        float64 of shape ``(len(dt), len(gt))`` in Fortran order, or ``[]``
        when either input is empty. Box IoU is 0 unless the overlap has a
        positive width and height. RLE pairs whose bounding boxes do not
        overlap are 0, pairs of different sizes whose boxes overlap are -1,
        and pairs with no common pixel are 0, all as pycocotools.

    Raises
    ------
    AssertionError
        If ``len(pyiscrowd) != len(gt)`` (pycocotools' assertion).
    Exception
        For unsupported inputs or mixed RLEs and boxes, with pycocotools'
        messages.
    ValueError
        For malformed RLE strings, or two RLEs of one size whose counts
        cover different numbers of pixels (pycocotools loops forever).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics.coco import mask as maskUtils
    >>> dt = np.array([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 10.0, 10.0]])
    >>> gt = np.array([[0.0, 0.0, 10.0, 20.0]])
    >>> maskUtils.iou(dt, gt, [0])
    array([[0.5],
           [0.2]])
    >>> maskUtils.iou(dt, gt, [1])   # a crowd ground truth: the union is the detection's area
    array([[1. ],
           [0.5]])
    """
    iscrowd = np.array(pyiscrowd, dtype=np.uint8)
    if iscrowd.ndim != 1:
        raise ValueError(f"Buffer has wrong number of dimensions (expected 1, got {iscrowd.ndim})")
    dt = _iou_operand(dt)
    gt = _iou_operand(gt)
    m = _operand_length(dt)
    n = _operand_length(gt)
    if len(pyiscrowd) != n:
        raise AssertionError("iou(iscrowd=) must have the same length as gt")
    if m == 0 or n == 0:
        return []
    if type(dt) is not type(gt):
        raise Exception("The dt and gt should have the same data type, either RLEs, list or np.ndarray")
    threads = resolve_threads(n_threads)
    if type(dt) is _core.coco_masks.RleBatch:
        return _core.coco_masks.rle_iou(dt, gt, iscrowd, threads if m * n >= _SERIAL_PAIRS else 1)
    for boxes in (dt, gt):
        if boxes.ndim != 2:
            raise ValueError(f"Buffer has wrong number of dimensions (expected 2, got {boxes.ndim})")
    return _core.coco_masks.box_iou(
        np.ascontiguousarray(dt), np.ascontiguousarray(gt), iscrowd, threads_for(threads, m * n)
    )


def _fr_bbox(bb: Any, h: Any, w: Any) -> list[RLE]:
    height, width = _siz(h), _siz(w)
    if not isinstance(bb, np.ndarray):
        raise TypeError(f"Argument 'bb' has incorrect type (expected numpy.ndarray, got {_type_name(bb)})")
    _check_buffer(bb, "double_t", "d", 2)
    return _core.coco_masks.from_bbox(np.ascontiguousarray(bb), height, width)


def _fr_poly(poly: Any, h: Any, w: Any) -> list[RLE]:
    # h and w as siz, then each polygon as np.array(p, dtype=np.double), 1-D
    return _core.coco_masks.from_polygons(poly, h, w)


def _fr_uncompressed(ucRles: Any, h: Any, w: Any) -> list[RLE]:
    _siz(h), _siz(w)  # converted (and checked) but unused, as in pycocotools
    out = []
    for i in range(len(ucRles)):
        counts = np.array(ucRles[i]["counts"], dtype=np.uint32)
        if counts.ndim != 1:
            raise ValueError(f"Buffer has wrong number of dimensions (expected 1, got {counts.ndim})")
        height = _siz(ucRles[i]["size"][0])
        width = _siz(ucRles[i]["size"][1])
        out.append(_core.coco_masks.from_counts(counts, height, width))
    return out


def frPyObjects(pyobj: Any, h: Any, w: Any) -> RLE | list[RLE]:
    """Convert polygons, boxes or uncompressed RLEs to compressed RLEs.

    Parameters
    ----------
    pyobj : list, numpy.ndarray or dict
        Dispatched exactly as pycocotools does, on the type of ``pyobj``
        and the length of its first element:

        * an ``(n, 4)`` float64 array: boxes (other dtypes and 1-D arrays
          raise pycocotools' ``ValueError``);
        * a list whose first element has 4 entries: boxes, which
          pycocotools only accepts as an array, so this raises its
          ``TypeError`` ("Argument 'bb' has incorrect type");
        * a list whose first element has more than 4 entries: polygons
          (lists, tuples or 1-D arrays of x, y values), one RLE each;
        * a list of dicts with ``'counts'`` and ``'size'``: uncompressed
          RLEs (``counts`` a list of ints; the dict's own ``size`` is used,
          ``h`` and ``w`` are only validated);
        * a dict with ``'counts'`` and ``'size'``: one uncompressed RLE.

        A flat list of numbers raises pycocotools' ``TypeError`` ("object
        of type 'float' has no len()").
    h, w : int
        Image height and width.

    Returns
    -------
    dict or list of dict
        A list for list and array inputs, one RLE for a dict.

    Notes
    -----
    Polygons are rasterised with pycocotools' exact rules: coordinates are
    scaled by 5 and rounded as C's ``(int)(5 v + 0.5)``; each edge is walked
    in scaled units along its longer axis; a pixel column's boundary is kept
    where the walk crosses the column's centre, clamped to [0, h]; pixels
    are set from those boundaries down each column. Out-of-image,
    negative, fractional, repeated and collinear vertices, self-intersecting
    polygons and polygons with fewer than 3 vertices (after the first) give
    exactly pycocotools' masks; ``h`` or ``w`` of 0 too. A box ``[x, y, w,
    h]`` is the polygon (x, y), (x, y + h), (x + w, y + h), (x + w, y), so
    boxes with negative or zero sizes follow the polygon rules.

    Raises
    ------
    Exception
        ``'input type is not supported.'`` for anything else.
    ValueError
        For NaN, infinite or huge (beyond about ±4.29e8) coordinates, where
        pycocotools' int conversions are undefined.
    OverflowError
        For negative sizes or counts outside uint32.

    Examples
    --------
    >>> from turbometrics.coco import mask as maskUtils
    >>> polygon = [[1.0, 1.0, 4.0, 1.0, 4.0, 3.0, 1.0, 3.0]]
    >>> rles = maskUtils.frPyObjects(polygon, 5, 6)
    >>> len(rles), rles[0]["size"]
    (1, [5, 6])
    >>> maskUtils.area(rles)
    array([6], dtype=uint32)
    """
    if type(pyobj) is np.ndarray:
        return _fr_bbox(pyobj, h, w)
    if type(pyobj) is list:
        first = pyobj[0]
        first_length = len(first)
        if first_length == 4:
            return _fr_bbox(pyobj, h, w)
        if first_length > 4:
            return _fr_poly(pyobj, h, w)
        if type(first) is dict and "counts" in first and "size" in first:
            return _fr_uncompressed(pyobj, h, w)
        if len(pyobj) == 4:
            return _fr_bbox([pyobj], h, w)[0]
        if len(pyobj) > 4:
            return _fr_poly([pyobj], h, w)[0]
    elif type(pyobj) is dict and "counts" in pyobj and "size" in pyobj:
        return _fr_uncompressed([pyobj], h, w)[0]
    raise Exception("input type is not supported.")
