"""Reliability diagram with a histogram of the samples per bin."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._axes import finish, pyplot


def _diagram_and_histogram_axes(ax: Any, hist_ax: Any) -> tuple[Any, Any]:
    """The diagram's and the histogram's Axes: a new figure with both
    (3:1 heights) when ``ax`` is None, else ``ax`` and ``hist_ax`` or, when
    that is None, a panel appended below ``ax`` sharing its x axis."""
    if ax is None:
        _, (ax, hist_ax) = pyplot().subplots(
            2, 1, figsize=(5.5, 6.5), sharex=True, layout="constrained", gridspec_kw={"height_ratios": [3, 1]}
        )
        return ax, hist_ax
    if hist_ax is None:
        from mpl_toolkits.axes_grid1 import make_axes_locatable

        hist_ax = make_axes_locatable(ax).append_axes("bottom", size="30%", pad=0.3, sharex=ax)
    return ax, hist_ax


def reliability_diagram(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    mode: str = "auto",
    sample_weight: Any = None,
    pos_label: Any = None,
    ax: Any = None,
    hist_ax: Any = None,
    n_threads: int | None = None,
) -> Any:
    """Reliability diagram: observed frequency against predicted probability.

    Parameters
    ----------
    y_true, y_prob, n_bins, strategy, mode, sample_weight, pos_label
        As in :func:`turbometrics.reliability_diagram` (binary
        probabilities, or an (n, K) array drawn in top-label mode).
    ax : matplotlib Axes, optional
        Where to draw the diagram; when None, a new figure with the diagram
        above the histogram.
    hist_ax : matplotlib Axes, optional
        Where to draw the histogram; by default a panel appended below
        ``ax``.
    n_threads : int, optional
        Passed to the metric functions.

    Returns
    -------
    matplotlib Axes
        The diagram: one marker per non-empty bin at (mean confidence,
        accuracy) from :func:`turbometrics.reliability_diagram`, the bin's
        gap to the diagonal shaded, and the legend giving the ECE of
        :func:`turbometrics.calibration_error`. The histogram panel shows
        the samples (the weight, when weighted) in each bin.
    """
    import turbometrics as tm

    ax, hist = _diagram_and_histogram_axes(ax, hist_ax)
    common = dict(
        n_bins=n_bins,
        strategy=strategy,
        mode=mode,
        sample_weight=sample_weight,
        pos_label=pos_label,
        n_threads=n_threads,
    )
    diagram = tm.reliability_diagram(y_true, y_prob, **common)
    ece = tm.calibration_error(y_true, y_prob, norm="l1", **common)
    if np.ndim(diagram.weight) != 1:
        raise ValueError("reliability_diagram draws one diagram: use mode 'binary' or 'top_label'")
    total = float(np.shape(y_true)[0] if sample_weight is None else np.sum(sample_weight))
    counts = diagram.weight * total
    edges = diagram.edges
    filled = diagram.weight > 0
    centers = diagram.confidence[filled]
    ax.plot([0, 1], [0, 1], linestyle="--", color="0.6", linewidth=1, label="perfect calibration")
    ax.bar(
        edges[:-1][filled],
        (diagram.accuracy - diagram.confidence)[filled],
        bottom=centers,
        width=np.diff(edges)[filled],
        align="edge",
        color="tab:red",
        alpha=0.25,
        edgecolor="tab:red",
        linewidth=0.5,
        label="gap to diagonal",
    )
    ax.plot(
        centers,
        diagram.accuracy[filled],
        "o-",
        color="tab:blue",
        markersize=4,
        linewidth=1.4,
        label=f"model (ECE = {ece:.4f}, {n_bins} {strategy} bins)",
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    top_label = np.ndim(y_prob) == 2 or mode in ("top_label",)
    finish(ax, "Reliability diagram", "", "accuracy" if top_label else "fraction of positives", "upper left")
    ax.tick_params(labelbottom=False)
    hist.bar(
        edges[:-1],
        counts,
        width=np.diff(edges),
        align="edge",
        color="tab:blue",
        alpha=0.6,
        edgecolor="white",
        linewidth=0.5,
    )
    hist.yaxis.set_major_formatter(pyplot().FuncFormatter(lambda value, _: f"{value:,.0f}"))
    hist.set_xlabel("mean predicted confidence" if top_label else "predicted probability")
    hist.set_ylabel("weight" if sample_weight is not None else "samples")
    hist.grid(True, alpha=0.3)
    return ax
