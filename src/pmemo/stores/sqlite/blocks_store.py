"""What the memory blocks (issue 20) need of the store: a mixin ``SQLiteStore`` inherits.

A group's derived ``human`` block is rewritten when the group's facts change. Facts change by
many paths (extraction, a hand edit, forget, restore, purge, the sweeper); all of them write the
``facts`` table, so triggers on it queue the job, in the same transaction as the change, once
while one is waiting: a burst of changes makes one job, which reads the facts as they are by
then. They are TEMP triggers of the writer connection (every write goes through it), created
by ``queue_on_fact_change`` when the feature is on: a store without blocks never pays for them.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

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


class BlockJobRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def queue_on_fact_change(self, kind: str) -> None:
        """From now on, a change to a group's facts queues a ``kind`` job for that group (payload
        ``{"tenant", "agent", "owner"}``), unless one is already waiting."""
        if not kind.isidentifier():
            raise ValueError(f"job kind {kind!r} must be a plain name")
        with self._tx() as conn:
            for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
                conn.execute(_QUEUE.format(name=f"queue_{kind}_{event.lower()}", event=event, row=row, kind=kind,
                                           now=_NOW))

    def enqueue_once(self, kind: str, payload: Any) -> bool:
        """Queue a job unless the same one (kind and payload) is already waiting; True if queued."""
        text, now = json.dumps(payload, sort_keys=True), time.time()
        with self._tx() as conn:
            cur = conn.execute("INSERT INTO jobs(kind, payload, created, updated) SELECT ?, ?, ?, ? WHERE NOT EXISTS"
                               " (SELECT 1 FROM jobs WHERE status='pending' AND kind=? AND payload=?)",
                               (kind, text, now, now, kind, text))
            return cur.rowcount > 0

    def fact_groups(self) -> Iterator[tuple[str, str, str]]:
        """(tenant, agent, group id) of every group with facts."""
        rows = self._read.execute("SELECT DISTINCT tenant, agent, owner FROM facts"
                                  " WHERE owner LIKE 'g:%' AND deleted IS NULL ORDER BY 1, 2, 3").fetchall()
        return ((r[0], r[1], r[2][2:]) for r in rows)
