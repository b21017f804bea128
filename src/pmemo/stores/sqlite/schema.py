"""SQLite schema, as an ordered list of migrations (user_version counts the applied ones)."""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[str] = [
    """
    CREATE TABLE turns(
        id INTEGER PRIMARY KEY,
        scope_key TEXT NOT NULL, tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        session TEXT NOT NULL, step INTEGER NOT NULL,
        role TEXT NOT NULL, actor TEXT, content TEXT NOT NULL,
        ts REAL NOT NULL, tz TEXT, metadata TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL,
        UNIQUE(scope_key, session, step)
    );
    CREATE INDEX turns_tenant ON turns(tenant, agent, owner);
    CREATE VIRTUAL TABLE turns_fts USING fts5(scope, body, tokenize='unicode61');
    CREATE TABLE vectors(
        kind TEXT NOT NULL, ref INTEGER NOT NULL, scope_key TEXT NOT NULL,
        model TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(kind, ref)
    );
    CREATE INDEX vectors_model ON vectors(kind, model);
    CREATE TABLE embed_cache(key TEXT PRIMARY KEY, vec BLOB NOT NULL);
    CREATE TABLE clusters(
        id INTEGER PRIMARY KEY, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        centroid BLOB NOT NULL, size INTEGER NOT NULL, label TEXT NOT NULL,
        hits REAL NOT NULL DEFAULT 0, hits_at REAL NOT NULL DEFAULT 0,
        promoted INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL
    );
    CREATE INDEX clusters_scope ON clusters(scope_key);
    CREATE TABLE cluster_members(turn_id INTEGER PRIMARY KEY, cluster_id INTEGER NOT NULL);
    CREATE INDEX members_cluster ON cluster_members(cluster_id);
    CREATE TABLE summaries(
        id INTEGER PRIMARY KEY, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, session TEXT NOT NULL,
        step_from INTEGER NOT NULL, step_to INTEGER NOT NULL, text TEXT NOT NULL,
        method TEXT NOT NULL, created REAL NOT NULL
    );
    CREATE INDEX summaries_scope ON summaries(scope_key, session);
    CREATE TABLE key_lines(
        id INTEGER PRIMARY KEY, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        text TEXT NOT NULL, origin TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL
    );
    CREATE INDEX keys_scope ON key_lines(scope_key);
    -- provenance: which turns each derived record came from
    CREATE TABLE sources(kind TEXT NOT NULL, ref INTEGER NOT NULL, turn_id INTEGER NOT NULL,
        PRIMARY KEY(kind, ref, turn_id));
    CREATE INDEX sources_turn ON sources(turn_id);
    CREATE TABLE jobs(
        id INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT, created REAL NOT NULL, updated REAL NOT NULL
    );
    CREATE INDEX jobs_status ON jobs(status, id);
    """,
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply pending migrations in one transaction each; returns the schema version."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise RuntimeError(
            f"database schema version {version} is newer than this pmemo ({len(MIGRATIONS)}); upgrade pmemo"
        )
    for number in range(version, len(MIGRATIONS)):
        conn.executescript("BEGIN;" + MIGRATIONS[number] + f"; PRAGMA user_version={number + 1}; COMMIT;")
    return len(MIGRATIONS)
