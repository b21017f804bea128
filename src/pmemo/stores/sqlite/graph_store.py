"""The graph port on SQLite (``stores/graph_sql.py`` in SQLite's dialect): what is SQLite's
own is the ``insights`` job's queueing, counted in ``meta`` in the write that queues it. The
store's one writer serialises the graph's writes, so two learning jobs make one entity of a
new name.
"""

from __future__ import annotations

import json
import time

from ...models import Scope
from ..graph_sql import SQLGraph


class SQLiteGraph(SQLGraph):
    def queue_insights(self, scope: Scope, person: str, new: int, every: int) -> bool:
        key = f"insight:{scope.key}:{person}"
        payload = json.dumps({"tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                              "person": person})
        with self._link.write() as x:
            row = x.one("SELECT value FROM meta WHERE key=:key", {"key": key})
            count = (int(row["value"]) if row else 0) + new
            due = count >= every
            x.run("INSERT OR REPLACE INTO meta(key, value) VALUES(:key, :value)",
                  {"key": key, "value": str(0 if due else count)})
            waiting = x.one("SELECT 1 FROM jobs WHERE kind='insights' AND status='pending' AND payload=:payload",
                            {"payload": payload})
            if due and waiting is None:
                now = time.time()
                x.run("INSERT INTO jobs(kind, payload, created, updated) VALUES('insights', :payload, :now, :now)",
                      {"payload": payload, "now": now})
        return due and waiting is None
