"""The key store (``api_keys.KeyStore``) in SQL, written once for SQLite and Postgres.

The two keep the same rows under other names and types: SQLite's own small file has ``tenants``
and ``keys`` with times as ISO 8601 text in UTC; a PostgreSQL store's database has
``api_tenants`` and ``api_keys`` with ``timestamptz``. A backend passes its ``KeyTables`` (the
names, and how a time is written and read back); what a key store does with them is here. Each
backend module keeps what is its own: opening and migrating, and moving keys between backends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ..errors import AuthError, NotFound
from ..models import check_id
from . import api_keys
from .api_keys import LABEL_MAX, IssuedKey, KeyInfo, TouchThrottle, admin_hash, check_kind, hash_key, new_key, presented
from .sql import Exec, Link, Row

COLUMNS = ("id", "tenant", "admin", "label", "created_at", "last_used_at", "revoked_at")
_TIMES = ("created_at", "last_used_at", "revoked_at")


@dataclass(frozen=True)
class KeyTables:
    """A backend's key tables: their names, a time as it is written (``stamp``) and read back
    as ISO text in UTC (``iso``), and the errors a missed last-use note may raise (``busy``)."""

    tenants: str
    keys: str
    stamp: Callable[[datetime], Any]
    iso: Callable[[Any], str | None]
    busy: tuple[type[Exception], ...]

    def listed(self, row: Row) -> dict[str, Any]:
        """A key as ``keys()`` lists it."""
        return {c: row[c] for c in COLUMNS} | {"admin": bool(row["admin"])} | {c: self.iso(row[c]) for c in _TIMES}


class SQLKeyStore:
    """``KeyStore`` over a backend's ``Link`` and ``KeyTables``; thread-safe as its link is."""

    def __init__(self, link: Link, tables: KeyTables, admin_key: str | None) -> None:
        self._link = link
        self._t = tables
        self._env_admin = admin_hash(admin_key)
        self._touches = TouchThrottle()

    # tenants -------------------------------------------------------------
    def create_tenant(self, tenant: str) -> None:
        check_id("tenant", tenant)
        with self._link.write() as x:
            self._tenant(x, tenant, datetime.now(UTC))

    def _tenant(self, x: Exec, tenant: str, now: datetime) -> None:
        x.run(f"INSERT INTO {self._t.tenants}(id, created_at) VALUES(:id, :at) ON CONFLICT DO NOTHING",
              {"id": tenant, "at": self._t.stamp(now)})

    def tenants(self) -> list[dict[str, object]]:
        with self._link.read() as x:
            rows = x.rows(f"SELECT t.id, t.created_at, COUNT(k.hash) AS n FROM {self._t.tenants} t"
                          f" LEFT JOIN {self._t.keys} k ON k.tenant = t.id AND k.revoked_at IS NULL"
                          " GROUP BY t.id, t.created_at ORDER BY t.id")
        return [{"tenant": r["id"], "created_at": self._t.iso(r["created_at"]), "active_keys": int(r["n"])}
                for r in rows]

    def revoke_tenant(self, tenant: str) -> int:
        """Revoke every key of ``tenant``; returns how many. Its memory is left alone."""
        with self._link.write() as x:
            if not x.run(f"DELETE FROM {self._t.tenants} WHERE id=:id", {"id": tenant}):
                raise NotFound(f"tenant {tenant!r} does not exist")
            return x.run(f"UPDATE {self._t.keys} SET revoked_at=:now WHERE tenant=:id AND revoked_at IS NULL",
                         {"id": tenant, "now": self._t.stamp(datetime.now(UTC))})

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
        with self._link.write() as x:
            if tenant is not None:
                self._tenant(x, tenant, now)
            self._insert(x, key, key_id, tenant, admin, label, now)
        return IssuedKey(key=key, id=key_id)

    def _insert(self, x: Exec, key: str, key_id: str, tenant: str | None, admin: bool, label: str,
                now: datetime) -> None:
        x.run(f"INSERT INTO {self._t.keys}(hash, id, tenant, admin, label, created_at)"
              " VALUES(:hash, :id, :tenant, :admin, :label, :at)",
              {"hash": hash_key(key), "id": key_id, "tenant": tenant, "admin": admin, "label": label[:LABEL_MAX],
               "at": self._t.stamp(now)})

    @contextmanager
    def temporary_key(self, tenant: str, *, label: str = "temporary") -> Iterator[str]:
        """A key of ``tenant`` that exists only inside the ``with`` block and is then deleted,
        leaving no row (nor a tenant) behind: for a local client beside a server on the same
        data, which could make keys anyway (``pmemo keys create``)."""
        check_id("tenant", tenant)
        key, key_id = new_key()
        with self._link.write() as x:
            self._insert(x, key, key_id, tenant, False, label, datetime.now(UTC))
        try:
            yield key
        finally:
            with self._link.write() as x:
                x.run(f"DELETE FROM {self._t.keys} WHERE id=:id", {"id": key_id})

    def has_key(self, tenant: str) -> bool:
        with self._link.read() as x:
            return x.one(f"SELECT 1 AS found FROM {self._t.keys} WHERE tenant=:tenant AND revoked_at IS NULL"
                         " LIMIT 1", {"tenant": tenant}) is not None

    def keys(self, tenant: str | None = None) -> list[dict[str, Any]]:
        """Every key (revoked ones too), oldest first: id, tenant, admin, label, created_at,
        last_used_at, revoked_at. Never the key itself, nor its hash."""
        where = " WHERE tenant=:tenant" if tenant is not None else ""
        with self._link.read() as x:
            rows = x.rows(f"SELECT {', '.join(COLUMNS)} FROM {self._t.keys}{where} ORDER BY created_at, id",
                          {"tenant": tenant})
        return [self._t.listed(r) for r in rows]

    def revoke(self, key_id: str) -> dict[str, Any]:
        """Revoke one key by its id, at once for every later request; returns it as ``keys``
        lists it. Revoking a revoked key changes nothing; an unknown id raises NotFound."""
        with self._link.write() as x:
            x.run(f"UPDATE {self._t.keys} SET revoked_at=:now WHERE id=:id AND revoked_at IS NULL",
                  {"id": key_id, "now": self._t.stamp(datetime.now(UTC))})
            row = x.one(f"SELECT {', '.join(COLUMNS)} FROM {self._t.keys} WHERE id=:id", {"id": key_id})
        if row is None:
            raise NotFound(f"no API key has the id {key_id!r} (pmemo keys list shows the ids)")
        return self._t.listed(row)

    def verify(self, key: str | None) -> KeyInfo:
        """The tenant (or admin) a key belongs to; raises AuthError if it is missing or wrong
        (Unavailable on PostgreSQL if the database cannot be reached)."""
        digest, env = presented(key, self._env_admin)
        if env is not None:
            return env
        with self._link.read() as x:
            row = x.one(f"SELECT tenant, admin, label, id FROM {self._t.keys} WHERE hash=:hash AND revoked_at IS NULL",
                        {"hash": digest})
        if row is None:
            raise AuthError("unknown or revoked API key")
        self._touch(digest)
        return KeyInfo(tenant=row["tenant"], admin=bool(row["admin"]), label=row["label"], id=row["id"])

    def _touch(self, digest: str) -> None:
        """Note the key's use, at most once per ``TOUCH_EVERY_S`` in this process, and not at
        all when another process or replica noted it that recently: not a write per request."""
        if not self._touches.due(digest):
            return
        now = datetime.now(UTC)
        try:
            with self._link.write() as x:
                x.run(f"UPDATE {self._t.keys} SET last_used_at=:now WHERE hash=:hash"
                      " AND (last_used_at IS NULL OR last_used_at <= :recent)",
                      {"hash": digest, "now": self._t.stamp(now),
                       "recent": self._t.stamp(now - timedelta(seconds=api_keys.TOUCH_EVERY_S))})
        except self._t.busy:  # a missed note is not worth failing a request that was verified
            self._touches.forget(digest)
