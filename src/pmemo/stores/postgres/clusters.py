"""The clusters port on PostgreSQL (``stores/clusters_sql.py`` in Postgres's dialect): what is its
own is where a query meets the centroids, in the database (pgvector orders them: the k nearest
come back, not every centroid of the scope), and the three writes of an ingest (a new cluster, a
join, a merge) as one statement each with writing CTEs (one round trip, as atomic as the
transaction of five to eight the shared module runs on SQLite). Nothing is cached between reads:
other processes write to the same database, so every read asks it."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...models import Scope
from ..clusters_sql import SQLClusters
from . import codec
from .database import Database
from .dialect import POSTGRES, PostgresLink

_ADD = ("WITH c AS (INSERT INTO clusters(scope_key, tenant, agent, owner, centroid, size, label, updated)"
        " VALUES(:key, :tenant, :agent, :owner, :centroid, :size, :label, :at) RETURNING id),"
        " m AS (INSERT INTO cluster_members(turn_id, cluster_id) SELECT t, c.id FROM c, unnest(:members::bigint[]) t"
        " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id),"
        " s AS (INSERT INTO sources(kind, ref, turn_id)"
        " SELECT 'cluster', c.id, t FROM c, unnest(:members::bigint[]) t ON CONFLICT DO NOTHING)"
        " SELECT id FROM c")
_MERGE = ("WITH g AS (DELETE FROM clusters WHERE id=:gone RETURNING size, hits),"
          " m AS (UPDATE cluster_members SET cluster_id=:keep WHERE cluster_id=:gone AND EXISTS (SELECT 1 FROM g)),"
          " s AS (DELETE FROM sources WHERE kind='cluster' AND ref=:gone AND EXISTS (SELECT 1 FROM g)"
          " RETURNING turn_id),"
          " i AS (INSERT INTO sources(kind, ref, turn_id) SELECT 'cluster', :keep, turn_id FROM s"
          " ON CONFLICT DO NOTHING),"
          " k AS (UPDATE clusters SET centroid=:centroid, size=clusters.size+g.size, hits=clusters.hits+g.hits,"
          " label=COALESCE(:label, label), updated=:at FROM g WHERE id=:keep)"
          " SELECT count(*) AS n FROM g")
_JOIN = ("WITH j AS (UPDATE clusters SET centroid=:centroid, size=size+1, label=COALESCE(:label, label),"
         " updated=:at WHERE id=:id RETURNING id),"
         " m AS (INSERT INTO cluster_members(turn_id, cluster_id) SELECT :turn, id FROM j"
         " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id),"
         " s AS (INSERT INTO sources(kind, ref, turn_id) SELECT 'cluster', id, :turn FROM j"
         " ON CONFLICT DO NOTHING) SELECT count(*) AS n FROM j")
NEAREST = ("SELECT id, -(centroid <#> %(q)s) FROM clusters WHERE scope_key=%(s)s"
           " AND vector_dims(centroid) = %(dim)s ORDER BY centroid <#> %(q)s, id LIMIT %(k)s")


class PostgresClusters(SQLClusters):
    def __init__(self, db: Database) -> None:
        super().__init__(PostgresLink(db), POSTGRES, codec.f32)
        self._db = db

    def add_cluster(self, scope: Scope, centroid: Any, member_ids: list[int], label: str) -> int:
        with self._link.write() as x:
            row = x.one(_ADD, {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id,
                               "owner": scope.owner, "centroid": codec.f32(centroid), "size": len(member_ids),
                               "label": label, "at": time.time(),
                               "members": list(dict.fromkeys(int(t) for t in member_ids))})
        assert row is not None
        return int(row["id"])

    def merge_clusters(self, keep: int, gone: int, centroid: Any, label: str | None) -> None:
        with self._link.write() as x:
            x.one(_MERGE, {"keep": keep, "gone": gone, "centroid": codec.f32(centroid), "label": label,
                           "at": time.time()})

    def join_cluster(self, cluster_id: int, turn_id: int, centroid: Any, label: str | None) -> bool:
        with self._link.write() as x:
            row = x.one(_JOIN, {"centroid": codec.f32(centroid), "label": label, "at": time.time(), "id": cluster_id,
                                "turn": turn_id})
        return bool(row and row["n"])

    def centroids(self, scope: Scope) -> tuple[list[int], np.ndarray, list[int]]:
        # binary: no text of every centroid to parse (the worker reads a scope's for each batch)
        rows = self._db.rows("SELECT id, centroid, size FROM clusters WHERE scope_key=%s ORDER BY id", (scope.key,),
                             binary=True)
        matrix = (np.stack([codec.vector(r[1]) for r in rows]) if rows else np.zeros((0, 0), dtype=np.float32))
        return [r[0] for r in rows], matrix, [r[2] for r in rows]

    def nearest_clusters(self, scope: Scope, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        if k <= 0:
            return []
        rows = self._db.rows(NEAREST, {"q": codec.f32(query), "s": scope.key, "dim": len(query), "k": k})
        return [(r[0], float(r[1])) for r in rows]
