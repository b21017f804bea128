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


class SourceRows:
    if TYPE_CHECKING:
        _db: Database

    def _sources(self, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]:
        """The source turns of each of ``refs`` (records of one ``kind``), in one query."""
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

    def _rows_by_id(self, table: str, ids: list[int]) -> list[dict[str, Any]]:
        """The rows of ``table`` with these ids, in ``ids``' order (missing ones left out)."""
        if not ids:
            return []
        rows = {r["id"]: r for r in self._db.dicts(f"SELECT * FROM {table} WHERE id = ANY(%s)",
                                                   ([int(i) for i in ids],))}
        return [rows[i] for i in ids if i in rows]

    def _records(self, kind: str, table: str, ids: list[int],
                 build: Callable[[dict[str, Any], tuple[int, ...]], T]) -> list[T]:
        """Derived records of one ``kind`` by id, each with its source turns, in ``ids``' order,
        in two reads however many."""
        rows = self._rows_by_id(table, ids)
        sources = self._sources(kind, [r["id"] for r in rows])
        return [build(r, sources.get(r["id"], ())) for r in rows]
