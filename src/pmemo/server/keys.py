"""Tenants and API keys, kept in their own SQLite file beside the memory.

A key is shown once, when it is made; only its sha256 is stored. Each key also has a
short public id (``k_…``, random, not derived from the key) by which it is listed and
revoked. An admin key manages tenants and is never a tenant key: it cannot read memory.

>>> store = KeyStore(":memory:")
>>> key = store.create_key("acme")
>>> info = store.verify(key)
>>> info.tenant
'acme'
>>> store.revoke(info.id)["tenant"]
'acme'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import AuthError, InvalidInput, NotFound
from ..files import private_dir, private_sqlite
from ..models import check_id

KEY_PREFIX = "pm_"
ID_PREFIX = "k_"
FILE_NAME = "keys.sqlite3"
# last_used_at is written at most this often per key, so a busy key is not a write per request
TOUCH_EVERY_S = 60.0

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


@dataclass(frozen=True)
class KeyInfo:
    """Who a verified key speaks for: a tenant, or the admin (``tenant is None``)."""

    tenant: str | None
    admin: bool
    label: str = ""
    id: str = ""  # empty for the admin key from the environment


@dataclass(frozen=True)
class IssuedKey:
    """A key just made (shown this once) and its public id."""

    key: str
    id: str


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key_id() -> str:
    return ID_PREFIX + secrets.token_hex(6)


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


class KeyStore:
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
        # An admin key from the environment is compared by hash, never stored.
        self._env_admin = hash_key(admin_key) if admin_key else None
        self._touched: dict[str, float] = {}  # key hash -> when last_used_at was last written

    @classmethod
    def in_dir(cls, data_dir: str | Path, *, admin_key: str | None = None) -> KeyStore:
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
        if admin == (tenant is not None):
            raise InvalidInput("a key is either for one tenant or an admin key, not both")
        if tenant is not None:
            self.create_tenant(tenant)
        key, key_id = KEY_PREFIX + secrets.token_urlsafe(32), new_key_id()
        with self._lock:
            self._db.execute(
                "INSERT INTO keys(hash, id, tenant, admin, label, created_at) VALUES (?,?,?,?,?,?)",
                (hash_key(key), key_id, tenant, int(admin), label[:200], _now()),
            )
        return IssuedKey(key=key, id=key_id)

    @contextmanager
    def temporary_key(self, tenant: str, *, label: str = "temporary") -> Iterator[str]:
        """A key of ``tenant`` that exists only inside the ``with`` block and is then deleted,
        leaving no row (nor a tenant) behind: for a local client beside a server on the same
        data directory, which could make keys anyway (``pmemo keys create``).

        >>> with KeyStore(":memory:").temporary_key("acme") as key:  # doctest: +SKIP
        ...     httpx.get(url, headers={"Authorization": f"Bearer {key}"})
        """
        check_id("tenant", tenant)
        key, key_id = KEY_PREFIX + secrets.token_urlsafe(32), new_key_id()
        with self._lock:
            self._db.execute(
                "INSERT INTO keys(hash, id, tenant, admin, label, created_at) VALUES (?,?,?,0,?,?)",
                (hash_key(key), key_id, tenant, label[:200], _now()),
            )
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
        if not key:
            raise AuthError("missing API key: send 'Authorization: Bearer <key>'")
        digest = hash_key(key)
        if self._env_admin is not None and hmac.compare_digest(digest, self._env_admin):
            return KeyInfo(tenant=None, admin=True, label="env")
        row = self._db.execute(
            "SELECT tenant, admin, label, id FROM keys WHERE hash=? AND revoked_at IS NULL",
            (digest,),
        ).fetchone()
        if row is None:
            raise AuthError("unknown or revoked API key")
        self._touch(digest)
        return KeyInfo(tenant=row[0], admin=bool(row[1]), label=row[2], id=row[3])

    def _touch(self, digest: str) -> None:
        """Note the key's use, at most once per ``TOUCH_EVERY_S``: not a write per request."""
        now = time.monotonic()
        with self._lock:
            if now - self._touched.get(digest, -TOUCH_EVERY_S) < TOUCH_EVERY_S:
                return
            self._touched[digest] = now
            try:
                self._db.execute("UPDATE keys SET last_used_at=? WHERE hash=?", (_now(), digest))
            except sqlite3.OperationalError:  # busy: a missed note is not worth failing a request
                del self._touched[digest]
