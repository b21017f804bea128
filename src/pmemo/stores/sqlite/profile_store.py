"""SQLite rows for tasks, and the owners and their clock: a mixin ``SQLiteStore`` inherits (the
facts and the episodes are ports: ``stores/facts_sql.py``, ``stores/episodes_sql.py``).

Updates carry a version check (``WHERE version=?``) and raise ``Conflict`` when another
writer got there first. Soft-deleted rows (``deleted`` set) are invisible to every read.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ...errors import Conflict
from ...models import Scope, Task, TaskStep
from . import profile_codec as pc
from .forget_store import ForgetRows
from .records_store import RecordRows


class ProfileStore(ForgetRows, RecordRows):
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

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
