"""Diary entries on PostgreSQL, one per owner scope and local day (DiaryStore, a mixin), and
what the diary schedule reads and writes. An entry, its source turns and its vector are written
in one transaction, so a job that fails midway leaves the day as it was, and a re-run replaces
the entry (upsert)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from ...models import Diary, Scope, Turn
from ..base import TurnStamp, Waiting
from . import codec
from .provenance import SourceRows


def _diary(row: dict[str, Any], sources: tuple[int, ...]) -> Diary:
    return Diary(row["id"], codec.scope_of(row), date.fromisoformat(row["day"]), row["text"], row["method"],
                 sources, codec.utc(row["created"]), codec.utc(row["updated"]))


class DiaryRows(SourceRows):
    def put_diary(self, scope: Scope, day: date, text: str, method: str, source_ids: list[int],
                  vector: np.ndarray, model: str) -> Diary:
        """Write the day's entry, or replace it (same id), with its sources and vector."""
        now = time.time()
        with self._db.tx() as cur:
            row = cur.execute(
                "INSERT INTO diaries(scope_key, tenant, agent, owner, day, text, method, created, updated)"
                " VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT(tenant, agent, owner, day) DO UPDATE SET"
                " text=EXCLUDED.text, method=EXCLUDED.method, updated=EXCLUDED.updated RETURNING id",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, day.isoformat(), text, method, now,
                 now)).fetchone()
            assert row is not None
            ref = int(row[0])
            self._set_sources(cur, "diary", ref, source_ids)
            cur.execute("INSERT INTO vectors(kind, ref, scope_key, model, vec) VALUES('diary',%s,%s,%s,%s)"
                        " ON CONFLICT(kind, ref) DO UPDATE SET scope_key=EXCLUDED.scope_key, model=EXCLUDED.model,"
                        " vec=EXCLUDED.vec", (ref, scope.key, model, codec.f32(vector)))
        found = self.get_diaries([ref]).get(ref)
        assert found is not None
        return found

    def get_diary(self, scope: Scope, day: date) -> Diary | None:
        rows = self._db.dicts("SELECT * FROM diaries WHERE scope_key=%s AND day=%s", (scope.key, day.isoformat()))
        return self._diaries_of(rows, True)[0] if rows else None

    def diaries(self, scope: Scope, start: date | None = None, end: date | None = None,
                sources: bool = True) -> list[Diary]:
        """The scope's entries from ``start`` to ``end`` (inclusive, either open), oldest first;
        ``sources=False`` leaves ``source_ids`` empty (a day has hundreds: ranking needs none)."""
        sql, args = "SELECT * FROM diaries WHERE scope_key=%s", [scope.key]
        if start is not None:
            sql, args = sql + " AND day>=%s", [*args, start.isoformat()]
        if end is not None:
            sql, args = sql + " AND day<=%s", [*args, end.isoformat()]
        return self._diaries_of(self._db.dicts(sql + " ORDER BY day", args), sources)

    def get_diaries(self, ids: Iterable[int], sources: bool = True) -> dict[int, Diary]:
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if sources:
            return {d.id: d for d in self._records("diary", "diaries", wanted, _diary)}
        return {d.id: d for d in self._diaries_of(self._rows_by_id("diaries", wanted), False)}

    def _diaries_of(self, rows: list[dict[str, Any]], sources: bool) -> list[Diary]:
        found = self._sources("diary", [r["id"] for r in rows]) if sources and rows else {}
        return [_diary(r, found.get(r["id"], ())) for r in rows]

    def diaries_with(self, turn_ids: list[int]) -> list[Diary]:
        """Entries written from any of these turns (also once the turns are deleted)."""
        return list(self.get_diaries(self._refs_with("diary", turn_ids)).values()) if turn_ids else []

    def delete_diary(self, diary_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM diaries WHERE id=%s", (diary_id,))
            cur.execute("DELETE FROM sources WHERE kind='diary' AND ref=%s", (diary_id,))
            cur.execute("DELETE FROM vectors WHERE kind='diary' AND ref=%s", (diary_id,))

    def stale_diaries(self, model: str) -> list[int]:
        """Entries with no vector of ``model`` (the embedder changed since they were written)."""
        rows = self._db.rows("SELECT d.id FROM diaries d LEFT JOIN vectors v ON v.kind='diary' AND v.ref=d.id"
                             " WHERE v.model IS NULL OR v.model<>%s ORDER BY d.id", (model,))
        return [r[0] for r in rows]

    # ---- what the schedule reads -------------------------------------------------------------
    def day_turns(self, scope: Scope, start: float, end: float) -> list[Turn]:
        """The scope's turns from ``start`` (epoch seconds, included) to ``end`` (excluded), in time order."""
        rows = self._db.rows(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=%s AND ts>=%s AND ts<%s"
                             " ORDER BY ts, session, step", (scope.key, start, end))
        return [codec.turn(r) for r in rows]

    def turns_after(self, turn_id: int, limit: int) -> list[TurnStamp]:
        """Turns with an id above ``turn_id``, by id: the ones stored since a scan."""
        rows = self._db.rows("SELECT id, tenant, agent, owner, ts, role FROM turns WHERE id>%s ORDER BY id LIMIT %s",
                             (turn_id, limit))
        return [TurnStamp(*r) for r in rows]

    def diary_queued(self, payload: dict[str, Any]) -> bool:
        """Whether a diary job for this payload waits or runs already."""
        row = self._db.one("SELECT 1 FROM jobs WHERE kind='diary' AND status IN ('pending','running')"
                           " AND md5(payload::text) = md5(%(p)s::jsonb::text) AND payload = %(p)s LIMIT 1",
                           {"p": Jsonb(payload)})
        return row is not None

    def queue_diaries(self, payloads: list[dict[str, Any]], mark_key: str, mark: int,
                      waiting: Sequence[Waiting] = (), ripe: Sequence[Waiting] = ()) -> None:
        """Queue diary jobs, move the schedule's mark past the turns read, note the days not due
        yet and drop the ones that came due: together, so a crash between them loses no day."""
        with self._db.tx() as cur:
            cur.executemany("INSERT INTO jobs(kind, payload) VALUES('diary', %s)", [(Jsonb(p),) for p in payloads])
            cur.execute("INSERT INTO meta(key, value) VALUES(%s,%s) ON CONFLICT(key)"
                        " DO UPDATE SET value=EXCLUDED.value", (mark_key, str(mark)))
            cur.executemany(
                "INSERT INTO diary_waiting(tenant, agent, owner, day, due, last) VALUES(%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT(tenant, agent, owner, day) DO UPDATE SET due=EXCLUDED.due,"
                " last=GREATEST(diary_waiting.last, EXCLUDED.last)", sorted(waiting))
            cur.executemany("DELETE FROM diary_waiting WHERE tenant=%s AND agent=%s AND owner=%s AND day=%s"
                            " AND last<=%s", [(w.tenant, w.agent, w.owner, w.day, w.last) for w in ripe])

    def diaries_waiting(self, until: float) -> list[Waiting]:
        rows = self._db.rows("SELECT tenant, agent, owner, day, due, last FROM diary_waiting WHERE due<=%s"
                             " ORDER BY due, tenant, agent, owner, day", (until,))
        return [Waiting(*r) for r in rows]

    def next_waiting(self) -> float | None:
        row = self._db.one("SELECT MIN(due) FROM diary_waiting")
        return None if row is None or row[0] is None else float(row[0])
