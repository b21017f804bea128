"""The job port (``ports.jobs.JobPort``) in SQL, written once for SQLite and Postgres.

What each backend keeps (``sqlite/jobs.py``, ``postgres/jobs.py``): which due jobs a claim
ranks and locks (``_due``: one writer on SQLite; an advisory lock and ``FOR UPDATE SKIP
LOCKED`` on Postgres, over the same fair-share ranking, fair_share.py), how a job is queued
once (a statement under SQLite's one writer; Postgres's ``enqueue_once`` function, under a
lock on the pair), the triggers a fact change queues its job with, and on Postgres the
wake-ups (LISTEN/NOTIFY, ``JobSignals``). The clock differs too: SQLite's process time (one
process holds the file), Postgres's database clock, which every worker shares (``clock``: an
SQL expression, ``:now`` for the time of the call).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from ..ports.jobs import Job
from .base import backoff_s
from .chat_order import earlier, in_chat_order
from .sql import Args, Dialect, Exec, Link

ERROR_CHARS = 2000  # of a failed job's error, kept


def payload_of(value: Any) -> Any:
    """A job's JSON payload as the driver gives it (text on SQLite, parsed on Postgres)."""
    return json.loads(value) if isinstance(value, str) else value


def jobs_of(tenant_id: str | None, agent_id: str | None = None, owner: str | None = None) -> tuple[str, Args]:
    """`` AND id IN (…)`` for the jobs about a tenant's (an agent's, an owner's) rows, and its
    arguments; nothing for all jobs.

    >>> jobs_of("t1", owner="u:ann")[1]
    {'tenant': 't1', 'owner': 'u:ann'}
    """
    filters = {col: value for col, value in (("tenant", tenant_id), ("agent", agent_id), ("owner", owner))
               if value is not None}
    if not filters:
        return "", {}
    where = " AND ".join(f"s.{col}=:{col}" for col in filters)
    return f" AND id IN (SELECT s.job FROM job_scopes s WHERE {where})", filters


class SQLJobs:
    """``JobPort`` over a backend's ``Link`` in its ``Dialect``; ``clock`` is the SQL for now in
    epoch seconds. A backend gives ``_due``, ``enqueue_once`` and ``queue_on_fact_change``."""

    def __init__(self, link: Link, dialect: Dialect, clock: str = ":now") -> None:
        self._link = link
        self._d = dialect
        self._clock = clock

    def _due(self, x: Exec, limit: int, turns: int) -> dict[int, str]:
        """The due jobs a claim may take (id → kind), ranked fairly (fair_share.py) and held
        against other claims until the transaction ends."""
        raise NotImplementedError

    def enqueue(self, kind: str, payload: Any) -> int:
        with self._link.write() as x:
            row = x.one(f"INSERT INTO jobs(kind, payload, created, updated) VALUES(:kind,"
                        f" {self._d.cast(':payload', 'jsonb')}, {self._clock}, {self._clock}) RETURNING id",
                        {"kind": kind, "payload": json.dumps(payload), "now": time.time()})
        assert row is not None
        return int(row["id"])

    def claim(self, limit: int, owner: str = "local", lease_s: float = 300.0, turns: int = 0) -> list[Job]:
        with self._link.write() as x:
            # the due jobs round robin across tenants and chats, less the 'turns' jobs whose chat
            # is busy (fair_share.py), then each chat's 'turns' jobs only with the ones before
            # them (chat_order.py)
            due = self._due(x, limit, turns)
            pairs = x.rows(earlier(self._d.each("ids")),
                           {"ids": self._d.ids(i for i, kind in due.items() if kind == "turns")})
            taken = in_chat_order(due, [(r["job"], r["prior"]) for r in pairs])
            if not taken:
                return []
            rows = x.rows(f"UPDATE jobs SET status='running', owner=:owner, lease_until={self._clock} + :lease,"
                          f" attempts=attempts+1, updated={self._clock} WHERE {self._d.in_('id', 'ids')}"
                          " RETURNING id, kind, payload, attempts",
                          {"owner": owner, "lease": lease_s, "ids": self._d.ids(taken), "now": time.time()})
        return sorted((Job(r["id"], r["kind"], payload_of(r["payload"]), r["attempts"]) for r in rows),
                      key=lambda job: job.id)

    def renew(self, job_ids: list[int], owner: str, lease_s: float) -> int:
        # still ours even past the lease, until another claim takes it
        with self._link.write() as x:
            return x.run(f"UPDATE jobs SET lease_until={self._clock} + :lease WHERE {self._d.in_('id', 'ids')}"
                         " AND owner=:owner AND status='running'",
                         {"lease": lease_s, "ids": self._d.ids(job_ids), "owner": owner, "now": time.time()})

    def finish(self, job_id: int) -> None:
        with self._link.write() as x:
            x.run("DELETE FROM jobs WHERE id=:id", {"id": job_id})

    def fail(self, job_id: int, error: str, retry: bool) -> None:
        with self._link.write() as x:
            row = x.one(f"SELECT attempts FROM jobs WHERE id=:id{self._d.lock}", {"id": job_id})
            if row is None:
                return
            due = f"{self._clock} + :wait" if retry else "0"
            x.run(f"UPDATE jobs SET status=:status, error=:error, updated={self._clock}, owner=NULL,"
                  f" lease_until=NULL, run_after={due} WHERE id=:id",
                  {"status": "pending" if retry else "failed", "error": error[:ERROR_CHARS],
                   "wait": backoff_s(row["attempts"]), "id": job_id, "now": time.time()})

    def requeue_running(self, owner: str | None = None) -> int:
        with self._link.write() as x:
            return x.run("UPDATE jobs SET status='pending', owner=NULL, lease_until=NULL, run_after=0"
                         f" WHERE status='running' AND ({self._d.cast(':owner', 'text')} IS NULL OR owner=:owner)",
                         {"owner": owner})

    def dead_jobs(self, tenant_id: str | None = None, *, agent_id: str | None = None,
                  limit: int = 100) -> list[dict[str, Any]]:
        mine, args = jobs_of(tenant_id, agent_id)
        with self._link.read() as x:
            rows = x.rows("SELECT id, kind, payload, attempts, COALESCE(error, '') AS error, updated FROM jobs"
                          f" WHERE status='failed'{mine} ORDER BY updated DESC, id DESC LIMIT :limit",
                          {**args, "limit": limit})
        return [{**dict(r), "payload": payload_of(r["payload"])} for r in rows]

    def retry_dead(self, job_ids: list[int] | None = None, tenant_id: str | None = None) -> int:
        mine, args = jobs_of(tenant_id)
        if job_ids is not None:
            mine, args = f"{mine} AND {self._d.in_('id', 'ids')}", {**args, "ids": self._d.ids(job_ids)}
        with self._link.write() as x:
            return x.run("UPDATE jobs SET status='pending', attempts=0, error=NULL, run_after=0,"
                         f" updated={self._clock} WHERE status='failed'{mine}", {**args, "now": time.time()})

    def pending(self, tenant_id: str | None = None, *, agent_id: str | None = None,
                owner: str | None = None) -> int:
        mine, args = jobs_of(tenant_id, agent_id, owner)
        with self._link.read() as x:
            row = x.one(f"SELECT COUNT(*) AS n FROM jobs WHERE status IN ('pending','running'){mine}", args)
        return int(row["n"]) if row else 0

    def pending_turns(self, tenant_id: str) -> int:
        with self._link.read() as x:
            row = x.one("SELECT turns FROM tenant_backlog WHERE tenant=:tenant", {"tenant": tenant_id})
        return int(row["turns"]) if row else 0

    def job_queue(self) -> dict[str, tuple[int, float]]:
        with self._link.read() as x:
            rows = x.rows("SELECT status, COUNT(*) AS n, MIN(created) AS oldest FROM jobs GROUP BY status")
        return {r["status"]: (int(r["n"]), float(r["oldest"])) for r in rows}

    def fact_groups(self) -> Iterator[tuple[str, str, str]]:
        with self._link.read() as x:
            rows = x.rows("SELECT DISTINCT tenant, agent, owner FROM facts WHERE owner LIKE :groups"
                          " AND deleted IS NULL ORDER BY 1, 2, 3", {"groups": "g:%"})
        return ((r["tenant"], r["agent"], r["owner"][2:]) for r in rows)

