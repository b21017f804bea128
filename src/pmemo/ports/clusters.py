"""The clusters port: the mid-term tier's groups of similar turns, each with its centroid, its
member turns (a turn is in one cluster at most), its hit count and whether it was promoted to a
key line.

A store gives it as ``store.clusters``. It imports only the models: a centroid is a float32
vector (numpy's, which a port does not import), unit length as the embedder gives it. One
contract suite (tests/contract/test_store_contract.py, the clusters) runs it on SQLite and
Postgres.

>>> store.clusters.nearest_clusters(scope, query, 3)  # doctest: +SKIP
[(12, 0.91), (4, 0.73), (9, 0.70)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from ..models import Cluster, Scope

# (hits, seconds since the last hit) → what is left of them: the caller's decay policy, which
# the store applies inside the transaction that adds the hit (pmemo.decay.decayed, usually)
HitDecay = Callable[[float, float], float]


class ClusterPort(Protocol):
    def add_cluster(self, scope: Scope, centroid: Any, member_ids: list[int], label: str) -> int:
        """A new cluster of the owner ``scope`` with its members (taken from any cluster they were in)."""
        ...

    def save_cluster(self, cluster_id: int, centroid: Any, member_ids: list[int], label: str) -> None:
        """A cluster rebuilt: its centroid, label and members become these."""
        ...

    def delete_cluster(self, cluster_id: int) -> None: ...

    def of_scope(self, scope: Scope) -> list[Cluster]:
        """The owner ``scope``'s clusters, most hits first (then by id)."""
        ...

    def get_cluster(self, cluster_id: int) -> Cluster | None: ...

    def centroids(self, scope: Scope) -> tuple[list[int], Any, list[int]]:
        """The scope's cluster ids (ascending), centroids (a matrix, a row each, read-only) and sizes."""
        ...

    def nearest_clusters(self, scope: Scope, query: Any, k: int) -> list[tuple[int, float]]:
        """The ``k`` clusters of ``scope`` whose centroids have the highest inner product with
        ``query`` (equal ones: the lower id first), with it; none of another size."""
        ...

    def cluster_of(self, turn_ids: Iterable[int]) -> dict[int, int]:
        """Turn id → the cluster it is in, for those of ``turn_ids`` in one."""
        ...

    def merge_clusters(self, keep: int, gone: int, centroid: Any, label: str | None) -> None:
        """Fold cluster ``gone`` into ``keep``: members, provenance and hits move over (nothing
        happens when ``gone`` is gone already); ``label`` None keeps ``keep``'s."""
        ...

    def join_cluster(self, cluster_id: int, turn_id: int, centroid: Any, label: str | None) -> bool:
        """Add a member; False (and nothing written) when the cluster is gone."""
        ...

    def add_hits(self, cluster_ids: list[int], now: float, decay: HitDecay) -> dict[int, float]:
        """One hit each on top of what ``decay(hits, now - last hit)`` leaves of the old count, read
        and written in one transaction so that concurrent hits add up; returns id → hits of those
        that exist. How hits fade is the caller's policy: the store only keeps count."""
        ...

    def is_promoted(self, cluster_id: int) -> bool: ...
    def mark_promoted(self, cluster_id: int) -> None: ...

    def clusters_with(self, turn_ids: list[int]) -> list[Cluster]:
        """The clusters one of ``turn_ids`` is a source of, by id."""
        ...

    def reset_clusters(self) -> list[int]:
        """Drop every cluster (their centroids belong to an old embedder); return the members, by id."""
        ...
