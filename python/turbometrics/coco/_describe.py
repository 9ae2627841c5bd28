"""Naming an annotation in error messages."""

from __future__ import annotations

from typing import Any


def describe(kind: str, annotation: Any, index: int) -> str:
    """``"<kind> <index> (id <id>)"``, or without the id when it has none."""
    if isinstance(annotation, dict) and "id" in annotation:
        return f"{kind} {index} (id {annotation['id']!r})"
    return f"{kind} {index}"
