"""The job queue on PostgreSQL (JobStore, a mixin), shared by every worker process.

A claim takes due jobs round robin across tenants and chats (fair_share.py) with ``FOR UPDATE
SKIP LOCKED``, one claim at a time (a transaction's advisory lock), so two workers never get
the same job, and holds them under a lease: a
worker that dies loses its jobs to the next claim once the lease runs out. Lease and backoff
times come from the database's clock (``NOW``), the one every worker shares. Whose rows a job
is about is in ``job_scopes``, filled by a trigger (migrations/0001_core.sql), so that
``pending()`` of one tenant never waits on another's jobs, and so that a chat's 'turns' jobs
run in the order they were queued, one worker at a time (``in_chat_order``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ..base import Job, backoff_s
from ..chat_order import earlier, in_chat_order
from ..fair_share import ranked
from .database import Database, lock_key
from .listen import JobListener

NOW = "extract(epoch FROM statement_timestamp())"
CLAIM_LOCK = lock_key("pmemo", "claim")
ERROR_CHARS = 2000


def jobs_of(tenant_id: str | None, agent_id: str | None = None, owner: str | None = None) -> tuple[str, list[Any]]:
    """`` AND id IN (…)`` for the jobs about a tenant's (an agent's, an owner's) rows, and its
    arguments; nothing for all jobs."""
    filters = [(col, value) for col, value in (("tenant", tenant_id), ("agent", agent_id), ("owner", owner))
               if value is not None]
    if not filters:
        return "", []
    where = " AND ".join(f"s.{col}=%s" for col, _ in filters)
    return f" AND id IN (SELECT s.job FROM job_scopes s WHERE {where})", [v for _, v in filters]


class JobRows:
    if TYPE_CHECKING:
        _db: Database

    def enqueue(self, kind: str, payload: Any) -> int:
        with self._db.tx() as cur:
            row = cur.execute("INSERT INTO jobs(kind, payload) VALUES(%s, %s) RETURNING id",
                              (kind, Jsonb(payload))).fetchone()
            assert row is not None
            return int(row[0])

    def listen_jobs(self, wake: Callable[[], None]) -> JobListener:
        """``wake()`` whenever jobs are queued, through any process (listen.py)."""
        return JobListener(self._db.url, wake)

    def claim(self, limit: int, owner: str = "local", lease_s: float = 300.0, turns: int = 0) -> list[Job]:
        with self._db.tx() as cur:
            # one claim at a time, each seeing the last one's jobs taken: two claims ranking the
            # same jobs at once would leave the second with none (SKIP LOCKED) though more wait
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (CLAIM_LOCK,))
            # the due jobs round robin across tenants and chats, less the 'turns' jobs whose chat
            # is busy (fair_share.py), then each chat's 'turns' jobs only with the ones before
            # them (chat_order.py)
            order = ranked(NOW, "%(n)s", "%(turns)s", array_length="jsonb_array_length")
            due = dict(cur.execute(
                f"SELECT id, kind FROM jobs WHERE id IN ({order}) AND ((status='pending' AND run_after <= {NOW})"
                f" OR (status='running' AND lease_until <= {NOW})) FOR UPDATE SKIP LOCKED",
                {"n": limit, "turns": turns}).fetchall())
            pairs = cur.execute(earlier("(SELECT unnest(%s::bigint[]))"),
                                ([i for i, kind in due.items() if kind == "turns"],)).fetchall()
            rows = cur.execute(
                f"UPDATE jobs SET status='running', owner=%s, lease_until={NOW} + %s, attempts=attempts+1,"
                f" updated={NOW} WHERE id = ANY(%s) RETURNING id, kind, payload, attempts",
                (owner, lease_s, in_chat_order(due, pairs))).fetchall()
        return [Job(*r) for r in sorted(rows)]

    def renew(self, job_ids: list[int], owner: str, lease_s: float) -> int:
        # still ours even past the lease, until another claim takes it
        with self._db.tx() as cur:
            return cur.execute(f"UPDATE jobs SET lease_until={NOW} + %s WHERE id = ANY(%s) AND owner=%s"
                               " AND status='running'", (lease_s, [int(i) for i in job_ids], owner)).rowcount

    def finish(self, job_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM jobs WHERE id=%s", (job_id,))

    def fail(self, job_id: int, error: str, retry: bool) -> None:
        with self._db.tx() as cur:
            row = cur.execute("SELECT attempts FROM jobs WHERE id=%s FOR UPDATE", (job_id,)).fetchone()
            if row is None:
                return
            cur.execute(f"UPDATE jobs SET status=%(status)s, error=%(error)s, updated={NOW}, owner=NULL,"
                        f" lease_until=NULL, run_after=CASE WHEN %(retry)s THEN {NOW} + %(wait)s ELSE 0 END"
                        " WHERE id=%(id)s", {"status": "pending" if retry else "failed", "error": error[:ERROR_CHARS],
                                            "retry": retry, "wait": backoff_s(row[0]), "id": job_id})

    def requeue_running(self, owner: str | None = None) -> int:
        with self._db.tx() as cur:
            return cur.execute("UPDATE jobs SET status='pending', owner=NULL, lease_until=NULL, run_after=0"
                               " WHERE status='running' AND (%(owner)s::text IS NULL OR owner=%(owner)s)",
                               {"owner": owner}).rowcount

    def dead_jobs(self, tenant_id: str | None = None, *, agent_id: str | None = None,
                  limit: int = 100) -> list[dict[str, Any]]:
        mine, args = jobs_of(tenant_id, agent_id)
        rows = self._db.dicts("SELECT id, kind, payload, attempts, COALESCE(error, '') AS error, updated FROM jobs"
                              f" WHERE status='failed'{mine} ORDER BY updated DESC, id DESC LIMIT %s", [*args, limit])
        return [dict(r) for r in rows]

    def retry_dead(self, job_ids: list[int] | None = None, tenant_id: str | None = None) -> int:
        mine, args = jobs_of(tenant_id)
        if job_ids is not None:
            mine, args = mine + " AND id = ANY(%s)", [*args, [int(i) for i in job_ids]]
        with self._db.tx() as cur:
            return cur.execute(f"UPDATE jobs SET status='pending', attempts=0, error=NULL, run_after=0, updated={NOW}"
                               f" WHERE status='failed'{mine}", args).rowcount

    def pending(self, tenant_id: str | None = None, *, agent_id: str | None = None,
                owner: str | None = None) -> int:
        mine, args = jobs_of(tenant_id, agent_id, owner)
        row = self._db.one(f"SELECT COUNT(*) FROM jobs WHERE status IN ('pending','running'){mine}", args)
        return int(row[0]) if row else 0

    def pending_turns(self, tenant_id: str) -> int:
        row = self._db.one("SELECT turns FROM tenant_backlog WHERE tenant=%s", (tenant_id,))
        return int(row[0]) if row else 0

    def job_queue(self) -> dict[str, tuple[int, float]]:
        rows = self._db.rows("SELECT status, COUNT(*), MIN(created) FROM jobs GROUP BY status")
        return {r[0]: (int(r[1]), float(r[2])) for r in rows}
