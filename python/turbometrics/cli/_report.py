"""Printing the report of ``turbometrics evaluate FILE``: a plain-text
table or a Markdown table (JSON is the report itself)."""

from __future__ import annotations

from typing import Any


def _value(value: Any, name: str) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v, name) for v in value) + "]"
    if name.endswith("threshold"):
        return threshold_text(value)
    return format(value, ".4f")


def threshold_text(value: float, digits: int = 6) -> str:
    """A threshold with ``digits`` significant digits, trailing zeros kept
    (0.44 is "0.440000" next to "0.440200"), in scientific notation when
    very small or large."""
    text = format(value, f"#.{digits}g")
    return text[:-1] if text.endswith(".") else text


def _gap(gap: dict[str, Any] | None) -> str:
    if gap is None:
        return ""
    return f"{gap['gap']:.4f} ({gap['max_group']} - {gap['min_group']})"


def _rows(result: dict[str, Any]) -> list[list[str]]:
    groups = result.get("groups", {})
    header = ["metric", "overall"] + [f"{result['columns']['group']}={key}" for key in groups]
    if groups:
        header.append("gap (max - min)")
    rows = [header, ["samples", f"{result['n_samples']:,}"] + [f"{g['n_samples']:,}" for g in groups.values()]]
    if groups:
        rows[-1].append("")
    for name, value in result["metrics"].items():
        label = name if name != "roc_auc_ci" else "roc_auc 95% CI (DeLong)"
        row = [label, _value(value, name)] + [_value(g["metrics"].get(name), name) for g in groups.values()]
        if groups:
            row.append(_gap(result["gaps"].get(name)))
        rows.append(row)
    return rows


def _description(result: dict[str, Any]) -> str:
    columns = result["columns"]
    scores = ", ".join(columns["score"])
    if result["task"] == "binary":
        what = (
            f"binary: label {columns['label']!r} (positive {result['pos_label']!r}), score {scores!r}, "
            f"threshold {result['threshold']:g}"
        )
    else:
        what = f"multiclass: label {columns['label']!r}, classes {result['classes']} from {scores}"
    if columns["weight"] is not None:
        what += f", weight {columns['weight']!r}"
    return what


def format_table(result: dict[str, Any]) -> str:
    """A plain-text report: what was read, then metrics by row, groups by
    column, and the gap between groups."""
    rows = _rows(result)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        f"source:  {result['source']} ({result['format']}, {result['n_samples']:,} rows)",
        f"task:    {_description(result)}",
        "",
    ]
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    seconds = result["seconds"]
    lines.append("")
    if "plots" in result:
        lines.append(f"plots:   {', '.join(result['plots'])}")
    lines.append(_timing(seconds))
    return "\n".join(lines)


def _timing(seconds: dict[str, float]) -> str:
    """The time line: reading, metrics, plots (when written) and the whole run."""
    parts = [f"{seconds['read']:.2f} s reading", f"{seconds['metrics']:.2f} s metrics"]
    if seconds["plots"]:
        parts.append(f"{seconds['plots']:.2f} s plots")
    return f"time:    {', '.join(parts)}; {seconds['total']:.2f} s in all"


def format_markdown(result: dict[str, Any]) -> str:
    """The same report as a Markdown table (for issues and notebooks)."""
    rows = _rows(result)
    lines = [f"**{result['source']}**: {result['n_samples']:,} rows; {_description(result)}", ""]
    lines.append("| " + " | ".join(rows[0]) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(rows[0]) - 1)) + "|")
    lines.extend("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows[1:])
    return "\n".join(lines)
