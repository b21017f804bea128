"""The forget port on PostgreSQL: what ``stores/forget_sql.py`` leaves to a backend, the
tombstones (row snapshots) and the privacy switches.

A soft forget snapshots every row it is about to delete or rebuild into ``tombstones`` (the row
as jsonb, its provenance, its vector, a cluster's members, an entity's aliases), then runs the
ordinary delete. Restoring puts the snapshots back under their own ids (identity ids are never
handed out twice) through ``jsonb_populate_record``, so a row comes back with every column
its table has, whatever table it is; purging drops the snapshots. The kinds and their tables
are ``forget_sql``'s: both stores forget the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from ...errors import Conflict
from ...ports.forget import Restored
from ..forget_sql import ORDER, TABLES, SQLForget
from ..person_forget import PERSON_KIND, registry_of
from ..sqlite.fts import turn_text
from . import codec, lexical
from .database import Database, connect_error
from .dialect import POSTGRES, PostgresLink
from .person_forget import COLUMNS
from .provenance import SourceRows

# what a scrub vacuums: every table a forget deletes text from, and the snapshots
SCRUBBED = (*dict.fromkeys(TABLES.values()), "tombstones", "entity_aliases", "diaries", "people", "aliases",
            "members")


def _generated(table: str) -> str:
    """The names of ``table``'s generated columns, as SQL (they are made again, not restored)."""
    return (f"ARRAY(SELECT attname::text FROM pg_attribute WHERE attrelid = '{table}'::regclass"
            " AND attgenerated <> '')")


def _capture(kind: str) -> str:
    """One INSERT … SELECT that snapshots the rows of ``kind`` with ids %(refs)s into batch %(batch)s."""
    table = TABLES[kind]
    more = ""
    if kind == "cluster":
        more = (", 'members', COALESCE((SELECT jsonb_agg(m.turn_id ORDER BY m.turn_id) FROM cluster_members m"
                " WHERE m.cluster_id = r.id), '[]')")
    if kind == "entity":  # graph (issue 20): its names go with it
        more = (", 'aliases', COALESCE((SELECT jsonb_agg(jsonb_build_array(a.alias, a.source)) FROM entity_aliases a"
                " WHERE a.entity = r.id), '[]')")
    return ("INSERT INTO tombstones(batch, kind, ref, data) SELECT %(batch)s, %(kind)s, r.id, jsonb_build_object("
            f"'row', to_jsonb(r) - {_generated(table)},"
            " 'sources', COALESCE((SELECT jsonb_agg(s.turn_id ORDER BY s.turn_id) FROM sources s"
            " WHERE s.kind = %(kind)s AND s.ref = r.id), '[]'),"
            f" 'vector', (SELECT to_jsonb(v) FROM vectors v WHERE v.kind = %(kind)s AND v.ref = r.id){more})"
            f" FROM {table} r WHERE r.id = ANY(%(refs)s) ON CONFLICT DO NOTHING")


def registry_tables(cur: psycopg.Cursor[Any]) -> dict[str, set[str]]:
    """The registry's tables and their columns (``person_forget.registry_of``): what a scrub vacuums
    besides the tables a forget of turns deletes from."""
    return registry_of(cur.execute(COLUMNS).fetchall())


class _Columns:
    """The columns each table has (restores look them up once per table)."""

    def __init__(self, cur: psycopg.Cursor[Any]) -> None:
        self._cur = cur
        self._found: dict[str, list[str]] = {}

    def __call__(self, table: str) -> list[str]:
        if table not in self._found:
            rows = self._cur.execute("SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0"
                                     " AND NOT attisdropped AND attgenerated = '' ORDER BY attnum", (table,))
            self._found[table] = [r[0] for r in rows.fetchall()]
        return self._found[table]


def _put_row(cur: psycopg.Cursor[Any], columns: _Columns, table: str, row: dict[str, Any], then: str = "") -> None:
    """Insert a snapshotted row with the columns it has (a column added since takes its default)."""
    names = ", ".join(f'"{c}"' for c in columns(table) if c in row)
    cur.execute(f"INSERT INTO {table}({names}) SELECT {names} FROM jsonb_populate_record(NULL::{table}, %s){then}",
                (Jsonb(row),), binary=True)


class PostgresForget(SQLForget, SourceRows):
    """``put_back_person``: the person-forget port's, which a restore calls in its transaction."""

    def __init__(self, db: Database, put_back_person: Callable[[dict[str, Any]], None]) -> None:
        super().__init__(PostgresLink(db), POSTGRES)
        self._db = db
        self._put_back_person = put_back_person

    def snapshot(self, batch: int, kind: str, refs: Iterable[int]) -> int:
        """Copy rows (with provenance and vector) into the batch's tombstones; returns how many."""
        with self._db.tx() as cur:
            return cur.execute(_capture(kind), {"batch": batch, "kind": kind,
                                                "refs": [int(r) for r in refs]}).rowcount

    def restore_snapshot(self, batch: int) -> list[Restored]:
        """Put a batch's rows back (vectors too, so the store's search has them again), in one
        transaction; returns (kind, ref, scope_key, vector) of each row. A concurrent restore of
        the same batch waits for this one and then finds nothing left."""
        out = []
        with self._db.tx() as cur:
            rows = cur.execute("SELECT kind, ref, data FROM tombstones WHERE batch=%s FOR UPDATE", (batch,)).fetchall()
            columns = _Columns(cur)
            for kind, ref, data in sorted(rows, key=lambda r: (ORDER.index(r[0]), r[1])):
                vector = self._put_back(cur, columns, kind, ref, data)
                out.append((kind, ref, data["vector"]["scope_key"] if vector is not None else "", vector))
            cur.execute("DELETE FROM tombstones WHERE batch=%s", (batch,))
        return out

    def _put_back(self, cur: psycopg.Cursor[Any], columns: _Columns, kind: str, ref: int,
                  data: dict[str, Any]) -> np.ndarray | None:
        """One snapshotted row back in its table, with what went with it; returns its vector."""
        if kind == PERSON_KIND:  # issue 44 §7: the registry rows of a forgotten person (person_forget.py)
            self._put_back_person(data)  # in this transaction: it joins
            return None
        row, table = data["row"], TABLES[kind]
        if kind == "turn":
            taken = cur.execute("SELECT id FROM turns WHERE scope_key=%s AND session=%s AND step=%s AND id<>%s",
                                (row["scope_key"], row["session"], row["step"], ref)).fetchone()
            if taken:
                raise Conflict(f"cannot restore turn {ref}: session {row['session']!r} has a new turn at step"
                               f" {row['step']} (turn {taken[0]}); delete it first")
        cur.execute(f"DELETE FROM {table} WHERE id=%s", (ref,))
        _put_row(cur, columns, table, row)
        self._set_sources(cur, kind, ref, data["sources"])
        if kind == "cluster":
            cur.execute("DELETE FROM cluster_members WHERE cluster_id=%s", (ref,))
            cur.execute("INSERT INTO cluster_members(turn_id, cluster_id) SELECT t, %s FROM unnest(%s::bigint[]) t"
                        " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id", (ref, data["members"]))
        if kind == "entity":  # graph (issue 20): its names back, and name indexes built meanwhile stale
            cur.execute("INSERT INTO entity_aliases(entity, alias, source) SELECT %s, a ->> 0, a ->> 1"
                        " FROM jsonb_array_elements(%s) a ON CONFLICT DO NOTHING", (ref, Jsonb(data["aliases"])))
            cur.execute("INSERT INTO meta(key, value) VALUES(%s, '1')"
                        " ON CONFLICT(key) DO UPDATE SET value = (meta.value::bigint + 1)::text",
                        (f"entities:{row['tenant']}",))
        if kind == "turn":  # its words as today's segmentation makes them; the turn after it gets
            # its words back as context
            cur.execute("UPDATE turns SET words=%s WHERE id=%s", (turn_text(row["content"], row.get("metadata")), ref))
            lexical.reindex(cur, [ref, *lexical.following(cur, [ref])])
        if data["vector"] is None:
            return None
        _put_row(cur, columns, "vectors", data["vector"], " ON CONFLICT(kind, ref) DO UPDATE SET"
                 " scope_key=EXCLUDED.scope_key, model=EXCLUDED.model, vec=EXCLUDED.vec RETURNING vec")
        found = cur.fetchone()
        assert found is not None
        return codec.vector(found[0])

    # ---- privacy -----------------------------------------------------------------------------
    def secure_delete(self) -> None:
        """Nothing to switch on: PostgreSQL has no setting that zeroes freed space (SQLite's
        secure_delete); ``scrub()`` is what clears a hard delete away."""

    def scrub(self) -> None:
        """VACUUM the tables a forget deletes text from: the deleted rows leave the tables and
        their indexes (the tsvector's postings included), so nothing reaches them any more and
        their space is reused. Their bytes may stay on disk until overwritten, and in the WAL
        until it is recycled: where that matters, the disk is encrypted."""
        try:
            with psycopg.connect(self._db.url, autocommit=True) as conn:  # VACUUM runs outside a transaction
                # the people tables too, whichever there are (a person's forget deletes from them)
                tables = dict.fromkeys([*SCRUBBED, *registry_tables(conn.cursor())])
                conn.execute(f"VACUUM {', '.join(tables)}")
        except psycopg.OperationalError as exc:
            raise connect_error(self._db.url, exc) from exc
