"""The clusters port (``ports.clusters.ClusterPort``) in SQL, written once for SQLite and Postgres.

What is each backend's: how a centroid is stored (a float32 blob; a pgvector ``vector``: the
store passes its encoder) and where a query meets the centroids (``centroids`` and
``nearest_clusters``: SQLite ranks its cached centroids in numpy, ``sqlite/clusters.py``;
Postgres orders them with pgvector, ``postgres/clusters.py``, which also writes a cluster, a join
and a merge in one statement each with writing CTEs SQLite has not). Where the two differed, one
is kept for both: hits are added in id order with the rows locked (``Dialect.lock``), members are
written once each, ``clusters_with`` is by id.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..models import Cluster, Scope
from ..ports.clusters import HitDecay
from .sql import Dialect, Exec, Link, Row, add_sources, drop, refs_with, set_sources

Vector = Callable[[Any], Any]  # a centroid as the backend stores it
COLUMNS = "id, tenant, agent, owner, size, hits, label, updated"  # what a Cluster shows: not the centroid


def cluster_from(row: Row, members: tuple[int, ...]) -> Cluster:
    return Cluster(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), row["size"], row["hits"],
                   row["label"], members, datetime.fromtimestamp(row["updated"], UTC))


class SQLClusters:
    """``ClusterPort`` over a backend's ``Link`` in its ``Dialect``, less where a query meets the
    centroids (``centroids``, ``nearest_clusters``), which each backend gives."""

    def __init__(self, link: Link, dialect: Dialect, vector: Vector) -> None:
        self._link = link
        self._d = dialect
        self._vector = vector

    def add_cluster(self, scope: Scope, centroid: Any, member_ids: list[int], label: str) -> int:
        with self._link.write() as x:
            row = x.one("INSERT INTO clusters(scope_key, tenant, agent, owner, centroid, size, label, updated)"
                        " VALUES(:key, :tenant, :agent, :owner, :centroid, :size, :label, :at) RETURNING id",
                        {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                         "centroid": self._vector(centroid), "size": len(member_ids), "label": label,
                         "at": time.time()})
            assert row is not None
            self._write_members(x, int(row["id"]), member_ids)
            return int(row["id"])

    def _write_members(self, x: Exec, cid: int, member_ids: list[int]) -> None:
        x.run("DELETE FROM cluster_members WHERE cluster_id=:id", {"id": cid})
        x.run(f"INSERT INTO cluster_members(turn_id, cluster_id) SELECT e.v, :id FROM {self._d.each('turns')} AS e"
              " WHERE TRUE ON CONFLICT(turn_id) DO UPDATE SET cluster_id=excluded.cluster_id",
              {"id": cid, "turns": self._d.ids(dict.fromkeys(int(t) for t in member_ids))})
        set_sources(x, self._d, "cluster", cid, member_ids)

    def save_cluster(self, cluster_id: int, centroid: Any, member_ids: list[int], label: str) -> None:
        with self._link.write() as x:
            x.run("UPDATE clusters SET centroid=:centroid, size=:size, label=:label, updated=:at WHERE id=:id",
                  {"centroid": self._vector(centroid), "size": len(member_ids), "label": label, "at": time.time(),
                   "id": cluster_id})
            self._write_members(x, cluster_id, member_ids)

    def delete_cluster(self, cluster_id: int) -> None:
        with self._link.write() as x:
            drop(x, "clusters", "cluster", cluster_id)
            x.run("DELETE FROM cluster_members WHERE cluster_id=:id", {"id": cluster_id})

    def of_scope(self, scope: Scope) -> list[Cluster]:
        with self._link.read() as x:
            rows = x.rows(f"SELECT {COLUMNS} FROM clusters WHERE scope_key=:key ORDER BY hits DESC, id",
                          {"key": scope.key})
            return self._with_members(x, rows)

    def get_cluster(self, cluster_id: int) -> Cluster | None:
        with self._link.read() as x:
            return next(iter(self._by_id(x, [cluster_id])), None)

    def cluster_of(self, turn_ids: Iterable[int]) -> dict[int, int]:
        if not (wanted := [int(t) for t in turn_ids]):
            return {}
        with self._link.read() as x:
            return {r["turn_id"]: r["cluster_id"] for r in x.rows(
                f"SELECT turn_id, cluster_id FROM cluster_members WHERE {self._d.in_('turn_id', 'turns')}",
                {"turns": self._d.ids(wanted)})}

    def merge_clusters(self, keep: int, gone: int, centroid: Any, label: str | None) -> None:
        with self._link.write() as x:
            row = x.one(f"SELECT size, hits FROM clusters WHERE id=:gone{self._d.lock}", {"gone": gone})
            if row is None:
                return
            args = {"keep": keep, "gone": gone}
            x.run("UPDATE cluster_members SET cluster_id=:keep WHERE cluster_id=:gone", args)
            x.run("INSERT INTO sources(kind, ref, turn_id) SELECT 'cluster', :keep, turn_id FROM sources"
                  " WHERE kind='cluster' AND ref=:gone ON CONFLICT DO NOTHING", args)
            x.run("DELETE FROM sources WHERE kind='cluster' AND ref=:gone", args)
            x.run("UPDATE clusters SET centroid=:centroid, size=size+:size, hits=hits+:hits,"
                  " label=COALESCE(:label, label), updated=:at WHERE id=:keep",
                  {**args, "centroid": self._vector(centroid), "size": row["size"], "hits": row["hits"],
                   "label": label, "at": time.time()})
            x.run("DELETE FROM clusters WHERE id=:gone", args)

    def join_cluster(self, cluster_id: int, turn_id: int, centroid: Any, label: str | None) -> bool:
        with self._link.write() as x:
            if not x.run("UPDATE clusters SET centroid=:centroid, size=size+1, label=COALESCE(:label, label),"
                         " updated=:at WHERE id=:id",
                         {"centroid": self._vector(centroid), "label": label, "at": time.time(), "id": cluster_id}):
                return False
            x.run("INSERT INTO cluster_members(turn_id, cluster_id) VALUES(:turn, :id)"
                  " ON CONFLICT(turn_id) DO UPDATE SET cluster_id=excluded.cluster_id",
                  {"turn": turn_id, "id": cluster_id})
            add_sources(x, self._d, "cluster", cluster_id, [turn_id])
            return True

    def add_hits(self, cluster_ids: list[int], now: float, decay: HitDecay) -> dict[int, float]:
        out = {}
        with self._link.write() as x:
            for cid in sorted(cluster_ids):  # rows locked in one order: concurrent searches never deadlock
                row = x.one(f"SELECT hits, hits_at FROM clusters WHERE id=:id{self._d.lock}", {"id": cid})
                if row:
                    out[cid] = decay(row["hits"], now - row["hits_at"]) + 1.0
                    x.run("UPDATE clusters SET hits=:hits, hits_at=:now WHERE id=:id",
                          {"hits": out[cid], "now": now, "id": cid})
        return out

    def is_promoted(self, cluster_id: int) -> bool:
        with self._link.read() as x:
            row = x.one("SELECT promoted FROM clusters WHERE id=:id", {"id": cluster_id})
        return bool(row and row["promoted"])

    def mark_promoted(self, cluster_id: int) -> None:
        with self._link.write() as x:
            x.run(f"UPDATE clusters SET promoted={self._d.true} WHERE id=:id", {"id": cluster_id})

    def clusters_with(self, turn_ids: list[int]) -> list[Cluster]:
        with self._link.read() as x:
            return self._by_id(x, refs_with(x, self._d, "cluster", turn_ids))

    def reset_clusters(self) -> list[int]:
        with self._link.write() as x:
            members = [r["turn_id"] for r in x.rows("SELECT turn_id FROM cluster_members ORDER BY turn_id")]
            x.run("DELETE FROM clusters")
            x.run("DELETE FROM cluster_members")
            x.run("DELETE FROM sources WHERE kind='cluster'")
            return members

    def _by_id(self, x: Exec, ids: list[int]) -> list[Cluster]:
        # members, not sources: a deleted turn leaves its cluster's members at once
        if not ids:
            return []
        rows = {r["id"]: r for r in x.rows(f"SELECT {COLUMNS} FROM clusters WHERE {self._d.in_('id', 'ids')}",
                                           {"ids": self._d.ids(ids)})}
        return self._with_members(x, [rows[i] for i in ids if i in rows])

    def _with_members(self, x: Exec, rows: Sequence[Row]) -> list[Cluster]:
        """Clusters of these rows, each with its member turns (one read for all)."""
        members: dict[int, list[int]] = {}
        if rows:
            for r in x.rows(f"SELECT cluster_id, turn_id FROM cluster_members WHERE {self._d.in_('cluster_id', 'ids')}"
                            " ORDER BY turn_id", {"ids": self._d.ids(r["id"] for r in rows)}):
                members.setdefault(r["cluster_id"], []).append(r["turn_id"])
        return [cluster_from(r, tuple(members.get(r["id"], ()))) for r in rows]
