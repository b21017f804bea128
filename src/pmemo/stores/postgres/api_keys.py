"""Tenants and API keys in PostgreSQL: the ``KeyStore`` of a PostgreSQL store.

Every server replica on one database reads and writes the same rows (``api_tenants``,
``api_keys``, migration 0045), so a key made or revoked through one replica is made or revoked
for all, from their next request on. Nothing is cached in the process but when each key's use
was last noted (``TouchThrottle``); the note itself is skipped when another replica wrote it
within ``TOUCH_EVERY_S``.

>>> keys = PostgresKeyStore.open("postgresql://pmemo@db.example/pmemo")  # doctest: +SKIP
>>> keys.verify(keys.create_key("acme")).tenant  # doctest: +SKIP
'acme'
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from ...errors import AuthError, NotFound, StoreError
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
    presented,
)
from .database import Database, lock_key
from .migrate import migrate

POOL_SIZE = 4  # a verify is one short read; the memory store has its own pool
_COLUMNS = "id, tenant, admin, label, created_at, last_used_at, revoked_at"
_ADOPT_LOCK = lock_key("pmemo", "api_keys", "adopt")


def _iso(when: datetime | None) -> str | None:
    """A time as the SQLite key store writes it: ISO 8601 in UTC."""
    return None if when is None else when.astimezone(UTC).isoformat()


def _row(r: tuple[Any, ...]) -> dict[str, Any]:
    out = dict(zip(_COLUMNS.split(", "), r, strict=True))
    return out | {key: _iso(out[key]) for key in ("created_at", "last_used_at", "revoked_at")}


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


class PostgresKeyStore:
    """Tenants and hashed API keys in the database of a PostgreSQL store (thread-safe)."""

    def __init__(self, db: Database, *, admin_key: str | None = None) -> None:
        self._db = db
        self._env_admin = admin_hash(admin_key)
        self._touches = TouchThrottle()

    @classmethod
    def open(cls, url: str, *, admin_key: str | None = None) -> PostgresKeyStore:
        """The key store of the database at ``url``, migrated first (as ``PostgresStore.open``)."""
        migrate(url)
        return cls(Database(url, max_size=POOL_SIZE), admin_key=admin_key)

    def close(self) -> None:
        self._db.close()

    # tenants -------------------------------------------------------------
    def create_tenant(self, tenant: str) -> None:
        check_id("tenant", tenant)
        with self._db.tx() as cur:
            cur.execute("INSERT INTO api_tenants(id, created_at) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                        (tenant, datetime.now(UTC)))

    def tenants(self) -> list[dict[str, object]]:
        rows = self._db.rows(
            "SELECT t.id, t.created_at, COUNT(k.hash) FROM api_tenants t"
            " LEFT JOIN api_keys k ON k.tenant = t.id AND k.revoked_at IS NULL"
            " GROUP BY t.id ORDER BY t.id")
        return [{"tenant": r[0], "created_at": _iso(r[1]), "active_keys": int(r[2])} for r in rows]

    def revoke_tenant(self, tenant: str) -> int:
        """Revoke every key of ``tenant``; returns how many. Its memory is left alone."""
        with self._db.tx() as cur:
            if cur.execute("DELETE FROM api_tenants WHERE id=%s", (tenant,)).rowcount == 0:
                raise NotFound(f"tenant {tenant!r} does not exist")
            return cur.execute("UPDATE api_keys SET revoked_at=%s WHERE tenant=%s AND revoked_at IS NULL",
                               (datetime.now(UTC), tenant)).rowcount

    # keys ----------------------------------------------------------------
    def create_key(self, tenant: str | None = None, *, admin: bool = False, label: str = "") -> str:
        """Make a key and return it; this is the only time it is ever seen."""
        return self.issue_key(tenant, admin=admin, label=label).key

    def issue_key(self, tenant: str | None = None, *, admin: bool = False, label: str = "") -> IssuedKey:
        """``create_key``, with the new key's public id beside it (and its tenant made, if new,
        in the same transaction)."""
        check_kind(tenant, admin)
        if tenant is not None:
            check_id("tenant", tenant)
        key, key_id = new_key()
        now = datetime.now(UTC)
        with self._db.tx() as cur:
            if tenant is not None:
                cur.execute("INSERT INTO api_tenants(id, created_at) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                            (tenant, now))
            self._insert(cur, key, key_id, tenant, admin, label, now)
        return IssuedKey(key=key, id=key_id)

    @staticmethod
    def _insert(cur: Any, key: str, key_id: str, tenant: str | None, admin: bool, label: str,
                now: datetime) -> None:
        cur.execute("INSERT INTO api_keys(hash, id, tenant, admin, label, created_at) VALUES (%s,%s,%s,%s,%s,%s)",
                    (hash_key(key), key_id, tenant, admin, label[:LABEL_MAX], now))

    @contextmanager
    def temporary_key(self, tenant: str, *, label: str = "temporary") -> Iterator[str]:
        """A key of ``tenant`` that exists only inside the ``with`` block and is then deleted,
        leaving no row (nor a tenant) behind."""
        check_id("tenant", tenant)
        key, key_id = new_key()
        with self._db.tx() as cur:
            self._insert(cur, key, key_id, tenant, False, label, datetime.now(UTC))
        try:
            yield key
        finally:
            with self._db.tx() as cur:
                cur.execute("DELETE FROM api_keys WHERE id=%s", (key_id,))

    def has_key(self, tenant: str) -> bool:
        return self._db.one("SELECT 1 FROM api_keys WHERE tenant=%s AND revoked_at IS NULL LIMIT 1",
                            (tenant,)) is not None

    def keys(self, tenant: str | None = None) -> list[dict[str, Any]]:
        """Every key (revoked ones too), oldest first: id, tenant, admin, label, created_at,
        last_used_at, revoked_at. Never the key itself, nor its hash."""
        where, args = ("WHERE tenant=%s", [tenant]) if tenant is not None else ("", [])
        return [_row(r) for r in self._db.rows(f"SELECT {_COLUMNS} FROM api_keys {where} ORDER BY created_at, id",
                                               args)]

    def revoke(self, key_id: str) -> dict[str, Any]:
        """Revoke one key by its id, at once for every later request; returns it as ``keys``
        lists it. Revoking a revoked key changes nothing; an unknown id raises NotFound."""
        with self._db.tx() as cur:
            cur.execute("UPDATE api_keys SET revoked_at=%s WHERE id=%s AND revoked_at IS NULL",
                        (datetime.now(UTC), key_id))
            row = cur.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id=%s", (key_id,)).fetchone()
        if row is None:
            raise NotFound(f"no API key has the id {key_id!r} (pmemo keys list shows the ids)")
        return _row(row)

    def verify(self, key: str | None) -> KeyInfo:
        """The tenant (or admin) a key belongs to; raises AuthError if it is missing or wrong,
        Unavailable if the database cannot be reached."""
        digest, env = presented(key, self._env_admin)
        if env is not None:
            return env
        row = self._db.one("SELECT tenant, admin, label, id FROM api_keys WHERE hash=%s AND revoked_at IS NULL",
                           (digest,))
        if row is None:
            raise AuthError("unknown or revoked API key")
        self._touch(digest)
        return KeyInfo(tenant=row[0], admin=bool(row[1]), label=row[2], id=row[3])

    def _touch(self, digest: str) -> None:
        """Note the key's use, at most once per ``TOUCH_EVERY_S`` in this process, and not at
        all when another replica noted it that recently."""
        if not self._touches.due(digest):
            return
        now = datetime.now(UTC)
        try:
            with self._db.tx() as cur:
                cur.execute("UPDATE api_keys SET last_used_at=%s WHERE hash=%s"
                            " AND (last_used_at IS NULL OR last_used_at <= %s)",
                            (now, digest, now - timedelta(seconds=api_keys.TOUCH_EVERY_S)))
        except StoreError:  # a missed note is not worth failing a request that was verified
            self._touches.forget(digest)

    # moving keys in ------------------------------------------------------
    def adopt(self, rows: KeyRows) -> int:
        """Copy the tenants and keys of another key store (``SQLiteKeyStore.rows()``) in, if
        this one holds none yet; returns how many keys were copied. Two replicas that start
        together copy once: the second finds the keys there."""
        with self._db.tx() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_ADOPT_LOCK,))
            if cur.execute("SELECT EXISTS(SELECT 1 FROM api_keys) OR EXISTS(SELECT 1 FROM api_tenants)"
                           ).fetchone() != (False,):
                return 0
            cur.executemany("INSERT INTO api_tenants(id, created_at) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                            [(tenant, _when(created)) for tenant, created in rows.tenants])
            cur.executemany(
                "INSERT INTO api_keys(hash, id, tenant, admin, label, created_at, last_used_at, revoked_at)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
                [(k["hash"], k["id"], k["tenant"], k["admin"], k["label"], _when(k["created_at"]),
                  _when(k["last_used_at"]), _when(k["revoked_at"])) for k in rows.keys])
        return len(rows.keys)
