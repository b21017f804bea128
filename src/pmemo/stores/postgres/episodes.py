"""Episodes on PostgreSQL (the episode part of ProfileStoreProtocol, a mixin of ``PostgresStore``):
what happened in a stretch of a session, with the turns it came from and how often it was read."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...models import Episode, Scope
from .. import sessions_sql
from ..base import EpisodeSignal
from . import codec
from . import profile_codec as pc
from .live import LiveRows

_VALUES = "summary, topics, actions, outcomes, lessons, importance, started, ended, step_from, step_to"


class EpisodeRows(LiveRows):
    def add_episode(self, scope: Scope, kind: str, fields: dict[str, Any], source_ids: list[int]) -> Episode:
        with self._db.tx() as cur:
            row = cur.execute(
                f"INSERT INTO episodes(scope_key, tenant, agent, owner, session, kind, {_VALUES}, created)"
                " VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, scope.session_id or "", kind,
                 *_values(fields), time.time())).fetchone()
            assert row is not None
            self._set_sources(cur, "episode", row[0], source_ids)
        found = self.get_episode(row[0])
        assert found is not None
        return found

    def update_episode(self, episode_id: int, fields: dict[str, Any], source_ids: list[int]) -> None:
        """New text and sources; the vector of the old text goes (it is made again from the new)."""
        sets = ", ".join(f"{name.strip()}=%s" for name in _VALUES.split(","))
        with self._db.tx() as cur:
            cur.execute(f"UPDATE episodes SET {sets} WHERE id=%s", (*_values(fields), episode_id))
            self._set_sources(cur, "episode", episode_id, source_ids)
            cur.execute("DELETE FROM vectors WHERE kind='episode' AND ref=%s", (episode_id,))

    def get_episode(self, episode_id: int) -> Episode | None:
        return next(iter(self._live("episode", "episodes", [episode_id], pc.episode)), None)

    def get_episodes(self, ids: Iterable[int]) -> list[Episode]:
        return self._live("episode", "episodes", list(ids), pc.episode)

    def episode_signals(self, scope: Scope, query: np.ndarray | None) -> list[EpisodeSignal]:
        return signals_of(self._db.rows(*signals_read(scope, query)))

    def episodes(self, scope: Scope, session_id: str | None = None) -> list[Episode]:
        sql, args = "SELECT * FROM episodes WHERE scope_key=%s AND deleted IS NULL", [scope.key]
        if session_id is not None:
            sql, args = sql + " AND session=%s", [*args, session_id]
        return self._live_where("episode", sql + " ORDER BY ended, id", args, pc.episode)

    def episodes_with(self, turn_ids: list[int]) -> list[Episode]:
        return self._live("episode", "episodes", sorted(self._refs_with("episode", turn_ids)), pc.episode)

    def delete_episode(self, episode_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM episodes WHERE id=%s", (episode_id,))
            cur.execute("DELETE FROM sources WHERE kind='episode' AND ref=%s", (episode_id,))
            cur.execute("DELETE FROM vectors WHERE kind='episode' AND ref=%s", (episode_id,))

    def touch_episodes(self, ids: list[int], now: float) -> None:
        """One read each (an id given twice was read twice)."""
        with self._db.tx() as cur:
            cur.execute("UPDATE episodes e SET access_count = e.access_count + n.reads, accessed=%s"
                        " FROM (SELECT id, COUNT(*) AS reads FROM unnest(%s::bigint[]) id GROUP BY id) n"
                        " WHERE e.id = n.id", (now, [int(i) for i in ids]))

    def open_sessions(self, scope: Scope, before: float, kind: str) -> list[str]:
        """The scope's sessions last spoken in before ``before`` (epoch seconds) that hold turns past
        what its episodes of ``kind`` cover, oldest first (one query, not one per session)."""
        rows = self._db.rows(sessions_sql.open_sessions("%s"), (scope.key, scope.key, kind, before))
        return [r[0] for r in rows]

    def covered_steps(self, scope: Scope, session_id: str, kinds: tuple[str, ...]) -> int:
        """The last step of a session already folded into an episode of these kinds."""
        row = self._db.one("SELECT MAX(step_to) FROM episodes WHERE scope_key=%s AND session=%s AND kind = ANY(%s)",
                           (scope.key, session_id, list(kinds)))
        return int(row[0] or 0) if row else 0


def _values(fields: dict[str, Any]) -> tuple[Any, ...]:
    """The columns of ``_VALUES`` from an episode's fields."""
    def listed(name: str) -> Any:
        return pc.jsonb(list(fields.get(name, ())))

    return (fields["summary"], listed("topics"), listed("actions"), listed("outcomes"), listed("lessons"),
            float(fields.get("importance", 0.5)), fields["started"], fields["ended"],
            int(fields.get("step_from", 0)), int(fields.get("step_to", 0)))


def signals_read(scope: Scope, query: np.ndarray | None) -> tuple[str, dict[str, Any]]:
    """The read of ``episode_signals``: with a query, the similarity in the database (a context
    reads a float an episode, not its vector)."""
    where = "WHERE e.scope_key=%(scope)s AND e.deleted IS NULL ORDER BY e.ended, e.id"
    if query is None:
        return f"SELECT e.id, e.ended, e.importance, NULL FROM episodes e {where}", {"scope": scope.key}
    return ("SELECT e.id, e.ended, e.importance, CASE WHEN vector_dims(v.vec) = %(dim)s"
            " THEN -(v.vec <#> %(q)s) END FROM episodes e"
            f" LEFT JOIN vectors v ON v.kind='episode' AND v.ref=e.id {where}",
            {"q": codec.f32(query), "dim": len(query), "scope": scope.key})


def signals_of(rows: list[Any]) -> list[EpisodeSignal]:
    return [EpisodeSignal(r[0], r[1], r[2], None if r[3] is None else float(r[3])) for r in rows]
