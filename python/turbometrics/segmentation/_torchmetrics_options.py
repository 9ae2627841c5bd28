"""torchmetrics' checks of its segmentation metrics' options, with its
messages, shared by the drop-ins (``torchmetrics.py``) and
``turbometrics.torch``'s classes (no torch needed to check them)."""

from __future__ import annotations

from typing import Any

_FORMATS = ("one-hot", "index", "mixed")
_DICE_AVERAGES = ["micro", "macro", "weighted", "none"]


def check_format_options(include_background: Any, input_format: Any) -> None:
    """``include_background`` a bool, ``input_format`` one of torchmetrics'.

    Raises
    ------
    ValueError
        torchmetrics' message, naming the argument.
    """
    if not isinstance(include_background, bool):
        raise ValueError(f"Expected argument `include_background` must be a boolean, but got {include_background}.")
    if input_format not in _FORMATS:
        raise ValueError(
            f"Expected argument `input_format` to be one of 'one-hot', 'index', 'mixed', but got {input_format}."
        )


def check_dice_options(average: Any, aggregation_level: Any) -> None:
    """Dice's ``average`` (one of torchmetrics' or None) and
    ``aggregation_level`` (``"samplewise"`` or ``"global"``).

    Raises
    ------
    ValueError
        torchmetrics' message, naming the argument.
    """
    if average is not None and average not in _DICE_AVERAGES:
        raise ValueError(f"Expected argument `average` to be one of {_DICE_AVERAGES} or None, but got {average}.")
    if aggregation_level not in ("samplewise", "global"):
        raise ValueError(
            f"Expected argument `aggregation_level` to be one of `samplewise`, `global`, but got {aggregation_level}"
        )
