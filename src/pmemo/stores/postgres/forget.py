"""Forgetting on PostgreSQL: batches, the action log, tombstones, soft deletes (the forgetting
part of ProfileStoreProtocol, a mixin of ``PostgresStore``).

A soft forget snapshots every row it is about to delete or rebuild into ``tombstones`` (the row
as jsonb, its provenance, its vector, a cluster's members, an entity's aliases), then runs the
ordinary delete. Restoring puts the snapshots back under their own ids (identity ids are never
handed out twice) through ``jsonb_populate_record``, so a row comes back with every column
its table has, whatever table it is; purging drops the snapshots. The kinds and their tables
are SQLite's (``sqlite.forget_store``): both stores forget the same rows.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from ...errors import Conflict
from ...ports.person_forget import PersonForgetPort
from ..person_forget import PERSON_KIND, registry_of
from ..sqlite.forget_store import ORDER, SOFT, TABLES
from ..sqlite.fts import turn_text
from . import codec, lexical
from .database import connect_error
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


class ForgetRows(SourceRows):
    if TYPE_CHECKING:
        person_forget: PersonForgetPort

    # ---- tombstones (the batches and their log are a port: ``stores/batches_sql.py``) ----------
    def snapshot(self, batch: int, kind: str, refs: Iterable[int]) -> int:
        """Copy rows (with provenance and vector) into the batch's tombstones; returns how many."""
        with self._db.tx() as cur:
            return cur.execute(_capture(kind), {"batch": batch, "kind": kind,
                                                "refs": [int(r) for r in refs]}).rowcount

    def restore_snapshot(self, batch: int) -> list[tuple[str, int, str, np.ndarray | None]]:
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
            self.person_forget.put_back_person(data)  # in this transaction: it joins
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

    def purge_batch(self, batch: int) -> int:
        """Drop a batch's tombstones and the rows it soft-deleted: the forget becomes permanent."""
        with self._db.tx() as cur:
            count = cur.execute("DELETE FROM tombstones WHERE batch=%s", (batch,)).rowcount
            soft: dict[str, list[int]] = {}
            for kind, ref in cur.execute("SELECT kind, ref FROM forget_log WHERE batch=%s AND action='soft_delete'",
                                         (batch,)).fetchall():
                if kind in SOFT:
                    soft.setdefault(kind, []).append(ref)
            for kind, refs in soft.items():
                count += cur.execute(f"DELETE FROM {TABLES[kind]} WHERE id = ANY(%s) AND deleted IS NOT NULL",
                                     (refs,)).rowcount
                cur.execute("DELETE FROM sources WHERE kind=%s AND ref = ANY(%s)", (kind, refs))
                cur.execute("DELETE FROM vectors WHERE kind=%s AND ref = ANY(%s)", (kind, refs))
            cur.execute("UPDATE forget_batches SET status='purged' WHERE id=%s", (batch,))
        return count

    # ---- soft delete by column (sweeper) ------------------------------------------------------
    def soft_delete(self, kind: str, ids: list[int], reason: str) -> None:
        with self._db.tx() as cur:
            cur.execute(f"UPDATE {TABLES[kind]} SET deleted=%s, deleted_reason=%s WHERE id = ANY(%s)"
                        " AND deleted IS NULL", (time.time(), reason, [int(i) for i in ids]))

    def undelete(self, kind: str, ids: list[int]) -> None:
        with self._db.tx() as cur:
            cur.execute(f"UPDATE {TABLES[kind]} SET deleted=NULL, deleted_reason=NULL WHERE id = ANY(%s)",
                        ([int(i) for i in ids],))

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
