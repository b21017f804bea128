"""The job port: a queue several worker processes share, and the jobs that keep the derived
memory blocks current.

A claim holds its jobs under a lease, so a dead worker's jobs go to another once it runs out;
failures back off, then wait in the dead-letter list (status 'failed') until retried by hand.
A store gives it as ``store.jobs``; a store shared by processes also announces new jobs
(``JobSignals``: PostgreSQL's LISTEN/NOTIFY), which ``isinstance(store.jobs, JobSignals)`` tells.
It imports only the standard library. tests/contract/test_jobs_contract.py,
test_fair_claims_contract.py and test_blockjobs_contract.py run it on SQLite and Postgres.

>>> for job in store.jobs.claim(64, owner="host:1:ab12"):  # doctest: +SKIP
...     store.jobs.finish(job.id)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    payload: Any  # JSON: turn ids (embed, turns) or a dict (promote, reindex)
    attempts: int


class JobPort(Protocol):
    def enqueue(self, kind: str, payload: Any) -> int: ...

    def claim(self, limit: int, owner: str = "local", lease_s: float = 300.0, turns: int = 0) -> list[Job]:
        """Up to ``limit`` jobs that are 'pending' and due (run_after <= now), or 'running' with a
        lease that has expired (a dead worker's); each becomes 'running', held by ``owner`` until
        now + lease_s, attempts + 1. Taken round robin across tenants, then chats, oldest first
        within a chat, and of each tenant (past its first job) no more once they hold ``turns``
        turns (0: no bound; fair_share.py). A 'turns' job waits while an earlier 'turns' job of its
        chat is unfinished and not taken in the same claim (chat_order.py)."""
        ...

    def renew(self, job_ids: list[int], owner: str, lease_s: float) -> int:
        """Extend the leases ``owner`` still holds; returns how many it still held."""
        ...

    def finish(self, job_id: int) -> None: ...

    def fail(self, job_id: int, error: str, retry: bool) -> None:
        """retry: 'pending' again, due after a backoff of min(BACKOFF_BASE_S * 2 ** (attempts - 1),
        BACKOFF_MAX_S) seconds (``stores.base.backoff_s``); otherwise 'failed' (the dead-letter
        list), kept with its error."""
        ...

    def pending(self, tenant_id: str | None = None, *, agent_id: str | None = None,
                owner: str | None = None) -> int:
        """Jobs not done yet: all, or those about a tenant's (an agent's, an owner's) rows."""
        ...

    def pending_turns(self, tenant_id: str) -> int:
        """Turns of ``tenant_id`` queued for the background and not digested yet (their 'turns'
        jobs pending or running, not failed for good): one row read, for the cap on them."""
        ...

    def requeue_running(self, owner: str | None = None) -> int:
        """Jobs left 'running' by ``owner`` (all owners when None) go back to 'pending'."""
        ...

    def dead_jobs(self, tenant_id: str | None = None, *, agent_id: str | None = None,
                  limit: int = 100) -> list[dict[str, Any]]:
        """Failed jobs, newest first: id, kind, payload, attempts, error, updated (epoch s); of one
        tenant (agent) when given, as pending() filters."""
        ...

    def retry_dead(self, job_ids: list[int] | None = None, tenant_id: str | None = None) -> int:
        """Put failed jobs (these, or all of a tenant's, or all) back in the queue, attempts reset."""
        ...

    def job_queue(self) -> dict[str, tuple[int, float]]:
        """Every tenant's jobs by status ("pending", "running", "failed", those present): how
        many, and when (epoch seconds) the oldest of them was queued."""
        ...

    # ---- the memory blocks' jobs (issue 20) ----
    def enqueue_once(self, kind: str, payload: Any) -> bool:
        """Queue a job unless the same one (kind and payload) is already waiting; True if queued."""
        ...

    def queue_on_fact_change(self, kind: str) -> None:
        """A change to a group's facts queues a ``kind`` job for the group (once while waiting)."""
        ...

    def fact_groups(self) -> Iterator[tuple[str, str, str]]:
        """(tenant, agent, group id) of every group with facts: the groups a blocks job visits."""
        ...


class JobListening(Protocol):
    """A running subscription to a store's new jobs (``JobSignals.listen_jobs``)."""

    @property
    def live(self) -> bool:
        """True while queued jobs are announced; false while the link is down (poll instead)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class JobSignals(Protocol):
    """A job port shared by processes that announces new jobs to them, so an idle worker wakes
    when another process queues one instead of finding it at its next poll (PostgreSQL:
    LISTEN/NOTIFY). A store without it (SQLite: one process, woken in-process) is polled.

    >>> listening = store.jobs.listen_jobs(worker_wake)  # doctest: +SKIP
    """

    def listen_jobs(self, wake: Callable[[], None]) -> JobListening:
        """Call ``wake()`` (from another thread) whenever jobs are queued, until closed."""
        ...
