"""Mid-term clusters on PostgreSQL: centroids, members, hits (the cluster part of DerivedStore).

Unlike SQLite's store, nothing is cached between reads: other processes write to the same
database, so every read asks it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np
import psycopg

from ...models import Cluster, Scope
from ..base import HitDecay
from . import codec
from .provenance import SourceRows


class ClusterRows(SourceRows):
    def add_cluster(self, scope: Scope, centroid: np.ndarray, member_ids: list[int], label: str) -> int:
        """One statement (one round trip; it is atomic as a transaction of five was)."""
        members = list(dict.fromkeys(int(t) for t in member_ids))
        row = self._db.one(
            "WITH c AS (INSERT INTO clusters(scope_key, tenant, agent, owner, centroid, size, label, updated)"
            " VALUES(%(key)s, %(tenant)s, %(agent)s, %(owner)s, %(centroid)s, %(size)s, %(label)s, %(at)s)"
            " RETURNING id),"
            " m AS (INSERT INTO cluster_members(turn_id, cluster_id)"
            " SELECT t, c.id FROM c, unnest(%(members)s::bigint[]) t"
            " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id),"
            " s AS (INSERT INTO sources(kind, ref, turn_id)"
            " SELECT 'cluster', c.id, t FROM c, unnest(%(members)s::bigint[]) t ON CONFLICT DO NOTHING)"
            " SELECT id FROM c",
            {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
             "centroid": codec.f32(centroid), "size": len(member_ids), "label": label, "at": time.time(),
             "members": members})
        assert row is not None
        return int(row[0])

    def _write_members(self, cur: psycopg.Cursor[Any], cid: int, member_ids: list[int]) -> None:
        cur.execute("DELETE FROM cluster_members WHERE cluster_id=%s", (cid,))
        cur.execute("INSERT INTO cluster_members(turn_id, cluster_id) SELECT t, %s FROM unnest(%s::bigint[]) t"
                    " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id",
                    (cid, list(dict.fromkeys(int(t) for t in member_ids))))
        self._set_sources(cur, "cluster", cid, member_ids)

    def save_cluster(self, cluster_id: int, centroid: np.ndarray, member_ids: list[int], label: str) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE clusters SET centroid=%s, size=%s, label=%s, updated=%s WHERE id=%s",
                        (codec.f32(centroid), len(member_ids), label, time.time(), cluster_id))
            self._write_members(cur, cluster_id, member_ids)

    def delete_cluster(self, cluster_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM clusters WHERE id=%s", (cluster_id,))
            cur.execute("DELETE FROM cluster_members WHERE cluster_id=%s", (cluster_id,))
            cur.execute("DELETE FROM sources WHERE kind='cluster' AND ref=%s", (cluster_id,))

    def _with_members(self, rows: list[dict[str, Any]]) -> list[Cluster]:
        """Clusters of these rows, each with its member turns (one read for all)."""
        members: dict[int, list[int]] = {}
        for cid, turn_id in self._db.rows("SELECT cluster_id, turn_id FROM cluster_members"
                                          " WHERE cluster_id = ANY(%s) ORDER BY turn_id", ([r["id"] for r in rows],)):
            members.setdefault(cid, []).append(turn_id)
        return [codec.cluster(r, tuple(members.get(r["id"], ()))) for r in rows]

    def clusters(self, scope: Scope) -> list[Cluster]:
        return self._with_members(self._db.dicts("SELECT * FROM clusters WHERE scope_key=%s ORDER BY hits DESC, id",
                                                 (scope.key,)))

    def get_cluster(self, cluster_id: int) -> Cluster | None:
        return next(iter(self._with_members(self._rows_by_id("clusters", [cluster_id]))), None)

    def centroids(self, scope: Scope) -> tuple[list[int], np.ndarray, list[int]]:
        """The scope's cluster ids, centroids (rows) and sizes."""
        rows = self._db.rows("SELECT id, centroid, size FROM clusters WHERE scope_key=%s ORDER BY id", (scope.key,),
                             binary=True)
        matrix = (np.stack([codec.vector(r[1]) for r in rows]) if rows else np.zeros((0, 0), dtype=np.float32))
        return [r[0] for r in rows], matrix, [r[2] for r in rows]

    def nearest_clusters(self, scope: Scope, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        if k <= 0:
            return []
        # the k nearest only come back, not every centroid of the scope (3.3 ms a search at 1M)
        rows = self._db.rows("SELECT id, -(centroid <#> %(q)s) FROM clusters WHERE scope_key=%(s)s"
                             " AND vector_dims(centroid) = %(dim)s ORDER BY centroid <#> %(q)s, id LIMIT %(k)s",
                             {"q": codec.f32(query), "s": scope.key, "dim": len(query), "k": k})
        return [(r[0], float(r[1])) for r in rows]

    def cluster_of(self, turn_ids: Iterable[int]) -> dict[int, int]:
        if not (wanted := [int(t) for t in turn_ids]):
            return {}
        rows = self._db.rows("SELECT turn_id, cluster_id FROM cluster_members WHERE turn_id = ANY(%s)", (wanted,))
        return {r[0]: r[1] for r in rows}

    def merge_clusters(self, keep: int, gone: int, centroid: np.ndarray, label: str | None) -> None:
        """Fold cluster ``gone`` into ``keep``: members, provenance and hits move over (one
        statement; nothing happens when ``gone`` is gone already)."""
        self._db.one(
            "WITH g AS (DELETE FROM clusters WHERE id=%(gone)s RETURNING size, hits),"
            " m AS (UPDATE cluster_members SET cluster_id=%(keep)s WHERE cluster_id=%(gone)s"
            " AND EXISTS (SELECT 1 FROM g)),"
            " s AS (DELETE FROM sources WHERE kind='cluster' AND ref=%(gone)s AND EXISTS (SELECT 1 FROM g)"
            " RETURNING turn_id),"
            " i AS (INSERT INTO sources(kind, ref, turn_id) SELECT 'cluster', %(keep)s, turn_id FROM s"
            " ON CONFLICT DO NOTHING),"
            " k AS (UPDATE clusters SET centroid=%(centroid)s, size=clusters.size+g.size, hits=clusters.hits+g.hits,"
            " label=COALESCE(%(label)s, label), updated=%(at)s FROM g WHERE id=%(keep)s)"
            " SELECT count(*) FROM g",
            {"keep": keep, "gone": gone, "centroid": codec.f32(centroid), "label": label, "at": time.time()})

    def join_cluster(self, cluster_id: int, turn_id: int, centroid: np.ndarray, label: str | None) -> bool:
        """One statement, as ``add_cluster``: the member and its provenance only if the cluster is there."""
        row = self._db.one(
            "WITH j AS (UPDATE clusters SET centroid=%(centroid)s, size=size+1, label=COALESCE(%(label)s, label),"
            " updated=%(at)s WHERE id=%(id)s RETURNING id),"
            " m AS (INSERT INTO cluster_members(turn_id, cluster_id) SELECT %(turn)s, id FROM j"
            " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id),"
            " s AS (INSERT INTO sources(kind, ref, turn_id) SELECT 'cluster', id, %(turn)s FROM j"
            " ON CONFLICT DO NOTHING) SELECT count(*) FROM j",
            {"centroid": codec.f32(centroid), "label": label, "at": time.time(), "id": cluster_id, "turn": turn_id})
        return bool(row and row[0])

    def add_hits(self, cluster_ids: list[int], now: float, decay: HitDecay) -> dict[int, float]:
        out = {}
        with self._db.tx() as cur:
            for cid in sorted(cluster_ids):  # rows locked in one order: concurrent searches never deadlock
                row = cur.execute("SELECT hits, hits_at FROM clusters WHERE id=%s FOR UPDATE", (cid,)).fetchone()
                if row:
                    out[cid] = decay(row[0], now - row[1]) + 1.0
                    cur.execute("UPDATE clusters SET hits=%s, hits_at=%s WHERE id=%s", (out[cid], now, cid))
        return out

    def is_promoted(self, cluster_id: int) -> bool:
        row = self._db.one("SELECT promoted FROM clusters WHERE id=%s", (cluster_id,))
        return bool(row and row[0])

    def mark_promoted(self, cluster_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE clusters SET promoted=true WHERE id=%s", (cluster_id,))

    def clusters_with(self, turn_ids: list[int]) -> list[Cluster]:
        return self._with_members(self._rows_by_id("clusters", self._refs_with("cluster", turn_ids)))

    def reset_clusters(self) -> list[int]:
        """Drop every cluster (their centroids belong to an old embedder); return the members."""
        with self._db.tx() as cur:
            members = [r[0] for r in cur.execute("SELECT turn_id FROM cluster_members ORDER BY turn_id")]
            cur.execute("DELETE FROM clusters")
            cur.execute("DELETE FROM cluster_members")
            cur.execute("DELETE FROM sources WHERE kind='cluster'")
            return members

