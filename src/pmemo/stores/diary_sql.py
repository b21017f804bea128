"""The diary port (``ports.diary.DiaryPort``) in SQL, written once for SQLite and Postgres.

An entry, its source turns and its vector are written in one transaction, so a job that fails
midway leaves the day as it was, and a re-run replaces the entry (upsert, same id). What the
backends spell apart is the ``Dialect`` (a JSON parameter, a jsonb payload compared by its
index) and how a vector is stored, which each store passes in (``vector``: SQLite's blob,
pgvector's float32 array).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Any

from ..models import Diary, Scope, Turn
from ..ports.diary import NewDiary, TurnStamp, Waiting
from .sql import Dialect, Exec, Link, Row, drop, refs_with, set_sources, with_sources
from .sqlite.codec import TURN_COLUMNS, TURN_FIELDS, turn

_SCHEDULE = "SELECT tenant, agent, owner, day, due, last FROM diary_waiting"
_DAY_TURNS = f"SELECT {TURN_COLUMNS} FROM turns WHERE scope_key=:key AND ts>=:start AND ts<:end"
_PUT = ("INSERT INTO diaries(scope_key, tenant, agent, owner, day, text, method, created, updated) VALUES {rows}"
        " ON CONFLICT(tenant, agent, owner, day) DO UPDATE SET text=excluded.text, method=excluded.method,"
        " updated=excluded.updated RETURNING id, created, tenant, agent, owner, day")
_VECTOR = ("INSERT INTO vectors(kind, ref, scope_key, model, vec) VALUES('diary', :ref, :key, :model, :vec)"
           " ON CONFLICT(kind, ref) DO UPDATE SET scope_key=excluded.scope_key, model=excluded.model, vec=excluded.vec")
CHUNK = 200  # entries (or days read) a statement takes: 9 parameters each, below SQLite's 32,766


def diary_of(row: Row, sources: tuple[int, ...]) -> Diary:
    return Diary(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), date.fromisoformat(row["day"]),
                 row["text"], row["method"], sources, datetime.fromtimestamp(row["created"], UTC),
                 datetime.fromtimestamp(row["updated"], UTC))


def _waiting(row: Row) -> Waiting:
    return Waiting(row["tenant"], row["agent"], row["owner"], row["day"], float(row["due"]), int(row["last"]))


class SQLDiary:
    """``DiaryPort`` over a backend's ``Link`` in its ``Dialect``; ``vector`` makes a stored vector."""

    def __init__(self, link: Link, dialect: Dialect, vector: Callable[[Any], Any]) -> None:
        self._link = link
        self._d = dialect
        self._vector = vector

    def put_diary(self, scope: Scope, day: date, text: str, method: str, source_ids: list[int],
                  vector: Any, model: str) -> Diary:
        now, d = time.time(), self._d
        args = {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                "day": day.isoformat(), "text": text, "method": method, "now": now}
        with self._link.write() as x:
            row = x.one("INSERT INTO diaries(scope_key, tenant, agent, owner, day, text, method, created, updated)"
                        " VALUES(:key, :tenant, :agent, :owner, :day, :text, :method, :now, :now)"
                        " ON CONFLICT(tenant, agent, owner, day) DO UPDATE SET text=excluded.text,"
                        " method=excluded.method, updated=excluded.updated RETURNING id, created", args)
            assert row is not None
            ref = int(row["id"])
            set_sources(x, d, "diary", ref, source_ids)
            x.run(_VECTOR, {"ref": ref, "key": scope.key, "model": model, "vec": self._vector(vector)})
        # built from what was written, not read back (a read of the entry and its hundreds of
        # sources cost a transaction per entry): the sources as ``sources_of`` gives them
        return diary_of({**args, "id": ref, "created": row["created"], "updated": now},
                        tuple(sorted({int(t) for t in source_ids})))

    def put_diaries(self, new: Sequence[NewDiary], model: str) -> list[Diary]:
        if not new:
            return []
        now, d = time.time(), self._d
        with self._link.write() as x:
            out = [e for start in range(0, len(new), CHUNK)
                   for e in self._upserted(x, new[start : start + CHUNK], now)]
            x.run(f"DELETE FROM sources WHERE kind='diary' AND {d.in_('ref', 'refs')}",
                  {"refs": d.ids(e.id for e in out)})
            x.many("INSERT INTO sources(kind, ref, turn_id) VALUES('diary', :ref, :turn) ON CONFLICT DO NOTHING",
                   [{"ref": e.id, "turn": t} for e in out for t in e.source_ids])
            x.many(_VECTOR, [{"ref": e.id, "key": e.scope.key, "model": model, "vec": self._vector(n.vector)}
                             for e, n in zip(out, new, strict=True)])
        return out

    def _upserted(self, x: Exec, new: Sequence[NewDiary], now: float) -> list[Diary]:
        """``new``'s entries (each a different day) written in one statement, as ``put_diary``
        returns them (built from what was written), in ``new``'s order."""
        if not new:
            return []
        rows: list[str] = []
        args: dict[str, Any] = {"now": now}
        for i, e in enumerate(new):
            rows.append(f"(:key{i}, :tenant{i}, :agent{i}, :owner{i}, :day{i}, :text{i}, :method{i}, :now, :now)")
            args.update({f"key{i}": e.scope.key, f"tenant{i}": e.scope.tenant_id, f"agent{i}": e.scope.agent_id,
                         f"owner{i}": e.scope.owner, f"day{i}": e.day.isoformat(), f"text{i}": e.text,
                         f"method{i}": e.method})
        found = {(r["tenant"], r["agent"], r["owner"], r["day"]): r
                 for r in x.rows(_PUT.format(rows=", ".join(rows)), args)}
        out = []
        for i, e in enumerate(new):
            r = found[(e.scope.tenant_id, e.scope.agent_id, e.scope.owner, e.day.isoformat())]
            out.append(diary_of({**{name: args[f"{name}{i}"] for name in ("tenant", "agent", "owner", "day", "text",
                                                                           "method")},
                                 "id": int(r["id"]), "created": r["created"], "updated": now},
                                tuple(sorted({int(t) for t in e.source_ids}))))
        return out

    def diaries_on(self, days: Sequence[tuple[Scope, date]]) -> dict[tuple[str, date], Diary]:
        if not days:
            return {}
        d, wanted = self._d, {(s.key, day) for s, day in days}
        with self._link.read() as x:
            rows = x.rows(f"SELECT * FROM diaries WHERE {d.in_('scope_key', 'keys', 'text')}"
                          f" AND {d.in_('day', 'days', 'text')}",
                          {"keys": d.texts({s.key for s, _ in days}),
                           "days": d.texts({day.isoformat() for _, day in days})})
        found = [diary_of(r, ()) for r in rows]
        return {(e.scope.key, e.day): e for e in found if (e.scope.key, e.day) in wanted}

    def get_diary(self, scope: Scope, day: date) -> Diary | None:
        with self._link.read() as x:
            found = self._built(x, x.rows("SELECT * FROM diaries WHERE scope_key=:key AND day=:day",
                                          {"key": scope.key, "day": day.isoformat()}), True)
        return found[0] if found else None

    def diaries(self, scope: Scope, start: date | None = None, end: date | None = None,
                sources: bool = True) -> list[Diary]:
        sql = ("SELECT * FROM diaries WHERE scope_key=:key" + (" AND day>=:start" if start is not None else "")
               + (" AND day<=:end" if end is not None else "") + " ORDER BY day")
        with self._link.read() as x:
            rows = x.rows(sql, {"key": scope.key, "start": start and start.isoformat(), "end": end and end.isoformat()})
            return self._built(x, rows, sources)

    def get_diaries(self, ids: Iterable[int], sources: bool = True) -> dict[int, Diary]:
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            return {}
        with self._link.read() as x:
            rows = x.rows(f"SELECT * FROM diaries WHERE {self._d.in_('id', 'ids')}", {"ids": self._d.ids(wanted)})
            return {d.id: d for d in self._built(x, rows, sources)}

    def _built(self, x: Exec, rows: Sequence[Row], sources: bool) -> list[Diary]:
        return with_sources(x, self._d, "diary", rows, diary_of) if sources else [diary_of(r, ()) for r in rows]

    def diaries_with(self, turn_ids: list[int]) -> list[Diary]:
        if not turn_ids:
            return []
        with self._link.read() as x:
            refs = refs_with(x, self._d, "diary", turn_ids)
        return list(self.get_diaries(refs).values())

    def delete_diary(self, diary_id: int) -> None:
        with self._link.write() as x:
            drop(x, "diaries", "diary", diary_id, vector=True)

    def stale_diaries(self, model: str) -> list[int]:
        with self._link.read() as x:
            rows = x.rows("SELECT d.id FROM diaries d LEFT JOIN vectors v ON v.kind='diary' AND v.ref=d.id"
                          " WHERE v.model IS NULL OR v.model<>:model ORDER BY d.id", {"model": model})
        return [int(r["id"]) for r in rows]

    # ---- what the schedule reads and writes ---------------------------------------------------
    def day_turns(self, scope: Scope, start: float, end: float) -> list[Turn]:
        with self._link.read() as x:
            rows = x.rows(_DAY_TURNS + " ORDER BY ts, session, step", {"key": scope.key, "start": start, "end": end})
        return [turn(tuple(r[c] for c in TURN_FIELDS)) for r in rows]

    def days_turns(self, days: Sequence[tuple[Scope, float, float]]) -> list[list[Turn]]:
        out: list[list[Turn]] = [[] for _ in days]
        with self._link.read() as x:
            for start in range(0, len(days), CHUNK):
                part, args = days[start : start + CHUNK], {}
                selects = []
                for i, (scope, begin, end) in enumerate(part):
                    selects.append(f"SELECT {start + i} AS day_of, {TURN_COLUMNS} FROM turns WHERE scope_key=:key{i}"
                                   f" AND ts>=:start{i} AND ts<:end{i}")
                    args.update({f"key{i}": scope.key, f"start{i}": begin, f"end{i}": end})
                for r in x.rows(" UNION ALL ".join(selects) + " ORDER BY day_of, ts, session, step", args):
                    out[r["day_of"]].append(turn(tuple(r[c] for c in TURN_FIELDS)))
        return out

    def turns_after(self, turn_id: int, limit: int) -> list[TurnStamp]:
        with self._link.read() as x:
            rows = x.rows("SELECT id, tenant, agent, owner, ts, role FROM turns WHERE id>:id ORDER BY id LIMIT :n",
                          {"id": turn_id, "n": limit})
        return [TurnStamp(r["id"], r["tenant"], r["agent"], r["owner"], r["ts"], r["role"]) for r in rows]

    def diary_queued(self, payload: dict[str, Any]) -> bool:
        with self._link.read() as x:
            row = x.one("SELECT 1 AS queued FROM jobs WHERE kind='diary' AND status IN ('pending','running')"
                        f" AND {self._d.json_is('payload', 'p')} LIMIT 1", {"p": json.dumps(payload)})
        return row is not None

    def queue_diaries(self, payloads: list[dict[str, Any]], mark_key: str, mark: int,
                      waiting: Sequence[Waiting] = (), ripe: Sequence[Waiting] = ()) -> None:
        d, now = self._d, time.time()
        with self._link.write() as x:
            x.many(f"INSERT INTO jobs(kind, payload, created, updated) VALUES('diary', {d.cast(':p', 'jsonb')},"
                   " :now, :now)", [{"p": json.dumps(p), "now": now} for p in payloads])
            x.run("INSERT INTO meta(key, value) VALUES(:key, :value) ON CONFLICT(key)"
                  " DO UPDATE SET value=excluded.value", {"key": mark_key, "value": str(mark)})
            # in one order, so two schedules never wait on each other in a circle
            x.many("INSERT INTO diary_waiting(tenant, agent, owner, day, due, last)"
                   " VALUES(:tenant, :agent, :owner, :day, :due, :last) ON CONFLICT(tenant, agent, owner, day)"
                   f" DO UPDATE SET due=excluded.due, last={d.greatest}(diary_waiting.last, excluded.last)",
                   [w._asdict() for w in sorted(waiting)])
            x.many("DELETE FROM diary_waiting WHERE tenant=:tenant AND agent=:agent AND owner=:owner AND day=:day"
                   " AND last<=:last", [w._asdict() for w in ripe])

    def diaries_waiting(self, until: float) -> list[Waiting]:
        with self._link.read() as x:
            rows = x.rows(_SCHEDULE + " WHERE due<=:until ORDER BY due, tenant, agent, owner, day", {"until": until})
        return [_waiting(r) for r in rows]

    def next_waiting(self) -> float | None:
        with self._link.read() as x:
            row = x.one("SELECT MIN(due) AS due FROM diary_waiting")
        return None if row is None or row["due"] is None else float(row["due"])
