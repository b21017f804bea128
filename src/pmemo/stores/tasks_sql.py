"""The tasks port (``ports.tasks.TaskPort``) in SQL, written once for SQLite and Postgres: no
backend module of its own (the two differed in placeholders, the steps' JSON column, and SQLite
reading a row back where Postgres had ``RETURNING *``, now both)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from datetime import UTC, datetime

from ..errors import Conflict
from ..models import Scope, Task, TaskStep
from .sql import Dialect, Link, Row


def task_of(row: Row) -> Task:
    steps = json.loads(row["steps"]) if isinstance(row["steps"], str) else row["steps"]
    return Task(id=row["id"], scope=Scope(row["tenant"], row["agent"], row["owner"], row["session"] or None),
                goal=row["goal"], steps=tuple(TaskStep(**s) for s in steps), scratchpad=row["scratchpad"],
                status=row["status"], feedback=row["feedback"], episode_id=row["episode_id"],
                version=row["version"], created_at=datetime.fromtimestamp(row["created"], UTC),
                updated_at=datetime.fromtimestamp(row["updated"], UTC))


def _steps(steps: Iterable[TaskStep]) -> str:
    return json.dumps([vars(s) for s in steps], ensure_ascii=False, default=str)


class SQLTasks:
    """``TaskPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def add_task(self, scope: Scope, goal: str, steps: list[TaskStep], scratchpad: str) -> Task:
        now = time.time()
        with self._link.write() as x:
            row = x.one("INSERT INTO tasks(scope_key, tenant, agent, owner, session, goal, steps, scratchpad, created,"
                        " updated) VALUES(:key, :tenant, :agent, :owner, :session, :goal,"
                        f" {self._d.cast(':steps', 'jsonb')}, :scratchpad, :now, :now) RETURNING *",
                        {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                         "session": scope.session_id or "", "goal": goal, "steps": _steps(steps),
                         "scratchpad": scratchpad, "now": now})
        assert row is not None
        return task_of(row)

    def get_task(self, task_id: int) -> Task | None:
        with self._link.read() as x:
            row = x.one("SELECT * FROM tasks WHERE id=:id AND deleted IS NULL", {"id": task_id})
        return task_of(row) if row else None

    def tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        with self._link.read() as x:
            rows = x.rows("SELECT * FROM tasks WHERE scope_key=:key AND deleted IS NULL"
                          + ("" if status is None else " AND status=:status") + " ORDER BY id",
                          {"key": scope.key, "status": status})
        return [task_of(r) for r in rows]

    def save_task(self, task: Task, version: int) -> Task:
        with self._link.write() as x:
            row = x.one(f"UPDATE tasks SET steps={self._d.cast(':steps', 'jsonb')}, scratchpad=:scratchpad,"
                        " status=:status, feedback=:feedback, episode_id=:episode, version=version+1, updated=:now"
                        " WHERE id=:id AND version=:version AND deleted IS NULL RETURNING *",
                        {"steps": _steps(task.steps), "scratchpad": task.scratchpad, "status": task.status,
                         "feedback": task.feedback, "episode": task.episode_id, "now": time.time(), "id": task.id,
                         "version": version})
        if row is None:
            raise Conflict(f"task {task.id} was changed by someone else (version {version} is stale); read it"
                           " again and retry")
        return task_of(row)
