"""Tasks on PostgreSQL (the task part of ProfileStoreProtocol, a mixin of ``PostgresStore``):
working memory of a task in progress, saved with a version check."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ...errors import Conflict
from ...models import Scope, Task, TaskStep
from . import profile_codec as pc
from .database import Database


class TaskRows:
    if TYPE_CHECKING:
        _db: Database

    def add_task(self, scope: Scope, goal: str, steps: list[TaskStep], scratchpad: str) -> Task:
        now = time.time()
        with self._db.tx() as cur:
            cur.execute("INSERT INTO tasks(scope_key, tenant, agent, owner, session, goal, steps, scratchpad,"
                        " created, updated) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING *",
                        (scope.key, scope.tenant_id, scope.agent_id, scope.owner, scope.session_id or "", goal,
                         pc.steps(steps), scratchpad, now, now))
            return pc.task(pc.named(cur)[0])

    def get_task(self, task_id: int) -> Task | None:
        rows = self._db.dicts("SELECT * FROM tasks WHERE id=%s AND deleted IS NULL", (task_id,))
        return pc.task(rows[0]) if rows else None

    def tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        sql, args = "SELECT * FROM tasks WHERE scope_key=%s AND deleted IS NULL", [scope.key]
        if status is not None:
            sql, args = sql + " AND status=%s", [*args, status]
        return [pc.task(r) for r in self._db.dicts(sql + " ORDER BY id", args)]

    def save_task(self, task: Task, version: int) -> Task:
        """Write ``task``'s mutable fields if the stored version is still ``version``."""
        with self._db.tx() as cur:
            cur.execute("UPDATE tasks SET steps=%s, scratchpad=%s, status=%s, feedback=%s, episode_id=%s,"
                        " version=version+1, updated=%s WHERE id=%s AND version=%s AND deleted IS NULL RETURNING *",
                        (pc.steps(task.steps), task.scratchpad, task.status, task.feedback, task.episode_id,
                         time.time(), task.id, version))
            rows = pc.named(cur)
        if not rows:
            raise Conflict(f"task {task.id} was changed by someone else (version {version} is stale); read it"
                           " again and retry")
        return pc.task(rows[0])
