"""Conversions between SQLite rows and pmemo models."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

import numpy as np

from ...models import KeyLine, Scope, Turn


def to_epoch(ts: datetime) -> tuple[float, int | None]:
    """Epoch seconds (naive = UTC) and the UTC offset in seconds to restore it."""
    if ts.tzinfo is None:
        return ts.replace(tzinfo=UTC).timestamp(), None
    offset = ts.utcoffset()
    return ts.timestamp(), int(offset.total_seconds()) if offset is not None else 0


def from_epoch(epoch: float, offset: int | None) -> datetime:
    if offset is None:
        return datetime.fromtimestamp(epoch, UTC).replace(tzinfo=None)
    return datetime.fromtimestamp(epoch, _zone(offset))


@lru_cache(maxsize=256)
def _zone(offset: int) -> timezone:
    return timezone(timedelta(seconds=offset))


def utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def blob(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype=np.float32).tobytes()


def unblob(data: bytes | bytearray) -> np.ndarray:
    return np.frombuffer(data, dtype=np.float32)


def scope_of(row: sqlite3.Row, session: str | None = None) -> Scope:
    return Scope(row["tenant"], row["agent"], row["owner"], session)


# the columns turn() reads, by position: a search decodes a few hundred turns
TURN_FIELDS = ("id", "tenant", "agent", "owner", "session", "step", "role", "content", "actor",
               "ts", "tz", "metadata", "actor_id", "reply_to")
TURN_COLUMNS = ", ".join(TURN_FIELDS)


def ref_columns(table: str) -> str:
    """A TurnRef's columns of ``table`` (a name or alias), in its fields' order."""
    return (f"{table}.id, {table}.scope_key, {table}.session, {table}.step, {table}.actor,"
            f" {table}.ts, CAST({table}.tz AS INTEGER), {table}.content, {table}.role, {table}.actor_id,"
            f" (SELECT cluster_id FROM cluster_members WHERE turn_id={table}.id)")


@lru_cache(maxsize=4096)
def _scope(tenant: str, agent: str, owner: str, session: str | None) -> Scope:
    return Scope(tenant, agent, owner, session)  # frozen: one object per scope can be shared


def turn(row: sqlite3.Row | tuple[Any, ...]) -> Turn:
    """A Turn from a row of ``SELECT {TURN_COLUMNS}``."""
    id_, tenant, agent, owner, session, step, role, content, actor, ts, tz, metadata, actor_id, reply_to = row
    return Turn(id_, _scope(tenant, agent, owner, session), step, role, content, actor,
                from_epoch(ts, None if tz is None else int(tz)),
                {} if metadata == "{}" else json.loads(metadata), actor_id, reply_to)


def key_line(row: sqlite3.Row, sources: tuple[int, ...]) -> KeyLine:
    return KeyLine(row["id"], scope_of(row), row["text"], row["origin"], sources,
                   utc(row["created"]), utc(row["updated"]), row["version"])
