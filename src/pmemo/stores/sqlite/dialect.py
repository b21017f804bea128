"""SQLite's side of the shared SQL (``stores/sql.py``): its dialect, and the link that runs a
port's queries: reads on the thread's reader, writes in the store's one write transaction.

A list parameter is a JSON array (``json_each``): one parameter however long, where an
``IN (?, ?, …)`` list would need chunks SQLite accepts.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from ..sql import Args, Dialect, Exec, Row

SQLITE = Dialect(
    in_list="{col} IN (SELECT value FROM json_each(:{name}))",
    values="(SELECT value AS v FROM json_each(:{name}))",
    nocase="{col} = {value} COLLATE NOCASE",
    same="{col} IS {value}",
    typed="{value}",
    greatest="MAX",
    pack=json.dumps,
)


class SQLiteExec:
    """``Exec`` on one connection (parameters ``:name`` are SQLite's own)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def rows(self, sql: str, args: Args | None = None, binary: bool = False) -> list[Row]:
        return self._conn.execute(sql, args or {}).fetchall()

    def one(self, sql: str, args: Args | None = None) -> Row | None:
        found = self.rows(sql, args)  # all of it: a RETURNING statement is done once read
        return found[0] if found else None

    def run(self, sql: str, args: Args | None = None) -> int:
        return self._conn.execute(sql, args or {}).rowcount

    def many(self, sql: str, rows: Sequence[Args]) -> None:
        self._conn.executemany(sql, rows)


class SQLiteLink:
    """``read``: the calling thread's reader (the writer inside the store's ``tx()``);
    ``write``: the store's write transaction (``_tx``), which a ``tx()`` block joins."""

    def __init__(self, read: Callable[[], sqlite3.Connection],
                 write: Callable[[], AbstractContextManager[sqlite3.Connection]]) -> None:
        self._reader = read
        self._writer = write

    @contextmanager
    def read(self) -> Iterator[Exec]:
        yield SQLiteExec(self._reader())

    @contextmanager
    def write(self) -> Iterator[Exec]:
        with self._writer() as conn:
            yield SQLiteExec(conn)
