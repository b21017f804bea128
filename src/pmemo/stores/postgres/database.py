"""The connection pool every mixin of ``PostgresStore`` reads and writes through.

Connections are in autocommit mode: a read is one statement and needs no transaction; a
write that must be atomic runs in ``tx()``. A ``tx()`` inside another, in the same context and
thread, joins it (one connection, one transaction: a context variable holds it); inside
``unit()``, the store's unit of work, reads go through that connection too. Each pooled
connection knows pgvector's type, so numpy arrays go in and come out as ``vector`` values.
"""

from __future__ import annotations

import hashlib
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.adapt import Loader
from psycopg.pq import Format
from psycopg.rows import dict_row
from psycopg.types import TypeInfo
from psycopg_pool import ConnectionPool, PoolTimeout

from ...errors import Unavailable
from ..unit import Unit

POOL_SIZE = 10  # connections at most: a server's request threads, a worker, the inspector
CONNECT_TIMEOUT_S = 10.0
# a call waits this long for a connection (all busy, or the server restarting), then raises
# Unavailable (REST: 503 with Retry-After) rather than hold its caller for the pool's 30 s
WAIT_S = 5.0
# a connection handed back this recently is handed out again without a check; one idle longer
# is checked first (a round trip), so one broken by a server restart meanwhile is replaced
# unseen. Checking every one cost a round trip per store call: 13 % of a Postgres ingest.
FRESH_S = 1.0
# the open transaction of this context: its database, connection and unit (``tx``, ``unit``)
_OPEN: ContextVar[tuple[Database, psycopg.Connection[Any], Unit] | None] = ContextVar("pmemo_pg_tx", default=None)


def lock_key(*parts: str) -> int:
    """A signed 64-bit key for ``pg_advisory_xact_lock`` naming ``parts`` (a session, an
    idempotency key); a collision only makes two writers wait for each other."""
    digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def connect_error(url: str, exc: Exception) -> Unavailable:
    """Unavailable, naming the server (without its password) and what went wrong: a server
    that is down or restarting is worth trying again (adapters: 503 with Retry-After)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        info = {}
    where = f"{info.get('host') or 'localhost'}:{info.get('port') or 5432}/{info.get('dbname') or ''}"
    return Unavailable(f"cannot use PostgreSQL at {where}: {str(exc).strip() or type(exc).__name__}"
                      " (check PMEMO_STORE / --store and that the server runs)")


class _VectorText(Loader):
    """A ``vector`` value as a float32 array (pgvector's loader makes a ``Vector`` object)."""

    def load(self, data: Any) -> np.ndarray:
        return np.fromstring(bytes(data)[1:-1], dtype=np.float32, sep=",")


class _VectorBinary(Loader):
    format = Format.BINARY

    def load(self, data: Any) -> np.ndarray:  # 2 bytes dimensions, 2 unused, big-endian float32s
        dim = int.from_bytes(bytes(data[:2]), "big")
        return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)


def _configure(conn: psycopg.Connection[Any]) -> None:
    """pgvector's adapters on a new connection (numpy arrays go in as ``vector``), with loaders
    that give float32 arrays back."""
    register_vector(conn)
    info = TypeInfo.fetch(conn, "vector")
    assert info is not None  # register_vector raised otherwise
    conn.adapters.register_loader(info.oid, _VectorText)
    conn.adapters.register_loader(info.oid, _VectorBinary)


class _Freshness:
    """The pool's ``check`` and ``reset`` callbacks: check a connection only when it has been
    idle past FRESH_S (``reset`` notes when it came back)."""

    def __init__(self) -> None:
        self._back: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = weakref.WeakKeyDictionary()

    def returned(self, conn: psycopg.Connection[Any]) -> None:
        self._back[conn] = time.monotonic()

    def check(self, conn: psycopg.Connection[Any]) -> None:
        if time.monotonic() - self._back.get(conn, 0.0) > FRESH_S:
            ConnectionPool.check_connection(conn)


class Database:
    """A pool of connections to one database; ``close()`` ends them."""

    def __init__(self, url: str, max_size: int = POOL_SIZE) -> None:
        self.url = url
        fresh = _Freshness()
        self._pool = ConnectionPool(url, min_size=1, max_size=max_size, open=False, timeout=WAIT_S,
                                    kwargs={"autocommit": True}, configure=_configure,
                                    check=fresh.check, reset=fresh.returned, name="pmemo")
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        except PoolTimeout as exc:
            self._pool.close()
            raise connect_error(url, exc) from exc

    def close(self) -> None:
        self._pool.close()

    def _open(self) -> tuple[psycopg.Connection[Any], Unit] | None:
        """This context's open transaction on this database, if this thread holds one."""
        held = _OPEN.get()
        return (held[1], held[2]) if held is not None and held[0] is self and held[2].mine else None

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        held = self._open()
        if held is not None and held[1].reads:  # inside unit(): read what it wrote
            yield held[0]
        else:
            with self._pooled() as conn:
                yield conn

    @contextmanager
    def _pooled(self) -> Iterator[psycopg.Connection[Any]]:
        try:
            with self._pool.connection() as conn:
                yield conn
        except (PoolTimeout, psycopg.OperationalError) as exc:  # the server went away
            raise connect_error(self.url, exc) from exc

    def rows(self, sql: str, args: Sequence[Any] | dict[str, Any] = (), binary: bool = False) -> list[tuple[Any, ...]]:
        """The rows of one read, as tuples; ``binary`` for rows of vectors (no text to parse)."""
        with self._conn() as conn:
            return conn.execute(sql, args, binary=binary).fetchall()  # type: ignore[arg-type]

    def dicts(self, sql: str, args: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        """The rows of one read, as dicts by column name."""
        with self._conn() as conn, conn.cursor(row_factory=dict_row) as cur:
            return cur.execute(sql, args).fetchall()  # type: ignore[arg-type]

    def one(self, sql: str, args: Sequence[Any] | dict[str, Any] = ()) -> tuple[Any, ...] | None:
        with self._conn() as conn:
            return conn.execute(sql, args).fetchone()  # type: ignore[arg-type]

    def reads(self, statements: Sequence[tuple[str, Sequence[Any] | dict[str, Any], str]]) -> list[list[Any]]:
        """The rows of several reads that do not depend on each other, sent together (psycopg's
        pipeline mode): one round trip for them all. Each statement is (sql, args, shape), shape
        "rows" (tuples), "dicts" (by column name) or "binary" (tuples of vectors)."""
        if not statements:
            return []
        with self._conn() as conn:
            with conn.pipeline():
                cursors = []
                for sql, args, shape in statements:
                    cur = conn.cursor(row_factory=dict_row) if shape == "dicts" else conn.cursor()
                    cur.execute(sql, args, binary=shape == "binary")  # type: ignore[arg-type]
                    cursors.append(cur)
            return [cur.fetchall() for cur in cursors]

    @contextmanager
    def session(self) -> Iterator[psycopg.Connection[Any]]:
        """One pooled connection kept for the block: where session state lives (an advisory
        lock held across many transactions, ``locks.py``); back in the pool after it."""
        with self._pooled() as conn:
            yield conn

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection for a few reads (the unit's, inside ``unit()``)."""
        with self._conn() as conn:
            yield conn

    @contextmanager
    def tx(self) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor in one transaction: committed when the block ends, rolled back if it raises.
        Inside another ``tx()`` or ``unit()`` of this context, a cursor in that one."""
        with self._transaction(reads=False) as conn, conn.cursor() as cur:
            yield cur

    @contextmanager
    def unit(self) -> Iterator[None]:
        """The store's unit of work (``ports.unit``): every call in the block, in this context
        and thread, is one transaction on one connection, its reads included."""
        with self._transaction(reads=True):
            yield

    @contextmanager
    def _transaction(self, reads: bool) -> Iterator[psycopg.Connection[Any]]:
        held = self._open()
        if held is not None:
            with held[1].step():
                yield held[0]
            return
        with self._pooled() as conn, conn.transaction():
            unit = Unit(reads=reads)
            token = _OPEN.set((self, conn, unit))
            try:
                yield conn
                unit.check()
            finally:
                _OPEN.reset(token)
