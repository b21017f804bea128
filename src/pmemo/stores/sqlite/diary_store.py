"""SQLite rows for diary entries (one per owner scope and local day): a mixin ``SQLiteStore``
inherits. An entry, its source turns and its vector are written in one transaction, so a job
that fails midway leaves the day as it was, and a re-run replaces the entry (upsert)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from ...models import Diary, Scope, Turn
from ..base import TurnStamp, Waiting
from . import codec


def _diary(row: sqlite3.Row, sources: tuple[int, ...]) -> Diary:
    return Diary(row["id"], codec.scope_of(row), date.fromisoformat(row["day"]), row["text"], row["method"],
                 sources, codec.utc(row["created"]), codec.utc(row["updated"]))


class DiaryRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _select_in(self, sql: str, args: list[Any], values: list[Any]) -> Iterator[sqlite3.Row]: ...
        def _sources(self, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]: ...
        def _refs_with(self, kind: str, turn_ids: list[int]) -> list[int]: ...

        @staticmethod
        def _set_sources(conn: sqlite3.Connection, kind: str, ref: int, turn_ids: Iterable[int]) -> None: ...

    def put_diary(self, scope: Scope, day: date, text: str, method: str, source_ids: list[int],
                  vector: np.ndarray, model: str) -> Diary:
        """Write the day's entry, or replace it (same id), with its sources and vector."""
        now = time.time()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO diaries(scope_key, tenant, agent, owner, day, text, method, created, updated)"
                " VALUES(?,?,?,?,?,?,?,?,?) ON CONFLICT(tenant, agent, owner, day) DO UPDATE SET"
                " text=excluded.text, method=excluded.method, updated=excluded.updated",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, day.isoformat(), text, method, now, now))
            ref = conn.execute("SELECT id FROM diaries WHERE tenant=? AND agent=? AND owner=? AND day=?",
                               (scope.tenant_id, scope.agent_id, scope.owner, day.isoformat())).fetchone()[0]
            self._set_sources(conn, "diary", ref, source_ids)
            conn.execute("INSERT OR REPLACE INTO vectors(kind, ref, scope_key, model, vec) VALUES('diary',?,?,?,?)",
                         (ref, scope.key, model, codec.blob(vector)))
        found = self.get_diaries([ref]).get(ref)
        assert found is not None
        return found

    def get_diary(self, scope: Scope, day: date) -> Diary | None:
        row = self._read.execute("SELECT * FROM diaries WHERE scope_key=? AND day=?",
                                 (scope.key, day.isoformat())).fetchone()
        return None if row is None else _diary(row, self._sources("diary", [row["id"]]).get(row["id"], ()))

    def diaries(self, scope: Scope, start: date | None = None, end: date | None = None,
                sources: bool = True) -> list[Diary]:
        """The scope's entries from ``start`` to ``end`` (inclusive, either open), oldest first;
        ``sources=False`` leaves ``source_ids`` empty (a day has hundreds: ranking needs none)."""
        sql, args = "SELECT * FROM diaries WHERE scope_key=?", [scope.key]
        if start is not None:
            sql, args = sql + " AND day>=?", [*args, start.isoformat()]
        if end is not None:
            sql, args = sql + " AND day<=?", [*args, end.isoformat()]
        rows = self._read.execute(sql + " ORDER BY day", args).fetchall()
        found = self._sources("diary", [r["id"] for r in rows]) if sources else {}
        return [_diary(r, found.get(r["id"], ())) for r in rows]

    def get_diaries(self, ids: Iterable[int], sources: bool = True) -> dict[int, Diary]:
        return self._diaries(ids, sources)

    def _diaries(self, ids: Iterable[int], sources: bool = True) -> dict[int, Diary]:
        rows = list(self._select_in("SELECT * FROM diaries WHERE id IN ({})", [], list(dict.fromkeys(ids))))
        found = self._sources("diary", [r["id"] for r in rows]) if sources else {}
        return {r["id"]: _diary(r, found.get(r["id"], ())) for r in rows}

    def diaries_with(self, turn_ids: list[int]) -> list[Diary]:
        """Entries written from any of these turns (also once the turns are deleted)."""
        return list(self.get_diaries(self._refs_with("diary", turn_ids)).values()) if turn_ids else []

    def delete_diary(self, diary_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM diaries WHERE id=?", (diary_id,))
            conn.execute("DELETE FROM sources WHERE kind='diary' AND ref=?", (diary_id,))
            conn.execute("DELETE FROM vectors WHERE kind='diary' AND ref=?", (diary_id,))

    def stale_diaries(self, model: str) -> list[int]:
        """Entries with no vector of ``model`` (the embedder changed since they were written)."""
        rows = self._read.execute(
            "SELECT d.id FROM diaries d LEFT JOIN vectors v ON v.kind='diary' AND v.ref=d.id"
            " WHERE v.model IS NULL OR v.model<>?", (model,))
        return [r[0] for r in rows]

    # ---- what the schedule reads -------------------------------------------------------------
    def day_turns(self, scope: Scope, start: float, end: float) -> list[Turn]:
        """The scope's turns from ``start`` (epoch seconds, included) to ``end`` (excluded), in time order."""
        rows = self._read.execute(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=? AND ts>=? AND ts<?"
                                  " ORDER BY ts, session, step", (scope.key, start, end))
        return [codec.turn(r) for r in rows]

    def turns_after(self, turn_id: int, limit: int) -> list[TurnStamp]:
        """Turns with an id above ``turn_id``, by id: the ones stored since a scan."""
        rows = self._read.execute("SELECT id, tenant, agent, owner, ts, role FROM turns WHERE id>? ORDER BY id"
                                  " LIMIT ?", (turn_id, limit))
        return [TurnStamp(*r) for r in rows]

    def diary_queued(self, payload: dict[str, Any]) -> bool:
        """Whether a diary job for this payload waits or runs already."""
        row = self._read.execute("SELECT 1 FROM jobs WHERE kind='diary' AND status IN ('pending','running')"
                                 " AND payload=? LIMIT 1", (json.dumps(payload),)).fetchone()
        return row is not None

    def queue_diaries(self, payloads: list[dict[str, Any]], mark_key: str, mark: int,
                      waiting: Sequence[Waiting] = (), ripe: Sequence[Waiting] = ()) -> None:
        """Queue diary jobs, move the schedule's mark past the turns read, note the days not due
        yet and drop the ones that came due: together, so a crash between them loses no day."""
        now = time.time()
        with self._tx() as conn:
            conn.executemany("INSERT INTO jobs(kind, payload, created, updated) VALUES('diary', ?, ?, ?)",
                             [(json.dumps(p), now, now) for p in payloads])
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?,?)", (mark_key, str(mark)))
            conn.executemany("INSERT INTO diary_waiting(tenant, agent, owner, day, due, last) VALUES(?,?,?,?,?,?)"
                             " ON CONFLICT DO UPDATE SET due=excluded.due, last=max(last, excluded.last)", waiting)
            conn.executemany("DELETE FROM diary_waiting WHERE tenant=? AND agent=? AND owner=? AND day=? AND last<=?",
                             [(w.tenant, w.agent, w.owner, w.day, w.last) for w in ripe])

    def diaries_waiting(self, until: float) -> list[Waiting]:
        rows = self._read.execute("SELECT tenant, agent, owner, day, due, last FROM diary_waiting WHERE due<=?"
                                  " ORDER BY due", (until,))
        return [Waiting(*r) for r in rows]

    def next_waiting(self) -> float | None:
        row = self._read.execute("SELECT MIN(due) FROM diary_waiting").fetchone()
        return None if row[0] is None else float(row[0])
