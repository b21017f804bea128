"""Conversions between PostgreSQL rows and pmemo models.

Turns are stored as on SQLite (epoch seconds, the UTC offset, metadata as JSON text), so their
conversions are SQLite's (``sqlite.codec``); derived records come as dict rows here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...models import KeyLine, Scope
from ..sqlite.codec import TURN_COLUMNS, from_epoch, to_epoch, turn, utc

__all__ = ["TURN_COLUMNS", "f32", "from_epoch", "key_line", "ref_columns", "to_epoch", "turn",
           "utc", "vector"]


def ref_columns(table: str) -> str:
    """A TurnRef's columns of ``table`` (a name or alias), in its fields' order."""
    return (f"{table}.id, {table}.scope_key, {table}.session, {table}.step, {table}.actor,"
            f" {table}.ts, {table}.tz, {table}.content, {table}.role, {table}.actor_id,"
            f" (SELECT cluster_id FROM cluster_members WHERE turn_id={table}.id)")


def f32(vec: np.ndarray) -> np.ndarray:
    """A vector as pgvector stores it: float32, one dimension."""
    return np.asarray(vec, dtype=np.float32).reshape(-1)


def vector(value: Any) -> np.ndarray:
    """A stored vector as float32 (the loaders of ``database.py`` give float32 already)."""
    return np.asarray(value, dtype=np.float32)


def scope_of(row: dict[str, Any], session: str | None = None) -> Scope:
    return Scope(row["tenant"], row["agent"], row["owner"], session)


def key_line(row: dict[str, Any], sources: tuple[int, ...]) -> KeyLine:
    return KeyLine(row["id"], scope_of(row), row["text"], row["origin"], sources,
                   utc(row["created"]), utc(row["updated"]), row["version"])
