"""Tenants and API keys, kept in their own SQLite file beside the memory.

A key is shown once, when it is made; only its sha256 is stored. An admin key
manages tenants and is never a tenant key: it cannot read memory.

>>> store = KeyStore(":memory:")
>>> key = store.create_key("acme")
>>> store.verify(key).tenant
'acme'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import AuthError, InvalidInput, NotFound
from ..models import check_id

KEY_PREFIX = "pm_"
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
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS keys_tenant ON keys(tenant);
"""


@dataclass(frozen=True)
class KeyInfo:
    """Who a verified key speaks for: a tenant, or the admin (``tenant is None``)."""

    tenant: str | None
    admin: bool
    label: str = ""


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat()


class KeyStore:
    """Tenants and hashed API keys in one small SQLite file (thread-safe, tiny writes)."""

    def __init__(self, path: str | Path, *, admin_key: str | None = None) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        # An admin key from the environment is compared by hash, never stored.
        self._env_admin = hash_key(admin_key) if admin_key else None

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
        if admin == (tenant is not None):
            raise InvalidInput("a key is either for one tenant or an admin key, not both")
        if tenant is not None:
            self.create_tenant(tenant)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        with self._lock:
            self._db.execute(
                "INSERT INTO keys(hash, tenant, admin, label, created_at) VALUES (?,?,?,?,?)",
                (hash_key(key), tenant, int(admin), label[:200], _now()),
            )
        return key

    def has_key(self, tenant: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM keys WHERE tenant=? AND revoked_at IS NULL LIMIT 1", (tenant,)
        ).fetchone()
        return row is not None

    def verify(self, key: str | None) -> KeyInfo:
        """The tenant (or admin) a key belongs to; raises AuthError if it is missing or wrong."""
        if not key:
            raise AuthError("missing API key: send 'Authorization: Bearer <key>'")
        digest = hash_key(key)
        if self._env_admin is not None and hmac.compare_digest(digest, self._env_admin):
            return KeyInfo(tenant=None, admin=True, label="env")
        row = self._db.execute(
            "SELECT tenant, admin, label FROM keys WHERE hash=? AND revoked_at IS NULL", (digest,)
        ).fetchone()
        if row is None:
            raise AuthError("unknown or revoked API key")
        return KeyInfo(tenant=row[0], admin=bool(row[1]), label=row[2])
