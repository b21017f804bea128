"""The lock port on PostgreSQL (``store.locks``; ``stores/locks.py`` is the rest): advisory locks,
so every process and replica on the database shares them.

A hold keeps one pooled connection for its block and takes ``pg_advisory_lock`` (or
``pg_advisory_lock_shared``) on it, one 64-bit key per name, in key order: two holds of
overlapping names never wait for each other crosswise. Session-level locks, not
transaction-level ones: the block is many transactions on other connections, and a
transaction left open for it would be ended by an ``idle_in_transaction_session_timeout``.
The wait is bounded by ``lock_timeout``. The locks go with ``pg_advisory_unlock_all`` when the
block ends, and with the session if the connection or the process dies, so a crashed worker
holds no one back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from ..locks import Locks, locked
from .database import Database, lock_key


class PostgresLocks(Locks):
    def __init__(self, db: Database) -> None:
        self._db = db

    @contextmanager
    def _held(self, names: list[str], shared: bool, wait_s: float) -> Iterator[None]:
        with self._db.session() as conn:
            _take(conn, names, shared, wait_s)
            try:
                yield
            finally:
                _release(conn)


def _take(conn: psycopg.Connection[Any], names: list[str], shared: bool, wait_s: float) -> None:
    mode = "_shared" if shared else ""
    keys = sorted({lock_key("hold", name) for name in names})
    try:
        if wait_s <= 0:  # lock_timeout 0 would mean no bound at all: try each once instead
            for key in keys:
                row = conn.execute(f"SELECT pg_try_advisory_lock{mode}(%s)", (key,)).fetchone()
                if not (row and row[0]):
                    raise psycopg.errors.LockNotAvailable("held")
        else:
            conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{max(1, round(wait_s * 1000))}ms",))
            for key in keys:
                conn.execute(f"SELECT pg_advisory_lock{mode}(%s)", (key,))
    except BaseException as exc:
        _release(conn)  # the ones taken before the wait gave up
        if isinstance(exc, psycopg.errors.LockNotAvailable):
            raise locked(names, wait_s, "another process") from exc
        raise


def _release(conn: psycopg.Connection[Any]) -> None:
    try:
        conn.execute("SELECT pg_advisory_unlock_all()")
        conn.execute("RESET lock_timeout")
    except psycopg.Error:
        conn.close()  # the pool drops it, and the session's locks end with it
