"""Episodic memory, as ``mem.episodic``: episodes (a finished session, an archived task) by
time or by a query, and tasks' working memory (goal, plan, scratchpad) while they run.

>>> task = await mem.episodic.task_start("plan the trip", steps=["book"], user_id="alice")  # doctest: +SKIP
>>> await mem.episodic.task_finish(task.id, lessons=["book early"])  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .. import validate
from ..embedders.cached import CachedEmbedder
from ..models import Episode, Scope, Task
from ..stores.base import FullStore
from ..tiers.episodes import Episodes
from ..tiers.tasks import Tasks
from .args import int_id, scope_of


class EpisodesService:
    """Episodes and tasks of one store; ``drain`` waits for the background before a session closes."""

    def __init__(self, store: FullStore, embed: CachedEmbedder, episodes: Episodes,
                 drain: Callable[[], Awaitable[None]]) -> None:
        self._store = store
        self._embed = embed  # a query's vector
        self._episodes = episodes
        self._tasks = Tasks(store, episodes)
        self._drain = drain

    async def episodes(self, /, query: str | None = None, *, session_id: str | None = None,
                       limit: int = 20, **scope: Any) -> list[Episode]:
        """Episodes oldest first, or the best ``limit`` for ``query`` (similarity, recency, importance)."""
        where = scope_of(scope)
        store: Any = self._store
        if query is None:
            return (await asyncio.to_thread(store.episodes.episodes, where, session_id))[-limit:]
        qvec = await asyncio.to_thread(self._embed.query, validate.query(query))
        ranked = await asyncio.to_thread(self._episodes.rank, where, qvec, limit)
        return [e for e, _, _ in ranked if session_id is None or e.scope.session_id == session_id]

    async def end_session(self, /, session_id: str, **scope: Any) -> Episode | None:
        """Record a finished session as an episode now (also happens when a new one starts)."""
        await self._drain()
        where = scope_of(scope, session_id=session_id)
        return await asyncio.to_thread(self._close_session, where, session_id)

    def _close_session(self, where: Scope, session_id: str) -> Episode | None:
        # read as a worker batch reads: a forget of these turns waits, so no episode is built
        # from turns it is deleting (the forget's cascade would miss an episode written after it)
        with self._store.locks.hold([where.owner_scope().key], shared=True):
            return self._episodes.close_session(where, session_id)

    async def task_start(self, /, goal: str, *, steps: list[str] | None = None, scratchpad: str = "",
                         session_id: str | None = None, **scope: Any) -> Task:
        """Open a task's working memory (goal, plan, scratchpad); shown in context while running."""
        where = scope_of(scope, session_id=session_id)
        return await asyncio.to_thread(self._tasks.start, where, str(goal), list(steps or []), scratchpad)

    async def task_update(self, task_id: int, *, version: int | None = None, step: int | None = None,
                          status: str | None = None, result: str | None = None,
                          error: str | None = None, add_steps: list[str] | None = None,
                          scratchpad: str | None = None, tenant_id: str = "default") -> Task:
        """Change a step (status/result/error), add steps or rewrite the scratchpad.

        With ``version`` the write only happens if nobody changed the task since (else Conflict).
        """
        task = await asyncio.to_thread(self._tasks.get, int_id("task_id", task_id), tenant_id)
        changes = {"step": step, "status": status, "result": result, "error": error,
                   "add_steps": add_steps, "scratchpad": scratchpad}
        return await asyncio.to_thread(self._tasks.update, task, version, changes)

    async def task_finish(self, task_id: int, *, status: str = "done", outcome: str | None = None,
                          lessons: list[str] | None = None, feedback: str | None = None,
                          version: int | None = None, tenant_id: str = "default") -> Episode:
        """Archive a task as an episode with its lessons; user feedback makes it important."""
        task = await asyncio.to_thread(self._tasks.get, int_id("task_id", task_id), tenant_id)
        return await asyncio.to_thread(self._tasks.finish, task, status, outcome,
                                       list(lessons or []), feedback, version)

    async def tasks(self, /, *, status: str | None = None, **scope: Any) -> list[Task]:
        return await asyncio.to_thread(self._store.tasks.tasks, scope_of(scope), status)
