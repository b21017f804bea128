"""The job port on PostgreSQL (``PostgresJobs``), shared by every worker process: what is its
own beside the shared SQL (jobs_sql.py).

A claim takes due jobs round robin across tenants and chats (fair_share.py) with ``FOR UPDATE
SKIP LOCKED``, one claim at a time (a transaction's advisory lock), so two workers never get
the same job, and holds them under a lease: a worker that dies loses its jobs to the next claim
once the lease runs out. Lease and backoff times come from the database's clock (``NOW``), the
one every worker shares. Whose rows a job is about is in ``job_scopes``, filled by a trigger
(migrations/0001_core.sql), so that ``pending()`` of one tenant never waits on another's jobs,
and so that a chat's 'turns' jobs run in the order they were queued, one worker at a time
(``in_chat_order``). New jobs are announced to every process (``listen_jobs``, listen.py).

A group's derived ``human`` block is rewritten when the group's facts change. Facts change by
many paths; all of them write the ``facts`` table, so triggers on it queue the job in the same
transaction as the change, once while one is waiting (migrations/0021_fact_jobs.sql): a burst of
changes makes one job, which reads the facts as they are by then. ``queue_on_fact_change`` lists
the job kind for those triggers; the SQL function ``enqueue_once`` (0020_people.sql) queues a job
unless the same one waits, under a lock on the pair, so two writers never both queue it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..fair_share import ranked
from ..jobs_sql import SQLJobs
from ..sql import Exec
from .database import Database, lock_key
from .dialect import POSTGRES, PostgresLink
from .listen import JobListener

NOW = "extract(epoch FROM statement_timestamp())"
CLAIM_LOCK = lock_key("pmemo", "claim")


class PostgresJobs(SQLJobs):
    def __init__(self, db: Database) -> None:
        super().__init__(PostgresLink(db), POSTGRES, NOW)
        self._url = db.url

    def _due(self, x: Exec, limit: int, turns: int) -> dict[int, str]:
        # one claim at a time, each seeing the last one's jobs taken: two claims ranking the
        # same jobs at once would leave the second with none (SKIP LOCKED) though more wait
        x.rows("SELECT pg_advisory_xact_lock(:key)", {"key": CLAIM_LOCK})
        order = ranked(NOW, ":n", ":turns", array_length="jsonb_array_length")
        return {r["id"]: r["kind"] for r in x.rows(
            f"SELECT id, kind FROM jobs WHERE id IN ({order}) AND ((status='pending' AND run_after <= {NOW})"
            f" OR (status='running' AND lease_until <= {NOW})) FOR UPDATE SKIP LOCKED", {"n": limit, "turns": turns})}

    def listen_jobs(self, wake: Callable[[], None]) -> JobListener:
        """``wake()`` whenever jobs are queued, through any process (listen.py)."""
        return JobListener(self._url, wake)

    def queue_on_fact_change(self, kind: str) -> None:
        """From now on, a change to a group's facts queues a ``kind`` job for that group (payload
        ``{"tenant", "agent", "owner"}``), unless one is already waiting. It holds for every
        process on this database, as the triggers are the database's."""
        if not kind.isidentifier():
            raise ValueError(f"job kind {kind!r} must be a plain name")
        with self._link.write() as x:
            x.run("INSERT INTO fact_job_kinds(kind) VALUES(:kind) ON CONFLICT DO NOTHING", {"kind": kind})

    def enqueue_once(self, kind: str, payload: Any) -> bool:
        """Queue a job unless the same one (kind and payload) is already waiting; True if queued."""
        with self._link.write() as x:
            row = x.one("SELECT enqueue_once(:kind, :payload::jsonb) AS queued",
                        {"kind": kind, "payload": json.dumps(payload)})
        return bool(row and row["queued"])
