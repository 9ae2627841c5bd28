"""Naming an annotation in error messages."""

from __future__ import annotations

from typing import Any


def describe(kind: str, annotation: Any, index: int) -> str:
    """``"<kind> <index> (id <id>)"``, or without the id when it has none."""
    if isinstance(annotation, dict) and "id" in annotation:
        return f"{kind} {index} (id {annotation['id']!r})"
    return f"{kind} {index}"


class MissingFieldError(KeyError, ValueError):
    """An annotation lacks a field the evaluation reads: a KeyError, as
    pycocotools raises, and a ValueError, as turbometrics documents; its
    text is the message itself (no quotes)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
