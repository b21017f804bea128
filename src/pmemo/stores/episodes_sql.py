"""The episodes port (``ports.episodes.EpisodePort``) in SQL, written once for SQLite and Postgres
(sqlite/profile_store.py and postgres/episodes.py were the same Python twice). What the two spell
apart is the ``Dialect`` (the JSON lists written as jsonb on Postgres, list parameters), and
``episode_signals``: where an episode's vector is compared with the query is the backend's
(``sqlite/episodes.py``: the store's vectors, cached; ``postgres/episodes.py``: pgvector in the
read, a float an episode on the wire). Where the two differed, one is kept for both:
``touch_episodes`` is one set-based update (SQLite ran one a row), sources of an update are
replaced as on Postgres, ``episodes_with`` is by id.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from ..models import Episode, Scope
from ..ports.episodes import EpisodeSignal, NewEpisode, OpenSession
from .sql import Dialect, Exec, Link, Row, add_sources, by_id, count_reads, drop, refs_with, set_sources, with_sources
from .sqlite.codec import TURN_FIELDS, turn

# the columns an episode's fields fill (``_values``), in this order
VALUES = ("summary", "topics", "actions", "outcomes", "lessons", "importance", "started", "ended", "step_from",
          "step_to")
LISTS = ("topics", "actions", "outcomes", "lessons")
CHUNK = 500  # episodes an INSERT of add_episodes writes: 17 parameters each, below SQLite's 32,766
# the sessions a new session closes as episodes: each session's last turn before :before with
# steps past what its episodes of :kind cover, oldest first
OPEN = ("SELECT t.session, t.first, t.last, COALESCE(e.covered, 0) AS covered FROM (SELECT session,"
        " MAX(step) last_step, MIN(ts) first, MAX(ts) last FROM turns WHERE scope_key=:key GROUP BY session) t"
        " LEFT JOIN (SELECT session, MAX(step_to) covered FROM episodes WHERE scope_key=:key AND kind=:kind"
        " GROUP BY session) e ON e.session = t.session WHERE t.last < :before AND t.last_step > COALESCE(e.covered, 0)")
OPEN_SESSIONS = f"SELECT o.session FROM ({OPEN}) o ORDER BY o.first, o.session"
# those sessions with their last turn's time and their turns past what is covered, in one read
OPEN_TURNS = (f"SELECT o.last AS session_last, {', '.join('t.' + c for c in TURN_FIELDS)} FROM ({OPEN}) o"
              " JOIN turns t ON t.scope_key=:key AND t.session=o.session AND t.step > o.covered"
              " ORDER BY o.first, o.session, t.step")


def _listed(value: Any) -> tuple[Any, ...]:
    """A JSON list column as a tuple (SQLite gives its text, Postgres the jsonb decoded)."""
    return tuple(json.loads(value) if isinstance(value, str) else value or ())


def episode_of(row: Row, sources: tuple[int, ...]) -> Episode:
    return Episode(id=row["id"], scope=Scope(row["tenant"], row["agent"], row["owner"], row["session"]),
                   kind=row["kind"], summary=row["summary"], topics=_listed(row["topics"]),
                   actions=_listed(row["actions"]), outcomes=_listed(row["outcomes"]),
                   lessons=_listed(row["lessons"]), importance=row["importance"],
                   started_at=datetime.fromtimestamp(row["started"], UTC),
                   ended_at=datetime.fromtimestamp(row["ended"], UTC), source_ids=sources,
                   step_from=row["step_from"], step_to=row["step_to"], access_count=row["access_count"],
                   created_at=datetime.fromtimestamp(row["created"], UTC))


def _values(fields: dict[str, Any]) -> dict[str, Any]:
    """The columns of ``VALUES`` from an episode's fields, by name."""
    def listed(name: str) -> str:
        return json.dumps(list(fields.get(name, ())), ensure_ascii=False, default=str)

    return {"summary": fields["summary"], **{name: listed(name) for name in LISTS},
            "importance": float(fields.get("importance", 0.5)), "started": fields["started"], "ended": fields["ended"],
            "step_from": int(fields.get("step_from", 0)), "step_to": int(fields.get("step_to", 0))}


class SQLEpisodes:
    """``EpisodePort`` over a backend's ``Link`` in its ``Dialect``, but for ``episode_signals``,
    which each backend gives (``sqlite/episodes.py``, ``postgres/episodes.py``)."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def _marks(self, suffix: str = "") -> list[str]:
        """The parameters of ``VALUES`` (named ``name + suffix``), a JSON list as the backend takes it."""
        return [self._d.cast(f":{name}{suffix}", "jsonb") if name in LISTS else f":{name}{suffix}" for name in VALUES]

    def add_episode(self, scope: Scope, kind: str, fields: dict[str, Any], source_ids: list[int]) -> Episode:
        with self._link.write() as x:
            row = x.one(f"INSERT INTO episodes(scope_key, tenant, agent, owner, session, kind, {', '.join(VALUES)},"
                        f" created) VALUES(:key, :tenant, :agent, :owner, :session, :kind, {', '.join(self._marks())},"
                        " :now) RETURNING id",
                        {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                         "session": scope.session_id or "", "kind": kind, **_values(fields), "now": time.time()})
            assert row is not None
            add_sources(x, self._d, "episode", int(row["id"]), source_ids)
        found = self.get_episode(int(row["id"]))
        assert found is not None
        return found

    def add_episodes(self, new: list[NewEpisode]) -> list[Episode]:
        """``add_episode`` for each of ``new``, in one transaction of two statements (the episodes,
        their sources; none read back) however many: what a batch's closed sessions write."""
        with self._link.write() as x:
            found = [r for start in range(0, len(new), CHUNK) for r in self._inserted(x, new[start : start + CHUNK])]
            x.many("INSERT INTO sources(kind, ref, turn_id) VALUES('episode', :ref, :turn) ON CONFLICT DO NOTHING",
                   [{"ref": r["id"], "turn": int(t)} for r, e in zip(found, new, strict=True)
                    for t in dict.fromkeys(e.source_ids)])
        return [episode_of(r, tuple(sorted({int(t) for t in e.source_ids}))) for r, e in zip(found, new, strict=True)]

    def _inserted(self, x: Exec, new: list[NewEpisode]) -> list[Row]:
        """``new`` inserted in one statement; their rows, in ``new``'s order."""
        if not new:
            return []
        rows, args = [], {"now": time.time()}
        for i, e in enumerate(new):
            rows.append(f"(:key{i}, :tenant{i}, :agent{i}, :owner{i}, :session{i}, :kind{i},"
                        f" {', '.join(self._marks(str(i)))}, :now)")
            args.update({f"{name}{i}": value for name, value in {
                "key": e.scope.key, "tenant": e.scope.tenant_id, "agent": e.scope.agent_id, "owner": e.scope.owner,
                "session": e.scope.session_id or "", "kind": e.kind, **_values(e.fields)}.items()})
        written = x.rows(f"INSERT INTO episodes(scope_key, tenant, agent, owner, session, kind, {', '.join(VALUES)},"
                         f" created) VALUES {', '.join(rows)} RETURNING *", args)
        found = sorted(written, key=lambda r: r["id"])  # RETURNING promises no order; ids go as VALUES do
        assert [(r["scope_key"], r["kind"], r["step_to"]) for r in found] == [
            (e.scope.key, e.kind, int(e.fields.get("step_to", 0))) for e in new]
        return found

    def update_episode(self, episode_id: int, fields: dict[str, Any], source_ids: list[int]) -> None:
        sets = ", ".join(f"{name}={mark}" for name, mark in zip(VALUES, self._marks(), strict=True))
        with self._link.write() as x:
            x.run(f"UPDATE episodes SET {sets} WHERE id=:id", {**_values(fields), "id": episode_id})
            set_sources(x, self._d, "episode", episode_id, source_ids)
            x.run("DELETE FROM vectors WHERE kind='episode' AND ref=:id", {"id": episode_id})

    def get_episode(self, episode_id: int) -> Episode | None:
        return next(iter(self.get_episodes([episode_id])), None)

    def get_episodes(self, ids: Iterable[int]) -> list[Episode]:
        with self._link.read() as x:
            return self._by_id(x, list(dict.fromkeys(int(i) for i in ids)))

    def _by_id(self, x: Exec, ids: list[int]) -> list[Episode]:
        return by_id(x, self._d, "episodes", "episode", ids, episode_of, " AND deleted IS NULL")

    def episodes(self, scope: Scope, session_id: str | None = None) -> list[Episode]:
        session = "" if session_id is None else " AND session=:session"
        with self._link.read() as x:
            rows = x.rows(f"SELECT * FROM episodes WHERE scope_key=:key AND deleted IS NULL{session}"
                          " ORDER BY ended, id", {"key": scope.key, "session": session_id})
            return with_sources(x, self._d, "episode", rows, episode_of)

    def episode_signals(self, scope: Scope, query: Any) -> list[EpisodeSignal]:
        raise NotImplementedError  # the backend's: sqlite/episodes.py, postgres/episodes.py

    def episodes_with(self, turn_ids: list[int]) -> list[Episode]:
        with self._link.read() as x:
            return self._by_id(x, refs_with(x, self._d, "episode", turn_ids))

    def delete_episode(self, episode_id: int) -> None:
        with self._link.write() as x:
            drop(x, "episodes", "episode", episode_id, vector=True)

    def touch_episodes(self, ids: list[int], now: float) -> None:
        if ids:
            with self._link.write() as x:
                count_reads(x, self._d, "episodes", ids, now)

    def covered_steps(self, scope: Scope, session_id: str, kinds: tuple[str, ...]) -> int:
        with self._link.read() as x:
            row = x.one("SELECT MAX(step_to) AS covered FROM episodes WHERE scope_key=:key AND session=:session"
                        f" AND {self._d.in_('kind', 'kinds', 'text')}",
                        {"key": scope.key, "session": session_id, "kinds": self._d.texts(kinds)})
        return int(row["covered"] or 0) if row else 0

    def open_sessions(self, scope: Scope, before: float, kind: str) -> list[str]:
        with self._link.read() as x:
            rows = x.rows(OPEN_SESSIONS, {"key": scope.key, "kind": kind, "before": before})
        return [r["session"] for r in rows]

    def open_turns(self, scope: Scope, before: float, kind: str) -> list[OpenSession]:
        with self._link.read() as x:
            rows = x.rows(OPEN_TURNS, {"key": scope.key, "kind": kind, "before": before})
        out: dict[str, OpenSession] = {}
        for r in rows:
            found = out.setdefault(r["session"], OpenSession(r["session"], float(r["session_last"]), []))
            found.turns.append(turn(tuple(r[c] for c in TURN_FIELDS)))
        return list(out.values())
