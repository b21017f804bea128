"""The cluster centroids of recently read scopes, kept until a write changes that scope's clusters.

Every search and every turn absorbed into the mid-term tier reads its scope's centroids. A
trigger on the writer connection reports each cluster row written or deleted (whatever the
code path: joins, merges, forgets, restores), and a commit moves only those scopes' versions
on; other tenants' writes leave a scope's entry good. (It was one version for the whole store:
at 350k turns in 1,000 scopes, re-reading centroids after unrelated writes took 22 % of the
worker's time.) A reader keeps what it read under the version it saw before reading, so a
read racing a commit is never kept as current.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

import numpy as np

Centroids = tuple[list[int], np.ndarray, list[int]]  # cluster ids, centroid rows, sizes
_REPORT = "pmemo_clusters_changed"
_TRIGGERS = [
    f"CREATE TEMP TRIGGER IF NOT EXISTS clusters_put AFTER INSERT ON main.clusters"
    f" BEGIN SELECT {_REPORT}(NEW.scope_key); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS clusters_set AFTER UPDATE OF scope_key, centroid, size ON main.clusters"
    f" BEGIN SELECT {_REPORT}(OLD.scope_key); SELECT {_REPORT}(NEW.scope_key); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS clusters_gone AFTER DELETE ON main.clusters"
    f" BEGIN SELECT {_REPORT}(OLD.scope_key); END",
]


class CentroidCache:
    """``get(scope_key, read)``: the scope's centroids, read with ``read`` when not kept."""

    def __init__(self, max_scopes: int) -> None:
        self.max_scopes = max_scopes
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[int, Centroids]] = {}
        self._versions: dict[str, int] = {}  # scopes written since open; absent: version 0
        self._changed: set[str] = set()  # by the open write transaction

    def watch(self, conn: sqlite3.Connection) -> None:
        """Hear of every row written to or deleted from ``conn``'s ``clusters`` table."""
        conn.create_function(_REPORT, 1, self._changed.add)
        for sql in _TRIGGERS:
            conn.execute(sql)

    def begin(self) -> None:
        """A write transaction starts: what an earlier one noted and did not commit is dropped."""
        self._changed.clear()

    def commit(self) -> None:
        """The transaction committed: the scopes whose clusters it changed read afresh."""
        if not self._changed:
            return
        with self._lock:
            for key in self._changed:
                self._versions[key] = self._versions.get(key, 0) + 1
                self._kept.pop(key, None)
        self._changed.clear()

    def get(self, scope_key: str, read: Callable[[], Centroids]) -> Centroids:
        with self._lock:
            version = self._versions.get(scope_key, 0)
            kept = self._kept.get(scope_key)
        if kept is not None and kept[0] == version:
            return kept[1]
        found = read()
        with self._lock:
            if self._versions.get(scope_key, 0) == version:  # no commit of its clusters meanwhile
                if len(self._kept) >= self.max_scopes:
                    self._kept.pop(next(iter(self._kept)))  # the oldest kept
                self._kept[scope_key] = (version, found)
        return found
