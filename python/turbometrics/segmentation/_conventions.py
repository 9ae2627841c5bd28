"""The conventions the segmentation metrics select between: how images and
classes are averaged, and what a class with nothing to score scores.

=================  ==============  ==============================  ==========================
reference          ``aggregate``   ``empty``                       ``average``
=================  ==============  ==============================  ==========================
mmsegmentation     ``"dataset"``   ``"nan"``                       ``"macro"`` (nanmean)
Cityscapes         ``"dataset"``   ``"nan"``                       ``"macro"`` (nanmean)
torchmetrics       ``"image"``     ``"nan"``                       ``"macro"`` (per image)
MONAI              ``"image"``     ``"no_true"`` (ignore_empty)    ``"macro"`` (per image)
MONAI, not empty   ``"image"``     ``1.0`` (ignore_empty=False)    ``"macro"`` (per image)
=================  ==============  ==============================  ==========================
"""

from __future__ import annotations

from typing import Any, Literal

from .._common.params import NONE, Constraint, real_interval, str_options, validate_params

#: How the counts are pooled before a score is taken.
Aggregate = Literal["dataset", "image", "none"]
#: How per-class scores are combined.
Average = Literal["macro", "micro", "weighted"]
#: The score of a class with a zero denominator (``"nan"`` or a number), or
#: ``"no_true"``: NaN for every class without true pixels (MONAI's
#: ``ignore_empty=True``).
Empty = Literal["nan", "no_true"] | float

AGGREGATES = ("dataset", "image", "none")
AVERAGES = ("macro", "micro", "weighted")

AGGREGATE = [str_options({"dataset", "image", "none"})]
AVERAGE = [str_options({"macro", "micro", "weighted"}), NONE]
EMPTY = [
    str_options({"nan", "no_true"}),
    Constraint("a float in the range [0.0, 1.0]", lambda value: real_interval(0, 1, "both").accepts(value)),
]
BETA = [real_interval(0, float("inf"), "neither")]
WEIGHT_TYPE = [str_options({"square", "simple", "linear"})]


def check_scoring(name: str, **values: Any) -> None:
    """Raise InvalidParameterError, in the functions' words, for a scoring
    option (``average``, ``aggregate``, ``empty``, ``beta``,
    ``weight_type``) that they refuse."""

    @validate_params(
        {"average": AVERAGE, "aggregate": AGGREGATE, "empty": EMPTY, "beta": BETA, "weight_type": WEIGHT_TYPE},
        name=name,
    )
    def check(*, average: Any, aggregate: Any, empty: Any, beta: Any, weight_type: Any) -> None:
        return None

    check(**values)
