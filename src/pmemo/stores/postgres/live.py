"""Reads of records that a soft delete hides (facts, episodes): a row with ``deleted`` set is
left out of every read until it is undeleted or purged (forget.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .provenance import SourceRows

T = TypeVar("T")


class LiveRows(SourceRows):
    def _live(self, kind: str, table: str, ids: Sequence[int],
              build: Callable[[dict[str, Any], tuple[int, ...]], T]) -> list[T]:
        """The live records of one ``kind`` with these ids, each with its source turns, in ``ids``'
        order, in two reads however many."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            return []  # no round trip for nothing
        rows = {r["id"]: r for r in self._db.dicts(f"SELECT * FROM {table} WHERE id = ANY(%s) AND deleted IS NULL",
                                                   (wanted,))}
        return self._built(kind, [rows[i] for i in wanted if i in rows], build)

    def _live_where(self, kind: str, sql: str, args: Sequence[Any],
                    build: Callable[[dict[str, Any], tuple[int, ...]], T]) -> list[T]:
        """The records of one ``kind`` that ``sql`` reads (it leaves the deleted out), in its order,
        each with its source turns."""
        return self._built(kind, self._db.dicts(sql, args), build)

    def _built(self, kind: str, rows: list[dict[str, Any]],
               build: Callable[[dict[str, Any], tuple[int, ...]], T]) -> list[T]:
        sources = self._sources(kind, [r["id"] for r in rows])
        return [build(r, sources.get(r["id"], ())) for r in rows]
