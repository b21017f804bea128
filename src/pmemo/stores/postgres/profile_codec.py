"""Conversions between PostgreSQL rows (dicts by column name) and records (``Record``); a fact's,
an episode's and a task's are their ports' SQL's (``stores/facts_sql.py`` …). Times are epoch seconds as on SQLite; JSON
columns are jsonb, so they arrive as Python values and go in through ``jsonb()``."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ...models import Record
from .codec import utc

_dumps = partial(json.dumps, ensure_ascii=False, default=str)


def jsonb(value: Any) -> Jsonb:
    """A value for a jsonb column; what JSON cannot hold (a datetime…) goes in as its text."""
    return Jsonb(value, dumps=_dumps)


def named(cur: psycopg.Cursor[Any]) -> list[dict[str, Any]]:
    """The rows a write's ``RETURNING`` gave (on a ``Database.tx()`` cursor), as dicts by column."""
    names = [column.name for column in cur.description or ()]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def record(row: dict[str, Any]) -> Record:
    return Record(id=row["id"], tenant_id=row["tenant"], agent_id=row["agent"], user_id=row["user_id"],
                  type=row["type"], visibility=row["visibility"], content=row["content"], summary=row["summary"],
                  structured=row["structured"], embedding_model=row["embedding_model"],
                  importance=row["importance"], confidence=row["confidence"], tags=tuple(row["tags"]),
                  source=row["source"], version=row["version"], created_at=utc(row["created"]),
                  updated_at=utc(row["updated"]), accessed_at=utc(row["accessed"]),
                  decay_score=row["decay_score"], relations=tuple(row["relations"]),
                  allowed_users=tuple(row["allowed_users"]), allowed_roles=tuple(row["allowed_roles"]))
