"""The graph port on PostgreSQL (``stores/graph_sql.py`` in Postgres's dialect). What is its
own: triples of one tenant's agent are written under a transaction lock on it, so two jobs
learning the same statement or naming the same new entity at once make one triple, one entity;
and the ``insights`` job is queued by ``enqueue_once``, the count's row lock holding a
concurrent count of the same person back until it commits.
"""

from __future__ import annotations

from psycopg.types.json import Jsonb

from ...models import Scope
from ..graph_sql import SQLGraph
from ..sql import Exec
from .database import lock_key


class PostgresGraph(SQLGraph):
    def _lock(self, x: Exec, scope: Scope) -> None:
        x.one("SELECT pg_advisory_xact_lock(:key)", {"key": lock_key("graph", scope.tenant_id, scope.agent_id)})

    def queue_insights(self, scope: Scope, person: str, new: int, every: int) -> bool:
        key = f"insight:{scope.key}:{person}"
        payload = {"tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner, "person": person}
        with self._link.write() as x:
            row = x.one("INSERT INTO meta(key, value) VALUES(:key, :new) ON CONFLICT(key) DO UPDATE"
                        " SET value=(meta.value::bigint + EXCLUDED.value::bigint)::text RETURNING value",
                        {"key": key, "new": str(new)})
            assert row is not None
            if int(row["value"]) < every:
                return False
            x.run("UPDATE meta SET value='0' WHERE key=:key", {"key": key})
            queued = x.one("SELECT enqueue_once('insights', :payload) AS queued", {"payload": Jsonb(payload)})
            return bool(queued and queued["queued"])
