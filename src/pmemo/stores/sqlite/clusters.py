"""The clusters port on SQLite (``stores/clusters_sql.py`` in SQLite's dialect): what is its own is
where a query meets the centroids. Every search and every turn absorbed reads a scope's
centroids, so they are kept in memory until a write changes that scope's clusters
(``centroid_cache.py``), and ranked against the query in numpy."""

from __future__ import annotations

import numpy as np

from ...models import Scope
from ..clusters_sql import SQLClusters
from ..sql import Dialect, Link
from . import codec
from .centroid_cache import CentroidCache, Centroids


class SQLiteClusters(SQLClusters):
    def __init__(self, link: Link, dialect: Dialect, cache: CentroidCache) -> None:
        super().__init__(link, dialect, codec.blob)
        self._cache = cache

    def centroids(self, scope: Scope) -> Centroids:
        def read() -> Centroids:
            with self._link.read() as x:
                rows = x.rows("SELECT id, centroid, size FROM clusters WHERE scope_key=:key ORDER BY id",
                              {"key": scope.key})
            matrix = (np.stack([codec.unblob(r["centroid"]) for r in rows]) if rows
                      else np.zeros((0, 0), dtype=np.float32))
            matrix.flags.writeable = False
            return [r["id"] for r in rows], matrix, [r["size"] for r in rows]

        return self._cache.get(scope.key, read)

    def nearest_clusters(self, scope: Scope, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        ids, centroids, _ = self.centroids(scope)
        if not ids or centroids.shape[1] != query.shape[0]:
            return []
        sims = centroids @ query
        return [(ids[int(i)], float(sims[int(i)])) for i in np.argsort(-sims, kind="stable")[:k]]
