"""The tasks port: the working memory of a task in progress (goal, plan steps, scratchpad),
saved with a version check.

A store gives it as ``store.tasks`` (``store.tasks(scope)`` was the store's listing method: it is
``store.tasks.tasks(scope)``). It imports only the models. tests/contract/test_profile_contract.py
runs it on SQLite and Postgres.

>>> store.tasks.tasks(scope.owner_scope(), "running")  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Protocol

from ..models import Scope, Task, TaskStep


class TaskPort(Protocol):
    def add_task(self, scope: Scope, goal: str, steps: list[TaskStep], scratchpad: str) -> Task:
        """A running task of ``scope``'s session, at version 1."""
        ...

    def get_task(self, task_id: int) -> Task | None: ...

    def tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        """The owner ``scope``'s tasks (of ``status``: running, done, failed), oldest first."""
        ...

    def save_task(self, task: Task, version: int) -> Task:
        """Write ``task``'s steps, scratchpad, status, feedback and episode if the stored version is
        still ``version`` (else ``pmemo.errors.Conflict``); the version goes up by one."""
        ...
