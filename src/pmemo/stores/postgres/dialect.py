"""Postgres's side of the shared SQL (``stores/sql.py``): its dialect, and the link that runs a
port's queries through the pool (``Database``): a read on one pooled connection, a write in
``Database.tx()``, and both on the unit's connection inside the store's ``tx()``.

Parameters written ``:name`` become psycopg's ``%(name)s``; a list parameter is an array.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row

from ..sql import Args, Dialect, Exec, Row
from .database import Database

POSTGRES = Dialect(
    in_list="{col} = ANY(:{name}::{type}[])",
    values="(SELECT unnest(:{name}::{type}[]) AS v)",
    nocase="lower({col}) = lower({value})",
    same="{col} IS NOT DISTINCT FROM {value}::{type}",
    typed="{value}::{type}",
    greatest="GREATEST",
    pack=list,
    found="strpos({text}, {part})",
    least="LEAST",
    true="TRUE",
    member="{col} ? :{name}",  # a jsonb list
    json_field="({col})::jsonb ->> '{key}'",
    # a jsonb payload by its index (jobs_waiting: kind, md5 of the text), then by value
    json_same="md5({col}::text) = md5(:{name}::jsonb::text) AND {col} = :{name}::jsonb",
    lock=" FOR UPDATE",
    lower="lower",
)
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")  # :name, not a ::cast


@functools.lru_cache(maxsize=512)
def placeholders(sql: str) -> str:
    """``:name`` parameters as psycopg's.

    >>> placeholders("SELECT 1 WHERE id = ANY(:ids::bigint[]) AND owner = 'u:' || :who")
    "SELECT 1 WHERE id = ANY(%(ids)s::bigint[]) AND owner = 'u:' || %(who)s"
    """
    return _NAMED.sub(r"%(\1)s", sql)


class PostgresExec:
    """``Exec`` on a cursor that gives rows as dicts."""

    def __init__(self, cur: psycopg.Cursor[dict[str, Any]]) -> None:
        self._cur = cur

    def rows(self, sql: str, args: Args | None = None, binary: bool = False) -> list[Row]:
        return [*self._cur.execute(placeholders(sql), dict(args or {}), binary=binary).fetchall()]

    def one(self, sql: str, args: Args | None = None) -> Row | None:
        return self._cur.execute(placeholders(sql), dict(args or {})).fetchone()

    def run(self, sql: str, args: Args | None = None) -> int:
        return self._cur.execute(placeholders(sql), dict(args or {})).rowcount

    def many(self, sql: str, rows: Sequence[Args]) -> None:
        if rows:
            self._cur.executemany(placeholders(sql), [dict(r) for r in rows])


class PostgresLink:
    def __init__(self, db: Database) -> None:
        self._db = db

    @contextmanager
    def read(self) -> Iterator[Exec]:
        with self._db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            yield PostgresExec(cur)

    @contextmanager
    def write(self) -> Iterator[Exec]:
        with self._db.tx() as tx, tx.connection.cursor(row_factory=dict_row) as cur:
            yield PostgresExec(cur)
