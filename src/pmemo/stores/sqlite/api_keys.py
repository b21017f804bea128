"""Tenants and API keys in their own SQLite file beside the memory (``<data>/keys.sqlite3``).

The ``KeyStore`` of a SQLite store (``stores/api_keys.py`` says what a key store does); one
process at a time writes the file, as it does the memory beside it.

>>> store = SQLiteKeyStore(":memory:")
>>> key = store.create_key("acme")
>>> info = store.verify(key)
>>> info.tenant
'acme'
>>> store.revoke(info.id)["tenant"]
'acme'
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ...errors import AuthError, NotFound
from ...files import private_dir, private_sqlite
from ...models import check_id
from .. import api_keys
from ..api_keys import (
    LABEL_MAX,
    IssuedKey,
    KeyInfo,
    KeyRows,
    TouchThrottle,
    admin_hash,
    check_kind,
    hash_key,
    new_key,
    new_key_id,
    presented,
)

FILE_NAME = "keys.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tenants (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS keys (
  hash TEXT PRIMARY KEY,
  tenant TEXT,             -- NULL for admin keys
  admin INTEGER NOT NULL DEFAULT 0,
  label TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  id TEXT,                 -- public: listed and revoked by this, never the key
  last_used_at TEXT
);
CREATE INDEX IF NOT EXISTS keys_tenant ON keys(tenant);
"""
# keys tables made before ids: columns added in place, each old key given an id
_ADDED_COLUMNS = (("id", "TEXT"), ("last_used_at", "TEXT"))
_COLUMNS = "id, tenant, admin, label, created_at, last_used_at, revoked_at"


def _migrate(db: sqlite3.Connection) -> None:
    have = {row[1] for row in db.execute("PRAGMA table_info(keys)")}
    for name, kind in _ADDED_COLUMNS:
        if name not in have:
            db.execute(f"ALTER TABLE keys ADD COLUMN {name} {kind}")
    for (digest,) in db.execute("SELECT hash FROM keys WHERE id IS NULL").fetchall():
        db.execute("UPDATE keys SET id=? WHERE hash=?", (new_key_id(), digest))
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS keys_id ON keys(id)")


def _row(r: sqlite3.Row | tuple[Any, ...]) -> dict[str, Any]:
    return dict(zip(_COLUMNS.split(", "), r, strict=True)) | {"admin": bool(r[2])}


def _now() -> str:
    return datetime.now(UTC).isoformat()


class SQLiteKeyStore:
    """Tenants and hashed API keys in one small SQLite file (thread-safe, tiny writes)."""

    def __init__(self, path: str | Path, *, admin_key: str | None = None) -> None:
        self.path = None if str(path) == ":memory:" else Path(path)  # for /metrics' store size
        if str(path) != ":memory:":
            private_dir(Path(path).parent)
            private_sqlite(path)  # its -wal and -shm are made with its mode: 0600
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._db.execute("BEGIN IMMEDIATE")  # one process migrates; the next sees it done
        try:
            _migrate(self._db)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        self._lock = threading.Lock()
        self._env_admin = admin_hash(admin_key)
        self._touches = TouchThrottle()

    @classmethod
    def in_dir(cls, data_dir: str | Path, *, admin_key: str | None = None) -> SQLiteKeyStore:
        """The key store of a data directory: ``<data>/keys.sqlite3``."""
        return cls(Path(data_dir) / FILE_NAME, admin_key=admin_key)

    def close(self) -> None:
        self._db.close()

    # tenants -------------------------------------------------------------
    def create_tenant(self, tenant: str) -> None:
        check_id("tenant", tenant)
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO tenants(id, created_at) VALUES (?, ?)", (tenant, _now())
            )

    def tenants(self) -> list[dict[str, object]]:
        rows = self._db.execute(
            "SELECT t.id, t.created_at, COUNT(k.hash) FROM tenants t "
            "LEFT JOIN keys k ON k.tenant = t.id AND k.revoked_at IS NULL "
            "GROUP BY t.id ORDER BY t.id"
        ).fetchall()
        return [{"tenant": r[0], "created_at": r[1], "active_keys": r[2]} for r in rows]

    def revoke_tenant(self, tenant: str) -> int:
        """Revoke every key of ``tenant``; returns how many. Its memory is left alone."""
        with self._lock:
            if not self._db.execute("SELECT 1 FROM tenants WHERE id=?", (tenant,)).fetchone():
                raise NotFound(f"tenant {tenant!r} does not exist")
            cur = self._db.execute(
                "UPDATE keys SET revoked_at=? WHERE tenant=? AND revoked_at IS NULL",
                (_now(), tenant),
            )
            self._db.execute("DELETE FROM tenants WHERE id=?", (tenant,))
            return cur.rowcount

    # keys ----------------------------------------------------------------
    def create_key(self, tenant: str | None = None, *, admin: bool = False, label: str = "") -> str:
        """Make a key and return it; this is the only time it is ever seen."""
        return self.issue_key(tenant, admin=admin, label=label).key

    def issue_key(
        self, tenant: str | None = None, *, admin: bool = False, label: str = ""
    ) -> IssuedKey:
        """``create_key``, with the new key's public id beside it."""
        check_kind(tenant, admin)
        if tenant is not None:
            self.create_tenant(tenant)
        key, key_id = new_key()
        self._insert(key, key_id, tenant, admin, label)
        return IssuedKey(key=key, id=key_id)

    def _insert(self, key: str, key_id: str, tenant: str | None, admin: bool, label: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO keys(hash, id, tenant, admin, label, created_at) VALUES (?,?,?,?,?,?)",
                (hash_key(key), key_id, tenant, int(admin), label[:LABEL_MAX], _now()),
            )

    @contextmanager
    def temporary_key(self, tenant: str, *, label: str = "temporary") -> Iterator[str]:
        """A key of ``tenant`` that exists only inside the ``with`` block and is then deleted,
        leaving no row (nor a tenant) behind: for a local client beside a server on the same
        data directory, which could make keys anyway (``pmemo keys create``).

        >>> with SQLiteKeyStore(":memory:").temporary_key("acme") as key:  # doctest: +SKIP
        ...     httpx.get(url, headers={"Authorization": f"Bearer {key}"})
        """
        check_id("tenant", tenant)
        key, key_id = new_key()
        self._insert(key, key_id, tenant, False, label)
        try:
            yield key
        finally:
            with self._lock:
                self._db.execute("DELETE FROM keys WHERE id=?", (key_id,))

    def has_key(self, tenant: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM keys WHERE tenant=? AND revoked_at IS NULL LIMIT 1", (tenant,)
        ).fetchone()
        return row is not None

    def keys(self, tenant: str | None = None) -> list[dict[str, Any]]:
        """Every key (revoked ones too), oldest first: id, tenant, admin, label, created_at,
        last_used_at, revoked_at. Never the key itself, nor its hash."""
        sql, args = f"SELECT {_COLUMNS} FROM keys", []
        if tenant is not None:
            sql, args = sql + " WHERE tenant=?", [tenant]
        return [_row(r) for r in self._db.execute(sql + " ORDER BY created_at, id", args)]

    def revoke(self, key_id: str) -> dict[str, Any]:
        """Revoke one key by its id, at once for every later request; returns it as ``keys``
        lists it. Revoking a revoked key changes nothing; an unknown id raises NotFound."""
        with self._lock:
            self._db.execute(
                "UPDATE keys SET revoked_at=? WHERE id=? AND revoked_at IS NULL", (_now(), key_id)
            )
            row = self._db.execute(f"SELECT {_COLUMNS} FROM keys WHERE id=?", (key_id,)).fetchone()
        if row is None:
            raise NotFound(f"no API key has the id {key_id!r} (pmemo keys list shows the ids)")
        return _row(row)

    def verify(self, key: str | None) -> KeyInfo:
        """The tenant (or admin) a key belongs to; raises AuthError if it is missing or wrong."""
        digest, env = presented(key, self._env_admin)
        if env is not None:
            return env
        row = self._db.execute(
            "SELECT tenant, admin, label, id FROM keys WHERE hash=? AND revoked_at IS NULL",
            (digest,),
        ).fetchone()
        if row is None:
            raise AuthError("unknown or revoked API key")
        self._touch(digest)
        return KeyInfo(tenant=row[0], admin=bool(row[1]), label=row[2], id=row[3])

    def _touch(self, digest: str) -> None:
        """Note the key's use, at most once per ``TOUCH_EVERY_S`` in this process, and not at
        all when another process noted it that recently: not a write per request."""
        if not self._touches.due(digest):
            return
        now = datetime.now(UTC)
        recent = (now - timedelta(seconds=api_keys.TOUCH_EVERY_S)).isoformat()  # ISO in UTC sorts as time
        with self._lock:
            try:
                self._db.execute("UPDATE keys SET last_used_at=? WHERE hash=?"
                                 " AND (last_used_at IS NULL OR last_used_at <= ?)", (now.isoformat(), digest, recent))
            except sqlite3.OperationalError:  # busy: a missed note is not worth failing a request
                self._touches.forget(digest)

    def rows(self) -> KeyRows:
        """Every tenant and key as kept, hashes included: to copy them into another backend."""
        tenants = [(r[0], r[1]) for r in self._db.execute("SELECT id, created_at FROM tenants ORDER BY id")]
        keys = [_row(r[1:]) | {"hash": r[0]}
                for r in self._db.execute(f"SELECT hash, {_COLUMNS} FROM keys ORDER BY created_at, id")]
        return KeyRows(tenants=tenants, keys=keys)
