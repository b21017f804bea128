"""The job port on SQLite (``SQLiteJobs``): what is its own beside the shared SQL (jobs_sql.py).

One process holds the file and every write goes through its one writer, so a claim needs no
lock of its own: it ranks the due jobs (fair_share.py) and takes them in the same write
transaction. A group's derived ``human`` block is rewritten when the group's facts change.
Facts change by many paths (extraction, a hand edit, forget, restore, purge, the sweeper); all
of them write the ``facts`` table, so triggers on it queue the job, in the same transaction as
the change, once while one is waiting: a burst of changes makes one job, which reads the facts
as they are by then. They are TEMP triggers of the writer connection (every write goes through
it), created by ``queue_on_fact_change`` when the feature is on: a store without blocks never
pays for them.
"""

from __future__ import annotations

import json
import time
from typing import Any

from ..fair_share import ranked
from ..jobs_sql import SQLJobs
from ..sql import Exec

_NOW = "(julianday('now') - 2440587.5) * 86400.0"  # seconds since 1970, as the jobs table keeps time
_QUEUE = """
CREATE TEMP TRIGGER IF NOT EXISTS {name} AFTER {event} ON main.facts WHEN {row}.owner LIKE 'g:%'
BEGIN
    INSERT INTO jobs(kind, payload, created, updated)
        SELECT '{kind}', p, {now}, {now}
        FROM (SELECT json_object('tenant', {row}.tenant, 'agent', {row}.agent, 'owner', {row}.owner) AS p)
        WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE status = 'pending' AND kind = '{kind}' AND payload = p);
END;
"""


class SQLiteJobs(SQLJobs):
    def _due(self, x: Exec, limit: int, turns: int) -> dict[int, str]:
        order = ranked(":now", ":n", ":turns", array_length="json_array_length")
        return {r["id"]: r["kind"] for r in x.rows(f"SELECT id, kind FROM jobs WHERE id IN ({order})",
                                                   {"now": time.time(), "n": limit, "turns": turns})}

    def queue_on_fact_change(self, kind: str) -> None:
        """From now on, a change to a group's facts queues a ``kind`` job for that group (payload
        ``{"tenant", "agent", "owner"}``), unless one is already waiting."""
        if not kind.isidentifier():
            raise ValueError(f"job kind {kind!r} must be a plain name")
        with self._link.write() as x:
            for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
                x.run(_QUEUE.format(name=f"queue_{kind}_{event.lower()}", event=event, row=row, kind=kind, now=_NOW))

    def enqueue_once(self, kind: str, payload: Any) -> bool:
        """Queue a job unless the same one (kind and payload) is already waiting; True if queued."""
        with self._link.write() as x:
            return x.run("INSERT INTO jobs(kind, payload, created, updated) SELECT :kind, :payload, :now, :now"
                         " WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE status='pending' AND kind=:kind"
                         " AND payload=:payload)",
                         {"kind": kind, "payload": json.dumps(payload, sort_keys=True), "now": time.time()}) > 0
