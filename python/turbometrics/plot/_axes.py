"""Lazy matplotlib import and the Axes a plot draws on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

INSTALL_HINT = "turbometrics.plot needs matplotlib: pip install 'turbometrics[plot]'"


def pyplot() -> Any:
    """``matplotlib.pyplot``, or ImportError with the install command."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return plt


def axes_or_new(ax: Any, figsize: tuple[float, float] = (5.5, 5.0)) -> Any:
    """``ax``, or the Axes of a new figure of ``figsize`` inches."""
    if ax is not None:
        return ax
    _, new_ax = pyplot().subplots(figsize=figsize, layout="constrained")
    return new_ax


def finish(ax: Any, title: str, xlabel: str, ylabel: str, legend_loc: str = "best") -> Any:
    """Label the axes, set the title, draw a light grid and the legend
    (``legend_loc="outside"`` puts it right of the axes; the "chance"
    entry comes last)."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i] == "chance")  # chance last
    entries = ([handles[i] for i in order], [labels[i] for i in order])
    if legend_loc == "outside":
        ax.legend(*entries, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", borderaxespad=0.0)
    else:
        ax.legend(*entries, loc=legend_loc, fontsize="small", framealpha=0.9)
    return ax


def one_vs_rest(
    y_true: Any, y_score: Any, classes: Sequence[Any] | None, pos_label: Any
) -> list[tuple[str | None, np.ndarray, np.ndarray, Any]]:
    """The binary problems to draw: ``[(name, labels, scores, pos_label)]``.

    A 1-D ``y_score`` is one problem (name None). A 2-D ``(n, K)`` one
    gives K one-vs-rest problems: column k scores class ``classes[k]``
    (default ``k``), and the labels are ``y_true == classes[k]``.
    """
    scores = np.asarray(y_score)
    if scores.ndim == 1:
        return [(None, np.asarray(y_true), scores, pos_label)]
    if scores.ndim != 2:
        raise ValueError(f"y_score must be 1-D or 2-D, got shape {scores.shape}")
    names = list(range(scores.shape[1])) if classes is None else list(classes)
    if len(names) != scores.shape[1]:
        raise ValueError(f"{len(names)} classes for {scores.shape[1]} score columns")
    labels = np.asarray(y_true)
    return [(f"class {name}", labels == name, scores[:, k], True) for k, name in enumerate(names)]


def with_name(name: str | None, text: str) -> str:
    """A legend entry: ``text``, prefixed with the curve's name if any."""
    return text if name is None else f"{name}: {text}"
