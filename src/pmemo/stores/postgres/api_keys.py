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

from datetime import UTC, datetime

from ...errors import StoreError
from ..api_keys import KeyRows
from ..api_keys_sql import KeyTables, SQLKeyStore
from .database import Database, lock_key
from .dialect import PostgresLink
from .migrate import migrate

POOL_SIZE = 4  # a verify is one short read; the memory store has its own pool
_ADOPT_LOCK = lock_key("pmemo", "api_keys", "adopt")


def _iso(when: datetime | None) -> str | None:
    """A time as the SQLite key store writes it: ISO 8601 in UTC."""
    return None if when is None else when.astimezone(UTC).isoformat()


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


# timestamptz; busy: the database cannot be reached (a missed note of a key's use)
TABLES = KeyTables("api_tenants", "api_keys", lambda when: when, _iso, (StoreError,))


class PostgresKeyStore(SQLKeyStore):
    """Tenants and hashed API keys in the database of a PostgreSQL store (thread-safe)."""

    def __init__(self, db: Database, *, admin_key: str | None = None) -> None:
        self._db = db
        super().__init__(PostgresLink(db), TABLES, admin_key)

    @classmethod
    def open(cls, url: str, *, admin_key: str | None = None) -> PostgresKeyStore:
        """The key store of the database at ``url``, migrated first (as ``PostgresStore.open``)."""
        migrate(url)
        return cls(Database(url, max_size=POOL_SIZE), admin_key=admin_key)

    def close(self) -> None:
        self._db.close()

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
