"""Versioned SQL migrations: ``migrations/NNNN_name.sql``, applied in order, each once.

``schema_migrations`` records each file applied. The whole run holds a session advisory lock,
so two processes that start together apply the files one after the other: the second finds
nothing left to do. After the files, the lexical index is rebuilt if ``segment()`` changed
(``lexical.ensure_current``), under the same lock.
"""

from __future__ import annotations

import re
import time
from importlib import resources
from typing import NamedTuple

import psycopg

from ...errors import StoreError
from . import lexical
from .database import connect_error, lock_key

MIGRATION_LOCK = lock_key("pmemo", "migrate")
_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class Migration(NamedTuple):
    version: int
    name: str  # the file name
    sql: str


def migrations() -> list[Migration]:
    """The migration files shipped with pmemo, in order."""
    folder = resources.files(__package__).joinpath("migrations")
    found = [Migration(int(m.group(1)), f.name, f.read_text("utf-8"))
             for f in folder.iterdir() if (m := _FILE.match(f.name))]
    return sorted(found)


def migrate(url: str) -> list[str]:
    """Apply the migrations the database at ``url`` lacks; returns the files applied."""
    try:
        conn = psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as exc:
        raise connect_error(url, exc) from exc
    with conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            applied = _apply(conn)
            lexical.ensure_current(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return applied


def _apply(conn: psycopg.Connection) -> list[str]:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations(version integer PRIMARY KEY,"
                 " name text NOT NULL, applied double precision NOT NULL)")
    done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
    known = migrations()
    if done and max(done) > known[-1].version:
        raise StoreError(f"the database's schema (migration {max(done)}) is newer than this pmemo's"
                         f" ({known[-1].version}); upgrade pmemo")
    applied = []
    for migration in known:
        if migration.version in done:
            continue
        with conn.transaction():
            conn.execute(migration.sql.encode())  # several statements, no parameters
            conn.execute("INSERT INTO schema_migrations(version, name, applied) VALUES(%s, %s, %s)",
                         (migration.version, migration.name, time.time()))
        applied.append(migration.name)
    return applied
