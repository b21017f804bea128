"""Background jobs and what an operator watches: the worker's life in this process, waiting
for a tenant's jobs, the failed-jobs list and its retry, the counts per tier and of jobs.

>>> [(j["kind"], j["error"]) for j in await mem.jobs.failed_jobs(tenant_id="acme")]  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from typing import Any

from .. import validate
from ..config import Settings
from ..errors import InvalidInput
from ..models import Scope, check_id
from ..pipelines.recalls import Recalls
from ..pipelines.worker import Worker
from ..stores.base import FullStore
from .args import MAX_LIMIT, int_id, scope_of


class JobsService:
    """The background of one ``Memory``: its worker (run here when ``run_jobs``) and the queue."""

    def __init__(self, store: FullStore, worker: Worker, recalls: Recalls, settings: Settings) -> None:
        self._store = store
        self._worker = worker
        self._recalls = recalls  # reads' hit counts, queued as jobs in batches
        self.settings = settings
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run the worker in this process (the ``run_jobs`` setting)."""
        if self.settings.run_jobs:
            self._task = asyncio.create_task(self._worker.run_forever())

    async def stop(self) -> None:
        """Stop background work; pending jobs stay queued for the next open, and what this process
        still held goes back to the queue now, not when its leases run out."""
        await self._recalls.settle()
        self._worker.stopping.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._worker.settle()
        await asyncio.to_thread(self._store.jobs.requeue_running, self._worker.owner)

    async def drain(self, timeout: float | None = None, **scope: Any) -> None:
        """Wait until the background jobs (of a tenant or owner) are done; see ``Memory.drain``."""
        count = functools.partial(self._store.jobs.pending, **job_filter(scope))
        async with asyncio.timeout(timeout):
            await self._recalls.settle()
            while await asyncio.to_thread(count):
                if not self.settings.run_jobs or not await self._worker.run_once():
                    await asyncio.sleep(0.01 if self.settings.run_jobs else 0.1)
            if self.settings.window_tokens and self.settings.run_jobs:  # L2 windows (issue 20)
                await self._worker.flush_windows(True, **job_filter(scope))

    async def pending(self, /, **scope: Any) -> int:
        """Background jobs not done yet, of everyone or of a tenant or owner (as ``drain``)."""
        return await asyncio.to_thread(self._store.jobs.pending, **job_filter(scope))

    async def failed_jobs(self, /, *, limit: int = 100, **scope: Any) -> list[dict[str, Any]]:
        """The dead-letter list: background jobs that failed every try, newest first, each with
        id, kind, payload, attempts, error and updated (epoch seconds); of everyone, or of a
        tenant (``tenant_id``, ``agent_id``) as ``pending``. ``retry_jobs`` queues them again."""
        where = dead_filter(scope, ("tenant_id", "agent_id"))
        return await asyncio.to_thread(self._store.jobs.dead_jobs, where.get("tenant_id"),
                                       agent_id=where.get("agent_id"),
                                       limit=validate.positive_int("limit", limit, MAX_LIMIT))

    async def retry_jobs(self, /, job_ids: list[int] | None = None, **scope: Any) -> int:
        """Queue failed jobs again, their attempts reset: these ids, or every failed job of the
        tenant (``tenant_id``), or every one; returns how many. Another tenant's ids are left alone."""
        where = dead_filter(scope, ("tenant_id",))
        ids = None if job_ids is None else [int_id("job id", i) for i in job_ids]
        count = await asyncio.to_thread(self._store.jobs.retry_dead, ids, where.get("tenant_id"))
        if count:
            self._worker.wake.set()
        return count

    async def stats(self, *, tenant_id: str | None = None, agent_id: str | None = None,
                    user_id: str | None = None, group_id: str | None = None) -> dict[str, int]:
        """Counts per tier and of background jobs: the whole store, or one tenant and within
        it an agent and/or an owner (at most one of user_id, group_id).

        >>> await mem.jobs.stats(tenant_id="t1", user_id="alice")  # doctest: +SKIP
        """
        owner = None
        if user_id is not None or group_id is not None:
            owner = Scope.of(user_id=user_id, group_id=group_id).owner
        return await asyncio.to_thread(
            self._store.stats, None if tenant_id is None else check_id("tenant_id", tenant_id),
            agent_id=None if agent_id is None else check_id("agent_id", agent_id), owner=owner)

    async def vitals(self) -> dict[str, float]:
        """For an operator (``/metrics``), of every tenant together: background jobs by status
        (``jobs_pending``, ``jobs_running``, ``jobs_failed``), the age in seconds of the oldest
        job not done (``oldest_job_age_s``, 0 when none) and the store's bytes on disk."""
        queue, size = await asyncio.to_thread(lambda: (self._store.jobs.job_queue(), self._store.size_bytes()))
        waiting = [queue[s][1] for s in ("pending", "running") if s in queue]
        out = {f"jobs_{s}": float(queue.get(s, (0, 0.0))[0]) for s in ("pending", "running", "failed")}
        return {**out, "oldest_job_age_s": max(0.0, time.time() - min(waiting)) if waiting else 0.0,
                "store_bytes": float(size)}


def dead_filter(scope: dict[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    unknown = set(scope) - set(allowed)
    if unknown:
        raise InvalidInput(f"unknown scope field(s): {', '.join(sorted(unknown))}; failed jobs are"
                           f" listed and retried by {' and '.join(allowed)}")
    return {k: check_id(k, v) for k, v in scope.items() if v is not None}


def job_filter(scope: dict[str, Any]) -> dict[str, Any]:
    """The store's filter of jobs for a tenant (and agent), or an owner's (``user_id``/``group_id``)."""
    if not scope:
        return {}
    if "user_id" in scope or "group_id" in scope:
        owner = scope_of(scope)
        return {"tenant_id": owner.tenant_id, "agent_id": owner.agent_id, "owner": owner.owner}
    unknown = set(scope) - {"tenant_id", "agent_id"}
    if unknown:
        raise InvalidInput(f"unknown scope field(s): {', '.join(sorted(unknown))}")
    return {"tenant_id": check_id("tenant_id", scope.get("tenant_id", "default")),
            "agent_id": None if scope.get("agent_id") is None else check_id("agent_id", scope["agent_id"])}
