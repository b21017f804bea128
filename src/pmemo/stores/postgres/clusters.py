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
        with self._db.tx() as cur:
            row = cur.execute(
                "INSERT INTO clusters(scope_key, tenant, agent, owner, centroid, size, label, updated)"
                " VALUES(%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, codec.f32(centroid), len(member_ids),
                 label, time.time())).fetchone()
            assert row is not None
            self._write_members(cur, row[0], member_ids)
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

    def cluster_of(self, turn_ids: Iterable[int]) -> dict[int, int]:
        if not (wanted := [int(t) for t in turn_ids]):
            return {}
        rows = self._db.rows("SELECT turn_id, cluster_id FROM cluster_members WHERE turn_id = ANY(%s)", (wanted,))
        return {r[0]: r[1] for r in rows}

    def merge_clusters(self, keep: int, gone: int, centroid: np.ndarray, label: str | None) -> None:
        """Fold cluster ``gone`` into ``keep``: members, provenance and hits move over."""
        with self._db.tx() as cur:
            row = cur.execute("SELECT size, hits FROM clusters WHERE id=%s FOR UPDATE", (gone,)).fetchone()
            if row is None:
                return
            cur.execute("UPDATE cluster_members SET cluster_id=%s WHERE cluster_id=%s", (keep, gone))
            cur.execute("INSERT INTO sources(kind, ref, turn_id) SELECT 'cluster', %s, turn_id FROM sources"
                        " WHERE kind='cluster' AND ref=%s ON CONFLICT DO NOTHING", (keep, gone))
            cur.execute("DELETE FROM sources WHERE kind='cluster' AND ref=%s", (gone,))
            cur.execute("UPDATE clusters SET centroid=%s, size=size+%s, hits=hits+%s, label=COALESCE(%s, label),"
                        " updated=%s WHERE id=%s", (codec.f32(centroid), row[0], row[1], label, time.time(), keep))
            cur.execute("DELETE FROM clusters WHERE id=%s", (gone,))

    def join_cluster(self, cluster_id: int, turn_id: int, centroid: np.ndarray, label: str | None) -> bool:
        with self._db.tx() as cur:
            if not cur.execute("UPDATE clusters SET centroid=%s, size=size+1, label=COALESCE(%s, label), updated=%s"
                               " WHERE id=%s", (codec.f32(centroid), label, time.time(), cluster_id)).rowcount:
                return False
            cur.execute("INSERT INTO cluster_members(turn_id, cluster_id) VALUES(%s,%s)"
                        " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=EXCLUDED.cluster_id", (turn_id, cluster_id))
            cur.execute("INSERT INTO sources(kind, ref, turn_id) VALUES('cluster',%s,%s) ON CONFLICT DO NOTHING",
                        (cluster_id, turn_id))
            return True

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

