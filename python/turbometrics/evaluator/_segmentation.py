"""``turbometrics.SegmentationEvaluator``: metrics of label maps, overall
and per group, fed batch by batch, merged across processes, on one
:class:`~turbometrics.segmentation.SegmentationState` per group."""

from __future__ import annotations

import copy
import inspect
import threading
from collections.abc import Mapping, Sequence
from numbers import Real
from typing import Any

import numpy as np

from .. import segmentation
from .._common.columns import column_names, columns, records
from .._common.input_error import first_line
from .._common.mergeable import check_mergeable, part_int
from .._common.params import NONE, STRING, validate_params
from .._common.threads import resolve_threads
from .._registry import SEGMENTATION, STREAMED
from ..segmentation import SegmentationState
from ._evaluator import _factorize, metric_values, results_frame
from ._grouped import OVERALL, GroupedParts
from ._metrics import UserMetric

__all__ = ["DEFAULT_SEGMENTATION", "SegmentationEvaluator"]

#: The metrics of a SegmentationEvaluator made with ``metrics=None``.
DEFAULT_SEGMENTATION = ("iou", "dice", "pixel_accuracy")

# The maps' parameters: those of every state, compared by merges.
_MAP_PARAMETERS = ("num_classes", "ignore_index", "reduce_zero_label", "label_map")
_FIELDS = ("metrics", *_MAP_PARAMETERS, "by")
_STATE_PARAMETERS = ("num_classes", "ignore_index", "per_image", "reduce_zero_label", "label_map")
_SCORE = inspect.signature(SegmentationState.score).parameters


def _option_names(name: str) -> tuple[str, ...]:
    """The options of the vocabulary's metric ``name``: the keyword
    parameters of its function (``turbometrics.segmentation.<name>``) that
    ``SegmentationState.score`` takes."""
    function = getattr(segmentation, SEGMENTATION[name].function)
    return tuple(key for key in inspect.signature(function).parameters if key in _SCORE and key != "metric")


def _checked_options(name: str, options: Any) -> dict[str, Any]:
    """The options of metric ``name``, checked by its function (numbers as
    Python floats, so that ``to_bytes`` writes them).

    Raises
    ------
    TypeError
        For options that are not a dict.
    ValueError
        For an option the metric does not take, or ``aggregate="none"``.
    InvalidParameterError
        For a value the function refuses (its message).
    """
    if not isinstance(options, Mapping):
        raise TypeError(f"metric {name!r}: options must be a dict, got {type(options).__name__}")
    allowed = _option_names(name)
    for key in options:
        if key not in allowed:
            raise ValueError(f"metric {name!r} has no option {key!r} (options: {', '.join(allowed)})")
    function = getattr(segmentation, SEGMENTATION[name].function)
    parameters = inspect.signature(function).parameters
    needed = [key for key in allowed if parameters[key].default is inspect.Parameter.empty and key not in options]
    if needed:
        raise ValueError(f"metric {name!r} needs the option {needed[0]!r}, as {function.__name__}() does")
    if options.get("aggregate") == "none":
        raise ValueError(
            f"metric {name!r}: aggregate='none' gives a value per image, and an Evaluator gives one per group "
            f"(take per-image values from turbometrics.segmentation.{name} or a SegmentationState)"
        )
    pixel = np.zeros((1, 1), np.uint8)  # the function checks its options on one pixel
    function(pixel, pixel, num_classes=1, **options)
    return {
        key: float(value) if isinstance(value, Real) and not isinstance(value, bool) else value
        for key, value in options.items()
    }


def _checked_metrics(metrics: Any) -> tuple[tuple[str, ...], dict[str, dict[str, Any]], dict[str, UserMetric]]:
    """The metric names (duplicates dropped), the options of those that
    have some, and the user-defined metrics.

    Raises
    ------
    ValueError
        For an empty list, an unknown name, a user metric of another state,
        or options a metric does not take.
    TypeError
        For a str (a list of names is needed), names that are not str, or
        values of a dict that are neither options nor a UserMetric.
    """
    if metrics is None:
        return DEFAULT_SEGMENTATION, {}, {}
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a list of names, not a str (write [{metrics!r}])")
    specs = dict(metrics) if isinstance(metrics, Mapping) else dict.fromkeys(metrics)
    if not specs:
        raise ValueError("metrics is empty")
    options: dict[str, dict[str, Any]] = {}
    user: dict[str, UserMetric] = {}
    for name, spec in specs.items():
        if not isinstance(name, str):
            raise TypeError(f"metric names must be str, got {name!r}")
        if isinstance(spec, UserMetric):
            if spec.state != "segmentation":
                raise ValueError(
                    f"metric {name!r}: a SegmentationEvaluator has one state, 'segmentation', not {spec.state!r}"
                )
            user[name] = spec
            continue
        if name not in SEGMENTATION:
            hint = " (a metric of scores: turbometrics.Evaluator)" if name in STREAMED else ""
            raise ValueError(f"unknown segmentation metric {name!r}{hint} (known: {', '.join(SEGMENTATION)})")
        checked = _checked_options(name, {} if spec is None else spec)
        if checked:
            options[name] = checked
    return tuple(specs), options, user


class _Part:
    """The maps of one set of images (all, or one group): their state and
    how many images (entries along the maps' first axis) they hold."""

    def __init__(self, state: SegmentationState, n_images: int = 0) -> None:
        self.state = state
        self.n_images = n_images

    def merge(self, other: _Part) -> None:
        self.state = self.state.merge(other.state)
        self.n_images += other.n_images


class SegmentationEvaluator(GroupedParts[_Part]):
    """Metrics of label maps at once, overall and per group, fed batch by
    batch, merged across processes and computed exactly.

    The label-map counterpart of :class:`~turbometrics.Evaluator` (same
    ``update`` / ``merge`` / ``compute`` / ``to_bytes`` protocol, same
    results), on one :class:`~turbometrics.segmentation.SegmentationState`
    for all images and one per group: K x K int64 confusion counts, plus
    3 K counts per image when a metric averages over images. The maps are
    never kept.

    Parameters
    ----------
    metrics : sequence of str, or dict, default=None
        Names of :mod:`turbometrics.segmentation`'s functions: ``iou``,
        ``dice``, ``precision``, ``recall``, ``fbeta``, ``class_accuracy``,
        ``pixel_accuracy``, ``generalized_dice``. None:
        ``["iou", "dice", "pixel_accuracy"]``. A dict maps names to their
        options, keyword arguments of the function (``aggregate``:
        ``"dataset"`` or ``"image"``; ``average``, ``empty``, ``beta``,
        ``weight_type`` where the function takes them; ``fbeta`` needs
        ``beta``, as its function does; ``{"iou":
        {"average": None}}`` gives the per-class IoU), to ``None`` (the
        function's defaults), or to a
        :class:`~turbometrics.evaluator.UserMetric` of state
        ``"segmentation"``, a metric of your own computed from the state.
    num_classes : int
        K; labels are 0 .. K - 1.
    ignore_index, reduce_zero_label, label_map
        As in :func:`turbometrics.segmentation.confusion_matrix`, for every
        batch.
    by : str, default=None
        The name of the group dimension: the index name of :meth:`to_pandas`.
    n_threads : int, default=None
        Threads of the counting kernel (results do not depend on it); not
        saved.

    Notes
    -----
    **Exactness.** A metric's value is the value of its function
    (:func:`turbometrics.segmentation.iou`, ...) with the same options on
    the concatenated maps, bit for bit. With ``aggregate="dataset"`` (the
    default) it is computed from integer counts, so it is the same for any
    split of the images into batches, shards and merges, in any order.
    With ``aggregate="image"`` the images' scores are averaged in the
    order the state holds them (the batches in order, a merge's left
    operand first), as the function averages the images of its maps; in
    another order the mean is the same to rounding.

    **Images.** Each batch's first axis is the image (a batch of one 2-D
    map is ``y[None]``); ``groups`` labels the images. Images whose group
    is null (None, NaN, pandas' NA) count overall only. With groups each
    pixel is counted once (the whole's counts are the groups' sum), twice
    when a metric averages over images (the whole's images are counted in
    their order).

    **Undefined values and errors.** A metric the function raises on for
    the whole data raises ValueError naming it from :meth:`compute`; for
    a group its value is NaN with a warning naming the group and the
    metric. Per-class values (``average=None``) are lists.

    **Threads.** As the Evaluator's: every method holds the evaluator's
    lock.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([[[0, 1], [1, 1]], [[2, 2], [0, 1]]], dtype=np.uint8)
    >>> y_pred = np.array([[[0, 1], [0, 1]], [[2, 1], [0, 1]]], dtype=np.uint8)
    >>> ev = tm.SegmentationEvaluator(["iou", "dice"], num_classes=3)
    >>> _ = ev.update(y_true[:1], y_pred[:1], groups=["day"]).update(y_true[1:], y_pred[1:], groups=["night"])
    >>> result = ev.compute()
    >>> result["overall"]["iou"] == tm.segmentation.iou(y_true, y_pred, num_classes=3)
    True
    >>> sorted(result["by_group"])
    ['day', 'night']
    """

    _VERSION = 1

    @validate_params({"by": [STRING, NONE]}, bind_like_scikit_learn=False)
    def __init__(
        self,
        metrics: Sequence[str] | Mapping[str, Mapping[str, Any] | UserMetric | None] | None = None,
        *,
        num_classes: int,
        ignore_index: int | None = None,
        reduce_zero_label: bool = False,
        label_map: Mapping[int, int] | None = None,
        by: str | None = None,
        n_threads: int | None = None,
    ) -> None:
        if n_threads is not None:
            resolve_threads(n_threads)  # its ValueError / TypeError for a bad count
        self.metrics, self.options, self.user_metrics = _checked_metrics(metrics)
        per_image = any(options.get("aggregate") == "image" for options in self.options.values())
        # the maps' parameters, checked as the state checks them
        template = SegmentationState(
            num_classes,
            ignore_index=ignore_index,
            per_image=per_image,
            reduce_zero_label=reduce_zero_label,
            label_map=label_map,
        )
        self.num_classes = template.num_classes
        self.ignore_index = template.ignore_index
        self.reduce_zero_label = template.reduce_zero_label
        self.label_map = None if template.label_map is None else dict(template.label_map)
        self.per_image = per_image
        self.by = by
        self.n_threads = n_threads
        self._lock = threading.RLock()
        self.reset()

    def _part(self) -> _Part:
        return _Part(
            SegmentationState(
                self.num_classes,
                ignore_index=self.ignore_index,
                per_image=self.per_image,
                reduce_zero_label=self.reduce_zero_label,
                label_map=self.label_map,
            )
        )

    def reset(self) -> SegmentationEvaluator:
        """Forget every image (the metrics and options stay); returns self."""
        with self._lock:
            self._overall = self._part()
            self._groups: dict[Any, _Part] = {}
        return self

    @property
    def n_images(self) -> int:
        """Images added (null groups included)."""
        return self._overall.n_images

    @property
    def n_images_by_group(self) -> dict[Any, int]:
        """Images added per group, in natural order."""
        return {key: self._groups[key].n_images for key in self.groups}

    def state(self, group: Any = None) -> SegmentationState:
        """The state of all images (``group`` None) or of one group (a
        copy).

        Raises
        ------
        KeyError
            For a group not seen.
        """
        with self._lock:
            part = self._overall if group is None else self._groups[group]
            return copy.deepcopy(part.state)

    def __repr__(self) -> str:
        return (
            f"SegmentationEvaluator({list(self.metrics)!r}, num_classes={self.num_classes}, "
            f"n_images={self.n_images}, groups={len(self._groups)})"
        )

    # -- input ---------------------------------------------------------------------------
    @validate_params({}, bind_like_scikit_learn=False)  # array inputs as NumPy
    def update(self, y_true: Any, y_pred: Any, *, groups: Any = None) -> SegmentationEvaluator:
        """Add a batch of label maps in place; returns self.

        Parameters
        ----------
        y_true, y_pred : array-like of int, shape (n_images, ...)
            Label maps as :func:`turbometrics.segmentation.confusion_matrix`
            reads them (uint8, uint16, int32, int64, read in place; torch
            CPU tensors), the first axis being the image.
        groups : array-like of shape (n_images,), default=None
            The group of each image: str, int, float or bool labels; null
            (None, NaN, pandas' NA) images count overall only.

        Raises
        ------
        ValueError
            For maps of fewer than two dimensions, shapes that differ,
            labels outside ``[0, num_classes)`` (the function's message,
            naming the first), or a ``groups`` that is not one label per
            image; the evaluator is then unchanged.
        TypeError
            For maps that are not integers, or group labels that are not
            text, numbers or booleans.
        """
        with self._lock:
            return self._update(y_true, y_pred, groups)

    def _update(self, y_true: Any, y_pred: Any, groups: Any) -> SegmentationEvaluator:
        true, pred = np.asarray(y_true), np.asarray(y_pred)
        if true.ndim < 2:
            raise ValueError(
                f"y_true must be a batch of label maps whose first axis is the image, got shape {true.shape} "
                "(one map y is y[None])"
            )
        if true.shape != pred.shape:  # the functions' message, also for a batch of no image
            raise ValueError(f"y_true and y_pred have different shapes: {true.shape} and {pred.shape}.")
        n = true.shape[0]
        coded = None if groups is None else _factorize(groups)
        if coded is not None and coded[1].shape[0] != n:
            raise ValueError(f"groups must hold one label per image: {coded[1].shape[0]} labels for {n} images")
        # The batch's parts are built before any is merged, so a batch refused leaves the evaluator as it was.
        by_group: dict[Any, _Part] = {}
        if coded is None or (len(coded[0]) == 1 and bool(np.all(coded[1] == 0))):
            batch = self._counted(true, pred, np.arange(n))
            if coded is not None:
                by_group[coded[0][0]] = batch
        else:
            keys, codes = coded
            by_group, nulls = self._group_parts(true, pred, keys, codes)
            if self.per_image:  # the whole's images in the batch's order
                batch = self._counted(true, pred, np.arange(n))
            else:  # integer counts: the sum of the groups' (and the null group's), each pixel counted once
                batch = self._part()
                for part in (*by_group.values(), *nulls):
                    batch.merge(part)
        self._overall.merge(batch)
        for key, part in by_group.items():
            self._group(key).merge(part)
        return self

    def _counted(self, true: np.ndarray, pred: np.ndarray, rows: np.ndarray) -> _Part:
        """The part of the images ``rows`` of a batch (read in place when
        they are consecutive)."""
        part = self._part()
        whole = rows.shape[0] == true.shape[0]
        contiguous = rows.shape[0] and rows[-1] - rows[0] + 1 == rows.shape[0]
        images = slice(None) if whole else slice(rows[0], rows[-1] + 1) if contiguous else rows
        part.state.update(true[images], pred[images], n_threads=self.n_threads)
        part.n_images = rows.shape[0]
        return part

    def _group_parts(
        self, true: np.ndarray, pred: np.ndarray, keys: list[Any], codes: np.ndarray
    ) -> tuple[dict[Any, _Part], list[_Part]]:
        """The parts of a batch's groups, and (without per-image sums, when
        the whole is their sum) that of its images of no group. A refused
        part raises the error of the whole batch, which names its pixels by
        their index in the batch."""
        parts = {}
        try:
            for code in range(-1 if not self.per_image else 0, len(keys)):
                rows = np.flatnonzero(codes == code)
                if rows.shape[0]:
                    parts[code] = self._counted(true, pred, rows)
        except (ValueError, TypeError):
            self._counted(true, pred, np.arange(true.shape[0]))  # raises the batch's own error
            raise
        nulls = [parts.pop(-1)] if -1 in parts else []
        return {keys[code]: part for code, part in parts.items()}, nulls

    # -- merging -----------------------------------------------------------------------------
    def merge(self, other: SegmentationEvaluator) -> SegmentationEvaluator:
        """Add ``other``'s images (an evaluator of the same metrics, options
        and maps' parameters) in place, after this one's; returns self.

        Raises
        ------
        TypeError
            If ``other`` is not a SegmentationEvaluator.
        ValueError
            If it has other metrics, options, ``num_classes``,
            ``ignore_index``, ``reduce_zero_label``, ``label_map`` or
            ``by``.
        """
        check_mergeable(self, other, ("metrics", "options", "user_metrics", *_MAP_PARAMETERS, "by"))
        return self._merge_parts(other)

    # -- results -----------------------------------------------------------------------------
    def compute(self) -> dict[str, dict[str, Any]]:
        """The metrics: ``{"overall": {name: value}, "by_group": {group:
        {name: value}}, "gap": {name: max - min over groups}}``, as
        :meth:`turbometrics.Evaluator.compute` gives them.

        Values are Python floats (NaN where undefined), lists of K floats
        for per-class values (``average=None``). ``gap`` holds every scalar
        metric when there are groups: the largest minus the smallest finite
        group value (NaN with fewer than two); ``{}`` without groups.

        Raises
        ------
        ValueError
            Without images, or naming a metric that raises on the whole
            data (for a group, it is NaN with a warning instead).
        """
        with self._lock:
            if self.n_images == 0:
                raise ValueError("the SegmentationEvaluator has no images: call update() first")
            return self._results()

    def _values(self, part: _Part, group: Any) -> dict[str, Any]:
        def value(name: str) -> dict[str, Any]:
            if name in self.user_metrics:
                result = self.user_metrics[name].function(part.state)
            else:
                entry = SEGMENTATION[name]
                result = getattr(part.state, entry.method)(**entry.options, **self.options.get(name, {}))
            return {name: result.tolist() if isinstance(result, np.ndarray) else result}

        return metric_values(self.metrics, value, group)

    def to_pandas(self) -> Any:
        """The values as a pandas DataFrame: one row per group, in natural
        order, after a first row ``"overall"``; the index is named ``by``
        (or "group"); a per-class value becomes K columns ``<name>_0`` ..
        ``<name>_<K-1>``; ``n_images`` is the last column. Needs pandas.

        Raises
        ------
        ValueError
            As :meth:`compute`, or when a group is labelled "overall".
        """
        with self._lock:
            result = self.compute()
            counts = self._counts("n_images")
        return results_frame(result, {"n_images": counts}, self.by, None)

    # -- serialisation ---------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The evaluator as bytes that :meth:`from_bytes` reads back (a
        ``.npz`` archive and a JSON header, nothing pickled), written under
        its lock.

        Raises
        ------
        TypeError
            For an evaluator with user-defined metrics (code, which bytes do
            not hold: pickle it).
        """
        if self.user_metrics:
            raise TypeError(
                f"a SegmentationEvaluator with user-defined metrics ({', '.join(self.user_metrics)}) has no bytes: "
                "they are code, which to_bytes does not write (pickle the evaluator)"
            )
        with self._lock:
            return super().to_bytes()

    def _parts(self) -> dict[str, Any]:
        """The options, the group labels, the images counts (the whole's
        first) and the states of the whole and of each group by columns
        (``state.<field>``)."""
        keys = self.groups
        parts_list = [self._overall, *(self._groups[key] for key in keys)]
        return {
            "metrics": list(self.metrics),
            **({"options": self.options} if self.options else {}),
            **({"user_metrics": self.user_metrics} if self.user_metrics else {}),
            "num_classes": self.num_classes,
            "ignore_index": self.ignore_index,
            "reduce_zero_label": self.reduce_zero_label,
            "label_map": None if self.label_map is None else [[old, new] for old, new in self.label_map.items()],
            "by": self.by,
            "groups": keys,
            "n_images": [part.n_images for part in parts_list],
            **columns([part.state._parts() for part in parts_list], "state."),
        }

    @classmethod
    def _from_parts(cls, parts: dict[str, Any]) -> SegmentationEvaluator:
        """An evaluator of its parts: the options checked as the
        constructor checks them; each state by its own validation and
        against the evaluator's parameters; the groups' labels (distinct,
        not NaN), images and counts against the whole's."""
        absent = [name for name in (*_FIELDS, "groups", "n_images") if name not in parts]
        if absent:
            raise ValueError(f"SegmentationEvaluator: missing fields {absent}")
        options, user = parts.get("options", {}), parts.get("user_metrics", {})
        metrics, pairs, keys = parts["metrics"], parts["label_map"], parts["groups"]
        if not isinstance(metrics, list) or not isinstance(options, dict) or not isinstance(user, dict):
            raise ValueError("metrics must be a list of names, options and user_metrics dicts")
        if pairs is not None and not (
            isinstance(pairs, list) and all(isinstance(pair, list) and len(pair) == 2 for pair in pairs)
        ):
            raise ValueError(f"label_map must be None or a list of [old, new] pairs, got {pairs!r}")
        if not isinstance(keys, list):
            raise ValueError("groups must be a list of labels")
        fields = {name: parts[name] for name in _FIELDS}
        fields["metrics"] = {name: user[name] if name in user else options.get(name) for name in metrics}
        try:
            fields["label_map"] = None if pairs is None else {old: new for old, new in pairs}
            evaluator = cls(**fields)
        except (TypeError, ValueError) as error:
            raise ValueError(f"SegmentationEvaluator: {first_line(error)}") from None
        labels = [label for label in keys if isinstance(label, (str, int, float, bool))]
        if len(labels) != len(keys) or len(set(labels)) != len(labels) or any(label != label for label in labels):
            raise ValueError("groups must be distinct str, int, float or bool labels, not NaN")
        known = {*_FIELDS, "groups", "n_images", "options", "user_metrics"}
        unknown = sorted(name for name in parts if name not in known and not name.startswith("state."))
        if unknown:
            raise ValueError(f"SegmentationEvaluator: unknown fields {unknown[:5]}")
        counts = parts["n_images"]
        if not isinstance(counts, list) or len(counts) != len(labels) + 1:
            raise ValueError(f"n_images must be a list of {len(labels) + 1} counts")
        loaded = []
        for index, record in enumerate(records(parts, "state.", column_names(parts, "state."), len(counts))):
            where = OVERALL if index == 0 else f"group {labels[index - 1]!r}"
            part = evaluator._part()
            try:
                state = SegmentationState._from_parts(record)
                n_images = part_int({"n_images": counts[index]}, "n_images")
                check_mergeable(part.state, state, _STATE_PARAMETERS)
            except (TypeError, ValueError) as error:
                raise ValueError(f"{where}: {first_line(error)}") from None
            if state.per_image and len(state.image_sums()) != n_images:
                raise ValueError(f"{where}: the state holds {len(state.image_sums())} images, not {n_images}")
            part.state, part.n_images = state, n_images
            loaded.append(part)
        evaluator._overall, evaluator._groups = loaded[0], dict(zip(labels, loaded[1:]))
        _check_groups(evaluator._overall, list(evaluator._groups.values()))
        return evaluator


def _check_groups(whole: _Part, groups: list[_Part]) -> None:
    """The groups hold at most the whole's images, and their counts at
    most the whole's, cell by cell (images of a null group count only in
    the whole).

    Raises
    ------
    ValueError
        For groups that hold more.
    """
    images = sum(part.n_images for part in groups)
    if images > whole.n_images:
        raise ValueError(f"the groups hold {images} images, more than the {whole.n_images} of the whole")
    total = sum((part.state.confusion_matrix() for part in groups), np.zeros_like(whole.state.confusion_matrix()))
    if np.any(total > whole.state.confusion_matrix()):
        raise ValueError("the groups' confusion counts exceed the whole's")
