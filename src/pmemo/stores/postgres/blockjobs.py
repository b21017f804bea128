"""What the memory blocks (issue 20) need of the store on PostgreSQL (BlockJobStore, a mixin).

A group's derived ``human`` block is rewritten when the group's facts change. Facts change by
many paths; all of them write the ``facts`` table, so triggers on it queue the job in the same
transaction as the change, once while one is waiting (migrations/0021_fact_jobs.sql): a burst of
changes makes one job, which reads the facts as they are by then. ``queue_on_fact_change`` lists
the job kind for those triggers; the SQL function ``enqueue_once`` (0020_people.sql) queues a job
unless the same one waits, under a lock on the pair, so two writers never both queue it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from .database import Database


class BlockJobRows:
    if TYPE_CHECKING:
        _db: Database

    def queue_on_fact_change(self, kind: str) -> None:
        """From now on, a change to a group's facts queues a ``kind`` job for that group (payload
        ``{"tenant", "agent", "owner"}``), unless one is already waiting. It holds for every
        process on this database, as the triggers are the database's."""
        if not kind.isidentifier():
            raise ValueError(f"job kind {kind!r} must be a plain name")
        with self._db.tx() as cur:
            cur.execute("INSERT INTO fact_job_kinds(kind) VALUES(%s) ON CONFLICT DO NOTHING", (kind,))

    def enqueue_once(self, kind: str, payload: Any) -> bool:
        """Queue a job unless the same one (kind and payload) is already waiting; True if queued."""
        with self._db.tx() as cur:
            row = cur.execute("SELECT enqueue_once(%s, %s)", (kind, Jsonb(payload))).fetchone()
            return bool(row and row[0])

    def fact_groups(self) -> Iterator[tuple[str, str, str]]:
        """(tenant, agent, group id) of every group with facts."""
        rows = self._db.rows("SELECT DISTINCT tenant, agent, owner FROM facts"
                             " WHERE owner LIKE 'g:%%' AND deleted IS NULL ORDER BY 1, 2, 3")
        return ((r[0], r[1], r[2][2:]) for r in rows)
