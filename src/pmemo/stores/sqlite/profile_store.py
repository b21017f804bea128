"""SQLite rows for episodes and tasks, and the owners and their clock: a mixin ``SQLiteStore`` inherits
(the facts are a port: ``stores/facts_sql.py``).

Updates carry a version check (``WHERE version=?``) and raise ``Conflict`` when another
writer got there first. Soft-deleted rows (``deleted`` set) are invisible to every read.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ...errors import Conflict
from ...models import Episode, Scope, Task, TaskStep
from .. import sessions_sql
from ..base import EpisodeSignal
from . import profile_codec as pc
from .forget_store import ForgetRows
from .records_store import RecordRows

T = TypeVar("T")
_EPISODES_BY_ID = "SELECT * FROM episodes WHERE id IN ({}) AND deleted IS NULL"


class ProfileStore(ForgetRows, RecordRows):
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _sources(self, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]: ...
        def _refs_with(self, kind: str, turn_ids: list[int]) -> list[int]: ...
        def _records(self, kind: str, sql: str, ids: list[int],
                     build: Callable[[sqlite3.Row, tuple[int, ...]], T]) -> list[T]: ...
        def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]: ...
        def _vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]: ...

    def conversation_now(self, scope: Scope) -> float | None:
        """The newest turn's time in the owner scope: the clock decay and expiry run on."""
        row = self._read.execute(
            "SELECT MAX(ts) FROM turns WHERE scope_key=?", (scope.key,)
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        """Every owner with turns, episodes or facts (optionally of one tenant)."""
        where = " WHERE tenant=?" if tenant else ""
        sql = " UNION ".join(
            f"SELECT DISTINCT tenant, agent, owner FROM {t}{where}"
            for t in ("turns", "episodes", "facts")
        )
        rows = self._read.execute(sql + " ORDER BY 1, 2, 3", [tenant] * 3 if tenant else [])
        return [Scope(r[0], r[1], r[2]) for r in rows]

    # ---- episodes --------------------------------------------------------------------------
    def add_episode(
        self, scope: Scope, kind: str, fields: dict[str, Any], source_ids: list[int]
    ) -> Episode:
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO episodes(scope_key, tenant, agent, owner, session, kind, summary, topics,"
                " actions, outcomes, lessons, importance, started, ended, step_from, step_to, created)"
                " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    *pc.scope_cols(scope),
                    scope.session_id or "",
                    kind,
                    *_episode_values(fields),
                    time.time(),
                ),
            )
            eid = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT OR IGNORE INTO sources(kind, ref, turn_id) VALUES('episode',?,?)",
                [(eid, t) for t in source_ids],
            )
        found = self.get_episode(eid)
        assert found is not None
        return found

    def update_episode(
        self, episode_id: int, fields: dict[str, Any], source_ids: list[int]
    ) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE episodes SET summary=?, topics=?, actions=?, outcomes=?, lessons=?,"
                " importance=?, started=?, ended=?, step_from=?, step_to=? WHERE id=?",
                (*_episode_values(fields), episode_id),
            )
            conn.execute("DELETE FROM sources WHERE kind='episode' AND ref=?", (episode_id,))
            conn.executemany(
                "INSERT INTO sources(kind, ref, turn_id) VALUES('episode',?,?)",
                [(episode_id, t) for t in source_ids],
            )
            conn.execute("DELETE FROM vectors WHERE kind='episode' AND ref=?", (episode_id,))

    def get_episode(self, episode_id: int) -> Episode | None:
        return next(iter(self._records("episode", _EPISODES_BY_ID, [episode_id], pc.episode)), None)

    def get_episodes(self, ids: Iterable[int]) -> list[Episode]:
        return self._records("episode", _EPISODES_BY_ID, list(dict.fromkeys(int(i) for i in ids)), pc.episode)

    def episode_signals(self, scope: Scope, query: np.ndarray | None) -> list[EpisodeSignal]:
        return self._episode_signals(scope, query)

    def _episode_signals(self, scope: Scope, query: np.ndarray | None) -> list[EpisodeSignal]:
        rows = self._read.execute("SELECT id, ended, importance FROM episodes WHERE scope_key=?"
                                  " AND deleted IS NULL ORDER BY ended, id", (scope.key,)).fetchall()
        vecs = self._vectors("episode", [r[0] for r in rows]) if query is not None and rows else {}
        return [EpisodeSignal(r[0], r[1], r[2], float(vec @ query)
                              if query is not None and (vec := vecs.get(r[0])) is not None
                              and vec.shape == query.shape else None) for r in rows]

    def episodes(self, scope: Scope, session_id: str | None = None) -> list[Episode]:
        sql, args = "SELECT * FROM episodes WHERE scope_key=? AND deleted IS NULL", [scope.key]
        if session_id is not None:
            sql, args = sql + " AND session=?", [*args, session_id]
        rows = self._read.execute(sql + " ORDER BY ended, id", args).fetchall()
        sources = self._sources("episode", [r["id"] for r in rows])
        return [pc.episode(r, sources.get(r["id"], ())) for r in rows]

    def episodes_with(self, turn_ids: list[int]) -> list[Episode]:
        return self._records("episode", _EPISODES_BY_ID, self._refs_with("episode", turn_ids), pc.episode)

    def delete_episode(self, episode_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM episodes WHERE id=?", (episode_id,))
            conn.execute("DELETE FROM sources WHERE kind='episode' AND ref=?", (episode_id,))
            conn.execute("DELETE FROM vectors WHERE kind='episode' AND ref=?", (episode_id,))

    def touch_episodes(self, ids: list[int], now: float) -> None:
        with self._tx() as conn:
            conn.executemany(
                "UPDATE episodes SET access_count=access_count+1, accessed=? WHERE id=?",
                [(now, i) for i in ids],
            )

    def open_sessions(self, scope: Scope, before: float, kind: str) -> list[str]:
        """The scope's sessions last spoken in before ``before`` (epoch seconds) that hold turns past
        what its episodes of ``kind`` cover, oldest first (one query, not one per session)."""
        rows = self._read.execute(sessions_sql.open_sessions("?"), (scope.key, scope.key, kind, before))
        return [r[0] for r in rows]

    def covered_steps(self, scope: Scope, session_id: str, kinds: tuple[str, ...]) -> int:
        """The last step of a session already folded into an episode of these kinds."""
        marks = ",".join("?" * len(kinds))
        row = self._read.execute(
            f"SELECT MAX(step_to) FROM episodes WHERE scope_key=? AND session=? AND kind IN ({marks})",
            (scope.key, session_id, *kinds),
        ).fetchone()
        return int(row[0] or 0)

    # ---- tasks -----------------------------------------------------------------------------
    def add_task(self, scope: Scope, goal: str, steps: list[TaskStep], scratchpad: str) -> Task:
        now = time.time()
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO tasks(scope_key, tenant, agent, owner, session, goal, steps, scratchpad,"
                " created, updated) VALUES(?,?,?,?,?,?,?,?,?,?)",
                (
                    *pc.scope_cols(scope),
                    scope.session_id or "",
                    goal,
                    pc.steps_json(steps),
                    scratchpad,
                    now,
                    now,
                ),
            )
            tid = int(cur.lastrowid or 0)
        found = self.get_task(tid)
        assert found is not None
        return found

    def get_task(self, task_id: int) -> Task | None:
        row = self._read.execute(
            "SELECT * FROM tasks WHERE id=? AND deleted IS NULL", (task_id,)
        ).fetchone()
        return pc.task(row) if row else None

    def tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        return self._tasks(scope, status)

    def _tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        sql, args = "SELECT * FROM tasks WHERE scope_key=? AND deleted IS NULL", [scope.key]
        if status is not None:
            sql, args = sql + " AND status=?", [*args, status]
        return [pc.task(r) for r in self._read.execute(sql + " ORDER BY id", args).fetchall()]

    def save_task(self, task: Task, version: int) -> Task:
        """Write ``task``'s mutable fields if the stored version is still ``version``."""
        with self._tx() as conn:
            changed = conn.execute(
                "UPDATE tasks SET steps=?, scratchpad=?, status=?, feedback=?, episode_id=?,"
                " version=version+1, updated=? WHERE id=? AND version=? AND deleted IS NULL",
                (
                    pc.steps_json(task.steps),
                    task.scratchpad,
                    task.status,
                    task.feedback,
                    task.episode_id,
                    time.time(),
                    task.id,
                    version,
                ),
            ).rowcount
        if not changed:
            raise Conflict(
                f"task {task.id} was changed by someone else (version {version} is "
                "stale); read it again and retry"
            )
        found = self.get_task(task.id)
        assert found is not None
        return found


def _episode_values(fields: dict[str, Any]) -> tuple[Any, ...]:
    def dump(name: str) -> str:
        return json.dumps(list(fields.get(name, ())), ensure_ascii=False)

    return (
        fields["summary"],
        dump("topics"),
        dump("actions"),
        dump("outcomes"),
        dump("lessons"),
        float(fields.get("importance", 0.5)),
        fields["started"],
        fields["ended"],
        int(fields.get("step_from", 0)),
        int(fields.get("step_to", 0)),
    )
