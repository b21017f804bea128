"""Provenance on PostgreSQL: which turns each derived record came from (the ``sources`` table).

A mixin of helpers the derived-record mixins (clusters, summaries, key lines, and later
facts, episodes, diaries…) share: read a kind's sources for many records at once, replace a
record's, find the records a set of turns feeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg

from .database import Database

T = TypeVar("T")
# a row's source turns in the read of the row itself (its table aliased t; the kind is the
# first parameter): one round trip where a second query by ref took another
WITH_SOURCES = "t.*, ARRAY(SELECT turn_id FROM sources s WHERE s.kind=%s AND s.ref=t.id ORDER BY turn_id) AS source_ids"


class SourceRows:
    if TYPE_CHECKING:
        _db: Database

    def _sources(self, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]:
        """The source turns of each of ``refs`` (records of one ``kind``), in one query."""
        if not refs:
            return {}  # no round trip for nothing
        found: dict[int, list[int]] = {}
        for ref, turn_id in self._db.rows("SELECT ref, turn_id FROM sources WHERE kind=%s AND ref = ANY(%s)"
                                          " ORDER BY turn_id", (kind, refs)):
            found.setdefault(ref, []).append(turn_id)
        return {ref: tuple(ids) for ref, ids in found.items()}

    @staticmethod
    def _set_sources(cur: psycopg.Cursor[Any], kind: str, ref: int, turn_ids: Iterable[int]) -> None:
        cur.execute("DELETE FROM sources WHERE kind=%s AND ref=%s", (kind, ref))
        cur.execute("INSERT INTO sources(kind, ref, turn_id) SELECT %s, %s, t FROM unnest(%s::bigint[]) t"
                    " ON CONFLICT DO NOTHING", (kind, ref, [int(t) for t in turn_ids]))

    def _refs_with(self, kind: str, turn_ids: list[int]) -> list[int]:
        rows = self._db.rows("SELECT DISTINCT ref FROM sources WHERE kind=%s AND turn_id = ANY(%s)",
                             (kind, [int(t) for t in turn_ids]))
        return [r[0] for r in rows]

    def _rows_by_id(self, table: str, ids: list[int], kind: str | None = None) -> list[dict[str, Any]]:
        """The rows of ``table`` with these ids, in ``ids``' order (missing ones left out); with
        the ``kind`` of record they are, each with its ``source_ids`` (``WITH_SOURCES``)."""
        if not ids:
            return []
        sql = f"SELECT {WITH_SOURCES if kind else 't.*'} FROM {table} t WHERE t.id = ANY(%s)"
        args = ([int(i) for i in ids],)
        rows = {r["id"]: r for r in self._db.dicts(sql, (kind, *args) if kind else args)}
        return [rows[i] for i in ids if i in rows]

    def _records(self, kind: str, table: str, ids: list[int],
                 build: Callable[[dict[str, Any], tuple[int, ...]], T]) -> list[T]:
        """Derived records of one ``kind`` by id, each with its source turns, in ``ids``' order,
        in one read however many."""
        return [build(r, tuple(r.pop("source_ids"))) for r in self._rows_by_id(table, ids, kind)]
