"""``turbometrics evaluate FILE --plots DIR``: the plots as PNG files."""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .._common.input_error import InputError

MAX_GROUP_CURVES = 12


def _save(ax: Any, path: Path, written: list[str]) -> None:
    import matplotlib.pyplot as plt

    ax.figure.savefig(path, dpi=100)
    plt.close(ax.figure)
    written.append(str(path))


def write_plots(directory: Path, evaluation: Any, args: argparse.Namespace) -> list[str]:
    """Write the plots of the whole file (and, for binary groups, ROC and
    precision-recall curves per group) into ``directory``; returns the
    paths written.

    Binary: roc.png, precision_recall.png, thresholds.png and, for scores
    in [0, 1], reliability.png; with --group also roc_by_group.png and
    precision_recall_by_group.png (up to 12 groups, the largest).
    Multiclass: one-vs-rest roc.png and precision_recall.png, and the
    top-label reliability.png.
    """
    from .. import plot

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{directory}: cannot create ({exc.strerror})") from None
    labels, score, weight = evaluation.overall_rows.rows()
    common = dict(sample_weight=weight, n_threads=args.n_threads)
    classes = list(evaluation.classes or range(len(evaluation.scores))) if evaluation.multiclass else None
    y = np.asarray(classes)[labels] if classes is not None and evaluation.classes is not None else labels
    written: list[str] = []
    _save(plot.roc(y, score, classes=classes, **common), directory / "roc.png", written)
    _save(plot.precision_recall(y, score, classes=classes, **common), directory / "precision_recall.png", written)
    if not evaluation.multiclass:
        _save(plot.threshold_curves(labels, score, **common), directory / "thresholds.png", written)
    if evaluation.probabilities:
        _save(
            plot.reliability_diagram(labels, score, n_bins=args.n_bins, **common),
            directory / "reliability.png",
            written,
        )
    if evaluation.group_rows and not evaluation.multiclass:
        for name, draw in (("roc", plot.roc), ("precision_recall", plot.precision_recall)):
            ax = _by_group(evaluation, draw, args)
            if ax is None:
                warnings.warn(f"no group has both classes: {name}_by_group.png not written")
                continue
            _save(ax, directory / f"{name}_by_group.png", written)
    return written


def _by_group(evaluation: Any, draw: Callable[..., Any], args: argparse.Namespace) -> Any:
    """One curve per group (the largest ones) on one Axes; None when no
    group has both classes."""
    largest = sorted(evaluation.group_rows.items(), key=lambda item: -item[1].n_samples)[:MAX_GROUP_CURVES]
    ax = None
    for key, acc in sorted(largest):
        labels, score, weight = acc.rows()
        if labels.min() == labels.max():
            continue  # one class: no curve
        ax = draw(
            labels, score, sample_weight=weight, label=f"{evaluation.group}={key}", ax=ax, n_threads=args.n_threads
        )
    if ax is None:
        return None
    ax.set_title(f"{ax.get_title()} by {evaluation.group}")
    return ax
