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
from datetime import UTC
from pathlib import Path

from ...files import private_dir, private_sqlite
from ..api_keys import KeyRows, new_key_id
from ..api_keys_sql import COLUMNS, KeyTables, SQLKeyStore
from .dialect import SQLiteLink

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
# times as ISO 8601 text in UTC, which sorts as time; busy: a missed note of a key's use
TABLES = KeyTables("tenants", "keys", lambda when: when.astimezone(UTC).isoformat(), lambda text: text,
                   (sqlite3.OperationalError,))


def _migrate(db: sqlite3.Connection) -> None:
    have = {row[1] for row in db.execute("PRAGMA table_info(keys)")}
    for name, kind in _ADDED_COLUMNS:
        if name not in have:
            db.execute(f"ALTER TABLE keys ADD COLUMN {name} {kind}")
    for (digest,) in db.execute("SELECT hash FROM keys WHERE id IS NULL").fetchall():
        db.execute("UPDATE keys SET id=? WHERE hash=?", (new_key_id(), digest))
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS keys_id ON keys(id)")


class SQLiteKeyStore(SQLKeyStore):
    """Tenants and hashed API keys in one small SQLite file (thread-safe, tiny writes)."""

    def __init__(self, path: str | Path, *, admin_key: str | None = None) -> None:
        self.path = None if str(path) == ":memory:" else Path(path)  # for /metrics' store size
        if str(path) != ":memory:":
            private_dir(Path(path).parent)
            private_sqlite(path)  # its -wal and -shm are made with its mode: 0600
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        with self._tx() as db:  # one process migrates; the next sees it done
            _migrate(db)
        super().__init__(SQLiteLink(lambda: self._db, self._tx), TABLES, admin_key)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @classmethod
    def in_dir(cls, data_dir: str | Path, *, admin_key: str | None = None) -> SQLiteKeyStore:
        """The key store of a data directory: ``<data>/keys.sqlite3``."""
        return cls(Path(data_dir) / FILE_NAME, admin_key=admin_key)

    def close(self) -> None:
        self._db.close()

    def rows(self) -> KeyRows:
        """Every tenant and key as kept, hashes included: to copy them into another backend."""
        rows = self._db.execute("SELECT id, created_at FROM tenants ORDER BY id")
        tenants = [(r["id"], r["created_at"]) for r in rows]
        keys = [TABLES.listed(r) | {"hash": r["hash"]}
                for r in self._db.execute(f"SELECT hash, {', '.join(COLUMNS)} FROM keys ORDER BY created_at, id")]
        return KeyRows(tenants=tenants, keys=keys)
