"""Cityscapes' instance-level IoU (iIoU): IoU whose true positives and false
negatives are weighted per ground-truth instance, so that large objects do
not dominate a class's score.

The rules are those of cityscapesScripts 2.3.0
(``evaluation/evalPixelLevelSemanticLabeling.py``). The ground truth is an
instance map as Cityscapes' ``*_instanceIds.png``: a pixel of an instance
holds ``class * 1000 + index``, any other pixel its class. Every id above
1000 is an instance of class ``id // 1000`` (ids of 1000 and below are not,
as in the scripts' ``instanceNp > 1000``); the semantic label of a pixel is
``id // 1000`` for ids of 1000 and above, the id itself below. For each
instance of a class with an average instance size (and not ignored),
``w = average_size / instance_size``; its pixels predicted as its class
add ``w`` each to the class's iTP, the others ``w`` each to its iFN. The
false positives are unweighted: pixels predicted as the class whose true
label is another class that is not ignored. ``iIoU = iTP / (iTP + FP +
iFN)``, NaN for ignored classes, classes without an average size and a
zero denominator; the mean is over the classes that are not NaN.

Every count comes from one :func:`confusion_matrix` pass per image: the
map relabelled by distinct id (each id of the image a row, in increasing
order) against the prediction. An instance's row gives its size and true
positives; the rows added by class give the semantic counts (the false
positives). Ids are below 2**22.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Integral, Real
from typing import Any, NoReturn

import numpy as np

from .._common.mergeable import Mergeable, check_mergeable
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, Constraint, str_options, validate_params
from .._common.validation import as_array
from ._confusion import _CONSTRAINTS as _MAP_CONSTRAINTS, MAX_CLASSES, confusion_matrix

#: Cityscapes' average instance size of each class with instances, in
#: pixels, by Cityscapes label id (not train id): cityscapesScripts 2.3.0's
#: ``args.avgClassSize`` of ``evalPixelLevelSemanticLabeling.py`` (person 24,
#: rider 25, car 26, truck 27, bus 28, caravan 29, trailer 30, train 31,
#: motorcycle 32, bicycle 33; caravan and trailer are ignored in evaluation).
CITYSCAPES_AVERAGE_INSTANCE_SIZES: Mapping[int, float] = {
    24: 3462.4756337644,
    25: 3930.4788056518,
    26: 12794.0202738185,
    27: 27855.1264367816,
    28: 35732.1511111111,
    29: 36771.8241758242,
    30: 16926.9763313609,
    31: 67583.7075812274,
    32: 6298.7200839748,
    33: 4672.3249222261,
}

#: The Cityscapes label ids (0 to 33) whose ``ignoreInEval`` is true in
#: cityscapesScripts 2.3.0's ``helpers/labels.py``: unlabeled, ego vehicle,
#: rectification border, out of roi, static, dynamic, ground, parking, rail
#: track, guard rail, bridge, tunnel, polegroup, caravan and trailer.
CITYSCAPES_IGNORED_CLASSES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 9, 10, 14, 15, 16, 18, 29, 30)

#: Cityscapes' categories by label id (cityscapesScripts 2.3.0's
#: ``category2labels`` without the license plate, id -1), in its order. Only
#: human and vehicle have instances in every class: the others' category
#: iIoU is NaN.
CITYSCAPES_CATEGORIES: Mapping[str, tuple[int, ...]] = {
    "void": (0, 1, 2, 3, 4, 5, 6),
    "flat": (7, 8, 9, 10),
    "construction": (11, 12, 13, 14, 15, 16),
    "object": (17, 18, 19, 20),
    "nature": (21, 22),
    "sky": (23,),
    "human": (24, 25),
    "vehicle": (26, 27, 28, 29, 30, 31, 32, 33),
}

#: An instance's id is above this; its class is ``id // INSTANCE_ID_BASE``.
INSTANCE_ID_BASE = 1000
#: Ids are below this (classes with instances up to 4193): each image's ids
#: are relabelled through a table of ``max(id) + 1`` entries.
MAX_ID = 2**22

_PARAMETERS = ("num_classes", "average_instance_sizes", "ignored_classes", "ignore_index", "categories")

_CONSTRAINTS = {
    "y_true_instances": [ARRAY_LIKE],
    "y_pred": [ARRAY_LIKE],
    "num_classes": _MAP_CONSTRAINTS["num_classes"],
    "average_instance_sizes": [Constraint("a dict of int to float", lambda value: isinstance(value, Mapping))],
    "ignored_classes": [Constraint("an iterable of int", lambda value: isinstance(value, Iterable))],
    "ignore_index": _MAP_CONSTRAINTS["ignore_index"],
    "categories": [NONE, Constraint("a dict of str to iterables of int", lambda value: isinstance(value, Mapping))],
    "average": [str_options({"macro"}), NONE],
    "level": [str_options({"class", "category"})],
    "batch": [BOOLEAN],
    "n_threads": _MAP_CONSTRAINTS["n_threads"],
}


class InstanceIoUState(Mergeable):
    """The counts of Cityscapes' instance-level IoU over a stream of images:
    the confusion counts of the semantic labels (K x K int64) and each
    class's weighted true positives and false negatives (float64).

    Parameters
    ----------
    num_classes : int
        K; the semantic labels are 0 .. K - 1.
    average_instance_sizes : dict of int to float
        The classes with instances and their average instance size in
        pixels (positive, finite), which weighs each instance
        (:data:`CITYSCAPES_AVERAGE_INSTANCE_SIZES` for Cityscapes). Instances
        of other classes are not counted, and those classes' iIoU is NaN.
    ignored_classes : iterable of int, default=()
        Classes left out of the evaluation, as Cityscapes' ``ignoreInEval``
        labels (:data:`CITYSCAPES_IGNORED_CLASSES`): their iIoU is NaN,
        their instances are not counted, and pixels whose true label is one
        of them are no class's false positives.
    ignore_index : int, default=None
        Pixels whose semantic label is this value are skipped altogether
        (for a label outside [0, K), such as 255).
    categories : dict of str to iterable of int, default=None
        Groups of classes (each class in at most one) for the category-level
        iIoU (``score(level="category")``; :data:`CITYSCAPES_CATEGORIES`).
        A category is scored when every class in it has an average size:
        an instance's pixels predicted as any class of its category are its
        category's true positives, weighted as for its class, and the false
        positives are the pixels predicted as one of the category's classes
        whose true class is outside the category and not ignored.

    Notes
    -----
    Updated image by image in a dataset's order, the weighted sums are
    added in cityscapesScripts' order (images in turn, each image's
    instances by increasing id), so the scores are its bits. A merge adds
    two states' sums: the scores then equal the sequential ones to within
    float64 rounding of the sums (a relative 1e-15 or so per merge), and
    the counts exactly. Memory: K^2 int64 and 2 K float64.
    """

    @validate_params({name: _CONSTRAINTS[name] for name in _PARAMETERS}, bind_like_scikit_learn=False)
    def __init__(
        self,
        num_classes: int,
        *,
        average_instance_sizes: Mapping[int, float],
        ignored_classes: Iterable[int] = (),
        ignore_index: int | None = None,
        categories: Mapping[str, Iterable[int]] | None = None,
    ) -> None:
        k = int(num_classes)
        self.num_classes = k
        self.ignore_index = None if ignore_index is None else int(ignore_index)
        self.average_instance_sizes = _sizes(average_instance_sizes, k)
        self.ignored_classes = _ignored(ignored_classes, k)
        self.categories = _categories(categories or {}, k)
        self._category_of = np.full(k, -1, dtype=np.intp)
        for index, (_, members) in enumerate(self.categories):
            self._category_of[list(members)] = index
        self._counts = np.zeros((k, k), dtype=np.int64)
        self._weighted = np.zeros((2, k + len(self.categories)), dtype=np.float64)

    def update(
        self, y_true_instances: Any, y_pred: Any, *, batch: bool = False, n_threads: int | None = None
    ) -> InstanceIoUState:
        """Add images in place and return self.

        Parameters
        ----------
        y_true_instances : array-like of int
            The ground truth as an instance map (``class * 1000 + index`` in
            an instance, the class elsewhere), of any dimension.
        y_pred : array-like of int, same shape
            Predicted labels, 0 .. K - 1.
        batch : bool, default=False
            False: the maps are one image. True: their first axis is the
            image (instance ids are per image: 26001 in two images are two
            instances).
        n_threads : int, default=None
            Threads for the counting passes (the counts are the same for
            every count).

        Raises
        ------
        ValueError, TypeError
            As :func:`confusion_matrix` for the semantic labels (named
            ``y_true``) and the prediction (shapes, dtypes, labels outside
            [0, K)), for an id outside [0, 2**22), and for an image with
            more than 65535 distinct ids; the state is then unchanged.
        """
        instances, prediction = as_array(y_true_instances), as_array(y_pred)
        if instances.dtype.kind not in "biu":
            raise TypeError(f"y_true_instances must be a map of integer ids, got dtype {instances.dtype}.")
        if instances.shape != prediction.shape:
            raise ValueError(
                f"y_true_instances and y_pred have different shapes: {instances.shape} and {prediction.shape}."
            )
        if batch and instances.ndim < 2:
            raise ValueError(f"batch=True needs maps whose first axis is the image; got shape {instances.shape}.")
        images = zip(instances, prediction) if batch else [(instances, prediction)]
        counts, weighted = self._counts.copy(), self._weighted.copy()
        for image_instances, image_prediction in images:
            self._add_image(counts, weighted, image_instances, as_array(image_prediction), n_threads)
        self._counts, self._weighted = counts, weighted
        return self

    def _add_image(
        self, counts: np.ndarray, weighted: np.ndarray, ids: np.ndarray, prediction: np.ndarray, n_threads: int | None
    ) -> None:
        """Add one image to the semantic ``counts`` and to ``weighted`` (iTP,
        iFN; its instances by increasing id).

        One :func:`confusion_matrix` pass: each distinct id of the image that
        is not ignored becomes a row (in increasing order), so that the
        counts give every instance's size and true positives, and the
        semantic counts are the rows added by their class."""
        k = self.num_classes
        if ids.size == 0:
            return
        lowest, highest = int(ids.min()), int(ids.max())
        if lowest < 0 or highest >= MAX_ID:
            value = lowest if lowest < 0 else highest
            raise ValueError(f"y_true_instances holds id {value}, outside [0, {MAX_ID}).")
        if ids.dtype.kind == "b" or (ids.dtype.kind == "u" and ids.dtype.itemsize == 8):
            ids = ids.astype(np.int64)  # np.bincount reads neither
        present = np.flatnonzero(np.bincount(ids.ravel(), minlength=highest + 1))
        semantic = np.where(present >= INSTANCE_ID_BASE, present // INSTANCE_ID_BASE, present)
        kept = semantic != self.ignore_index if self.ignore_index is not None else np.ones(present.shape, dtype=bool)
        n = int(kept.sum())
        if np.any(kept & (semantic >= k)):
            self._raise_first_invalid(ids, prediction, n_threads)
        if n > MAX_CLASSES:
            raise ValueError(f"an image holds {n} distinct ids; at most {MAX_CLASSES} are supported.")
        rows = np.full(highest + 1, -1, dtype=np.int32)
        rows[present[kept]] = np.arange(n, dtype=np.int32)
        try:
            per_id = confusion_matrix(
                rows[ids], prediction, num_classes=max(n, k), ignore_index=-1, n_threads=n_threads
            )
        except ValueError:  # a predicted label outside [0, max(n, k)): the message in terms of [0, k)
            self._raise_first_invalid(ids, prediction, n_threads)
        if n > k and per_id[:, k:].any():  # a predicted label in [k, n)
            self._raise_first_invalid(ids, prediction, n_threads)
        per_id, classes, present = per_id[:n, :k], semantic[kept], present[kept]
        np.add.at(counts, classes, per_id)
        instance = (present > INSTANCE_ID_BASE) & self._counted_classes()[classes]
        per_instance, classes = per_id[instance], classes[instance]
        size = per_instance.sum(axis=1)
        true_positives = per_instance[np.arange(len(classes)), classes]
        weight = self.average_instance_sizes[classes] / size.astype(np.float64)
        np.add.at(weighted[0], classes, true_positives.astype(np.float64) * weight)
        np.add.at(weighted[1], classes, (size - true_positives).astype(np.float64) * weight)
        if self.categories:
            category = self._category_of[classes]
            inside = category >= 0
            inside[inside] = self._scored_categories()[category[inside]]
            members = self._category_members()[category[inside]]
            category_true_positives = (per_instance[inside] * members).sum(axis=1)
            rest, groups = size[inside] - category_true_positives, k + category[inside]
            np.add.at(weighted[0], groups, category_true_positives.astype(np.float64) * weight[inside])
            np.add.at(weighted[1], groups, rest.astype(np.float64) * weight[inside])

    def _raise_first_invalid(self, ids: np.ndarray, prediction: np.ndarray, n_threads: int | None) -> NoReturn:
        """Raise :func:`confusion_matrix`'s ValueError for the semantic labels
        of ``ids`` against ``prediction``: it names the first pixel whose
        semantic (``y_true``) or predicted (``y_pred``) label is outside
        [0, K) and not ignored."""
        semantic = np.where(ids >= INSTANCE_ID_BASE, ids // INSTANCE_ID_BASE, ids)
        confusion_matrix(
            semantic, prediction, num_classes=self.num_classes, ignore_index=self.ignore_index, n_threads=n_threads
        )
        raise AssertionError("a label outside [0, K) was found")  # pragma: no cover

    def _counted_classes(self) -> np.ndarray:
        """(K,) bool: the classes whose instances count (an average size,
        not ignored, not ``ignore_index``)."""
        counted = ~np.isnan(self.average_instance_sizes) & ~self.ignored_classes
        if self.ignore_index is not None and 0 <= self.ignore_index < self.num_classes:
            counted[self.ignore_index] = False
        return counted

    def _category_members(self) -> np.ndarray:
        """(n_categories, K) int64: 1 where the class is in the category."""
        members = np.zeros((len(self.categories), self.num_classes), dtype=np.int64)
        for index, (_, classes) in enumerate(self.categories):
            members[index, list(classes)] = 1
        return members

    def _scored_categories(self) -> np.ndarray:
        """(n_categories,) bool: every class of the category has an average size."""
        sized = ~np.isnan(self.average_instance_sizes)
        return np.array([sized[list(classes)].all() for _, classes in self.categories], dtype=bool)

    def merge(self, other: InstanceIoUState) -> InstanceIoUState:
        """A new state holding the images of both: counts added exactly,
        weighted sums added (``self``'s plus ``other``'s).

        Raises
        ------
        TypeError
            If ``other`` is not an InstanceIoUState.
        ValueError
            If their parameters differ.
        """
        check_mergeable(self, other, ("num_classes", "ignore_index", "categories"))
        for name in ("average_instance_sizes", "ignored_classes"):
            if not np.array_equal(getattr(self, name), getattr(other, name), equal_nan=True):
                raise ValueError(f"cannot merge InstanceIoUState objects with different {name}")
        out = InstanceIoUState.__new__(InstanceIoUState)
        out.__dict__.update(self.__dict__)
        out._counts = self._counts + other._counts
        out._weighted = self._weighted + other._weighted
        return out

    def confusion_matrix(self) -> np.ndarray:
        """The K x K int64 counts of the semantic labels, rows true (a copy)."""
        return self._counts.copy()

    def weighted_sums(self) -> np.ndarray:
        """(2, K + n_categories) float64: each class's, then each
        category's, weighted true positives (iTP) and false negatives (iFN)
        (a copy)."""
        return self._weighted.copy()

    @validate_params(
        {"average": _CONSTRAINTS["average"], "level": _CONSTRAINTS["level"]},
        bind_like_scikit_learn=False,
        name="InstanceIoUState.score",
    )
    def score(self, *, average: str | None = "macro", level: str = "class") -> Any:
        """The instance-level IoU.

        Parameters
        ----------
        average : {"macro"} or None, default="macro"
            ``"macro"``: the mean of the iIoU that are not NaN, added in
            class (or category) order as cityscapesScripts'
            ``getScoreAverage`` adds them (NaN if all are). None: the
            per-class iIoU, shape (K,), or per category (n_categories,).
        level : {"class", "category"}, default="class"
            Per class, or per category of ``categories``.

        Raises
        ------
        ValueError
            For ``level="category"`` in a state without categories.
        """
        scores = self._class_scores() if level == "class" else self._category_scores()
        return scores if average is None else _mean(scores)

    def _category_scores(self) -> np.ndarray:
        if not self.categories:
            raise ValueError("level='category' needs a state made with categories.")
        k, ignored = self.num_classes, self.ignored_classes
        members = self._category_members().astype(bool)
        false_positives = np.array(
            [self._counts[~ignored & ~inside][:, inside].sum() for inside in members], dtype=np.int64
        ).astype(np.float64)
        true_positives, false_negatives = self._weighted[:, k:]
        denominator = true_positives + false_positives + false_negatives
        return _ratio(true_positives, denominator, ~self._scored_categories() | (denominator == 0))

    def _class_scores(self) -> np.ndarray:
        ignored = self.ignored_classes
        evaluated_columns = self._counts[~ignored].sum(axis=0)
        diagonal = np.diagonal(self._counts)
        false_positives = (evaluated_columns - np.where(ignored, 0, diagonal)).astype(np.float64)
        true_positives, false_negatives = self._weighted[:, : self.num_classes]
        denominator = true_positives + false_positives + false_negatives
        return _ratio(true_positives, denominator, ignored | np.isnan(self.average_instance_sizes) | (denominator == 0))

    def __repr__(self) -> str:
        return f"InstanceIoUState(num_classes={self.num_classes}, n_pixels={int(self._counts.sum())})"


def _ratio(numerator: np.ndarray, denominator: np.ndarray, undefined: np.ndarray) -> np.ndarray:
    """``numerator / denominator``, NaN where ``undefined``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(undefined, np.nan, numerator / np.where(undefined, 1.0, denominator))


def _mean(scores: np.ndarray) -> float:
    """The scores that are not NaN added one after another in class order,
    over their number (NaN if none): cityscapesScripts' ``getScoreAverage``."""
    total, count = 0.0, 0
    for value in scores.tolist():
        if value == value:
            total += value
            count += 1
    return total / count if count else float("nan")


def _sizes(sizes: Mapping[int, float], k: int) -> np.ndarray:
    """(K,) float64 average sizes, NaN for classes without one."""
    table = np.full(k, np.nan)
    for label, size in sizes.items():
        if not isinstance(label, Integral) or isinstance(label, bool) or not 0 <= int(label) < k:
            raise ValueError(f"average_instance_sizes has class {label!r}, which is not an int in [0, {k}).")
        if not isinstance(size, Real) or not np.isfinite(size) or size <= 0:
            raise ValueError(f"average_instance_sizes[{label}] must be a positive finite number; got {size!r}.")
        table[int(label)] = float(size)
    return table


def _categories(categories: Mapping[str, Iterable[int]], k: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The categories as (name, classes) pairs, checked: str names, int
    classes in [0, K), none empty, no class in two."""
    pairs: list[tuple[str, tuple[int, ...]]] = []
    seen: set[int] = set()
    for name, members in categories.items():
        if not isinstance(name, str) or not isinstance(members, Iterable):
            raise ValueError(f"categories must map names to iterables of classes; got {name!r}: {members!r}.")
        classes = tuple(members)
        for label in classes:
            if not isinstance(label, Integral) or isinstance(label, bool) or not 0 <= int(label) < k:
                raise ValueError(f"categories[{name!r}] has {label!r}, which is not an int class in [0, {k}).")
            if int(label) in seen:
                raise ValueError(f"class {int(label)} is in two categories; each class is in at most one.")
            seen.add(int(label))
        if not classes:
            raise ValueError(f"categories[{name!r}] is empty.")
        pairs.append((name, tuple(int(label) for label in classes)))
    return tuple(pairs)


def _ignored(classes: Iterable[int], k: int) -> np.ndarray:
    """(K,) bool: the ignored classes."""
    table = np.zeros(k, dtype=bool)
    for label in classes:
        if not isinstance(label, Integral) or isinstance(label, bool) or not 0 <= int(label) < k:
            raise ValueError(f"ignored_classes has {label!r}, which is not an int class in [0, {k}).")
        table[int(label)] = True
    return table


@validate_params(_CONSTRAINTS, bind_like_scikit_learn=False)
def instance_iou(
    y_true_instances: Any,
    y_pred: Any,
    *,
    num_classes: int,
    average_instance_sizes: Mapping[int, float],
    ignored_classes: Iterable[int] = (),
    ignore_index: int | None = None,
    categories: Mapping[str, Iterable[int]] | None = None,
    average: str | None = "macro",
    level: str = "class",
    batch: bool = False,
    n_threads: int | None = None,
) -> Any:
    """Cityscapes' instance-level IoU (iIoU) of an instance map and a
    predicted label map.

    For each ground-truth instance (id above 1000, class ``id // 1000``)
    of a class with an average instance size, each of its pixels weighs
    ``average_size / instance_size``: those predicted as its class add to
    the class's weighted true positives iTP, the others to its weighted
    false negatives iFN. ``iIoU = iTP / (iTP + FP + iFN)``, FP being the
    unweighted pixels predicted as the class whose true class is another
    one that is not ignored (cityscapesScripts'
    ``evalPixelLevelSemanticLabeling``; its ``nIoU`` column).

    Parameters
    ----------
    y_true_instances : array-like of int
        The ground truth as Cityscapes' ``*_instanceIds.png``: ``class *
        1000 + index`` in an instance, the class elsewhere (its semantic
        label is ``id // 1000`` for ids of 1000 and above, the id below).
    y_pred : array-like of int, same shape
        Predicted labels 0 .. K - 1 (for Cityscapes, label ids, not train ids).
    num_classes : int
        K (34 for Cityscapes' label ids).
    average_instance_sizes : dict of int to float
        The classes with instances and their average instance size in
        pixels (:data:`CITYSCAPES_AVERAGE_INSTANCE_SIZES`).
    ignored_classes : iterable of int, default=()
        Classes left out (:data:`CITYSCAPES_IGNORED_CLASSES`): NaN iIoU, no
        instances, and their pixels no class's false positives.
    ignore_index : int, default=None
        Pixels whose semantic label is this value are skipped altogether.
    categories : dict of str to iterable of int, default=None
        Groups of classes for ``level="category"``
        (:data:`CITYSCAPES_CATEGORIES`; see :class:`InstanceIoUState`).
    average : {"macro"} or None, default="macro"
        The mean over the classes (or categories) that are not NaN, or
        per class (K,) (or per category, in the order of ``categories``).
    level : {"class", "category"}, default="class"
        The class-level iIoU, or the category-level one (cityscapesScripts'
        ``categoryInstScores``; needs ``categories``).
    batch : bool, default=False
        Whether the first axis is the image (instance ids are per image);
        by default the maps are one image of any dimension.
    n_threads : int, default=None
        Threads for the counting passes.

    Returns
    -------
    float or ndarray of float64, shape (K,) or (n_categories,)
        NaN for ignored classes, classes without an average size and classes
        with no instance pixel and no false positive (for categories: one of
        whose classes has no average size, or a zero denominator).

    Raises
    ------
    ValueError
        As :func:`confusion_matrix` (shapes, semantic or predicted labels
        outside [0, K)), for an id outside [0, 2**22), an average size that
        is not a positive finite number, or a class outside [0, K).
    TypeError
        For maps that are not integer arrays.

    See Also
    --------
    InstanceIoUState : the same counts over a stream of images, mergeable.

    Notes
    -----
    cityscapesScripts adds the weighted counts over a dataset image by
    image, each image's instances by increasing id: an
    :class:`InstanceIoUState` updated image by image adds them in the same
    order and gives its bits; this function over a batch (``batch=True``)
    does too. Cityscapes' own evaluation is ``num_classes=34``,
    ``average_instance_sizes=CITYSCAPES_AVERAGE_INSTANCE_SIZES``,
    ``ignored_classes=CITYSCAPES_IGNORED_CLASSES``, on label ids, and
    ``categories=CITYSCAPES_CATEGORIES`` for its category scores.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import segmentation
    >>> instances = np.array([[1, 1, 2001, 2001], [0, 2002, 2002, 2002]])
    >>> y_pred = np.array([[1, 2, 2, 0], [0, 2, 2, 1]])
    >>> segmentation.instance_iou(instances, y_pred, num_classes=3, average_instance_sizes={2: 2.5}, average=None)
    array([       nan,        nan, 0.48611111])

    Instance 2001 (2 pixels, one predicted 2) weighs 2.5 / 2, instance 2002
    (3 pixels, two predicted 2) 2.5 / 3: iTP = 1.25 + 5/3, iFN = 1.25 + 2.5/3,
    one pixel of class 1 is predicted 2 (FP = 1), and iIoU = (35/12) / 6.
    """
    state = InstanceIoUState(
        num_classes,
        average_instance_sizes=average_instance_sizes,
        ignored_classes=ignored_classes,
        ignore_index=ignore_index,
        categories=categories,
    )
    if level == "category" and not categories:
        raise ValueError("level='category' needs categories.")
    return state.update(y_true_instances, y_pred, batch=batch, n_threads=n_threads).score(average=average, level=level)
