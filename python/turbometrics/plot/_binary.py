"""ROC, precision-recall and threshold curves of scored binary predictions."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ._axes import axes_or_new, finish, one_vs_rest, with_name


def _states(
    y_true: Any, y_score: Any, classes: Sequence[Any] | None, pos_label: Any, sample_weight: Any, n_threads: int | None
) -> Iterator[tuple[str | None, Any]]:
    """``(name, RankingState)`` of each curve to draw, one at a time: one
    score table per curve serves both the curve and its area."""
    from ..states import RankingState

    for name, labels, scores, positive in one_vs_rest(y_true, y_score, classes, pos_label):
        yield (
            name,
            RankingState.from_arrays(
                labels, scores, sample_weight=sample_weight, pos_label=positive, n_threads=n_threads
            ),
        )


def roc(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    classes: Sequence[Any] | None = None,
    label: str | None = None,
    ax: Any = None,
    n_threads: int | None = None,
) -> Any:
    """ROC curve (true- against false-positive rate) with the AUC.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels (binary, or class labels when ``y_score`` is 2-D).
    y_score : array-like of shape (n_samples,) or (n_samples, K)
        Scores of the positive class; a 2-D array draws one one-vs-rest
        curve per column (column k scores ``classes[k]``, default k).
    sample_weight, pos_label
        As in :func:`turbometrics.roc_curve`.
    classes : sequence, optional
        Class of each score column (2-D ``y_score`` only).
    label : str, optional
        Legend prefix of the curve (1-D ``y_score``), e.g. a model name.
    ax : matplotlib Axes, optional
        Where to draw; a new 5.5 x 5 inch figure when None.
    n_threads : int, optional
        Passed to the metric functions.

    Returns
    -------
    matplotlib Axes
        The curve(s) from :func:`turbometrics.roc_curve`, the legend giving
        :func:`turbometrics.roc_auc_score`; the diagonal is chance.
    """
    ax = axes_or_new(ax)
    for name, state in _states(y_true, y_score, classes, pos_label, sample_weight, n_threads):
        fpr, tpr, _ = state.roc_curve(n_threads=n_threads)
        auc = state.roc_auc(n_threads=n_threads)
        ax.plot(fpr, tpr, linewidth=1.6, label=with_name(name or label, f"AUC = {auc:.4f}"))
    if not any(line.get_label() == "chance" for line in ax.get_lines()):  # once per Axes
        ax.plot([0, 1], [0, 1], linestyle="--", color="0.6", linewidth=1, label="chance")
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    return finish(ax, "ROC curve", "false positive rate", "true positive rate", "lower right")


def precision_recall(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    classes: Sequence[Any] | None = None,
    label: str | None = None,
    ax: Any = None,
    n_threads: int | None = None,
) -> Any:
    """Precision-recall curve with the average precision.

    Parameters are those of :func:`roc`.

    Returns
    -------
    matplotlib Axes
        The step curve of :func:`turbometrics.precision_recall_curve`, the
        legend giving :func:`turbometrics.average_precision_score` (the
        area under this step curve); the dotted line (and the number in
        parentheses) is chance level, the precision of predicting everything
        positive (the prevalence).
    """
    ax = axes_or_new(ax)
    for name, state in _states(y_true, y_score, classes, pos_label, sample_weight, n_threads):
        precision, recall, _ = state.precision_recall_curve(n_threads=n_threads)
        ap = state.average_precision(n_threads=n_threads)
        # The first point predicts every sample positive: its precision is the prevalence.
        (line,) = ax.plot(
            recall,
            precision,
            drawstyle="steps-post",
            linewidth=1.6,
            label=with_name(name or label, f"AP = {ap:.4f} (chance {precision[0]:.3f})"),
        )
        ax.axhline(precision[0], linestyle=":", color=line.get_color(), linewidth=1)
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    return finish(ax, "Precision-recall curve", "recall", "precision", "lower left")


def threshold_curves(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    ax: Any = None,
    n_threads: int | None = None,
) -> Any:
    """Precision, recall and F1 against the decision threshold.

    A sample is predicted positive when its score is at or above the
    threshold. The curves come from :func:`turbometrics.metrics_at_thresholds`
    (every distinct score) and the marked threshold from
    :func:`turbometrics.best_threshold` (highest F1, the highest threshold
    on ties).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`turbometrics.roc_curve` (binary).
    ax : matplotlib Axes, optional
        Where to draw; a new 8 x 4.5 inch figure when None.
    n_threads : int, optional
        Passed to the metric functions.

    Returns
    -------
    matplotlib Axes
    """
    import turbometrics as tm

    ax = axes_or_new(ax, figsize=(8.0, 4.5))
    columns = tm.metrics_at_thresholds(
        y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, n_threads=n_threads
    )
    best = tm.best_threshold(
        y_true, y_score, metric="f1", sample_weight=sample_weight, pos_label=pos_label, n_threads=n_threads
    )
    thresholds = columns["thresholds"]
    for key, name in (("precision", "precision"), ("recall", "recall"), ("fbeta", "F1")):
        ax.plot(thresholds, columns[key], drawstyle="steps-post", linewidth=1.6, label=name)
    if np.isfinite(best.threshold):
        ax.axvline(
            best.threshold,
            color="0.3",
            linestyle="--",
            linewidth=1,
            label=f"best F1 = {best.value:.4f} at {best.threshold:.4g}",
        )
        ax.plot([best.threshold], [best.value], "o", color="0.15", markersize=5)
    ax.set_ylim(-0.01, 1.01)
    return finish(
        ax,
        "Precision, recall and F1 by threshold",
        "threshold (predict positive if score >= threshold)",
        "value",
        "outside",
    )
