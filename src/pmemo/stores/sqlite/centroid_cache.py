"""The cluster centroids of recently read scopes, kept until a write changes that scope's clusters.

Every search and every turn absorbed into the mid-term tier reads its scope's centroids. A
trigger on the writer connection reports each cluster row written or deleted (whatever the
code path: joins, merges, forgets, restores), and a commit moves only those scopes' versions
on and applies the rows to the scopes kept; other tenants' writes leave a scope's entry as it
was. (It was one version for the whole store: at 350k turns in 1,000 scopes, re-reading
centroids after unrelated writes took 22 % of the worker's time; dropping the scope's entry at
each of its own writes, a turn filed after a join read them all again: 16 % at 200k.) A reader
keeps what it read under the version it saw before reading, so a read racing a commit is never
kept as current.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

import numpy as np

from .codec import unblob

Centroids = tuple[list[int], np.ndarray, list[int]]  # cluster ids (ascending), centroid rows, sizes
Row = tuple[bytes, int] | None  # a cluster's centroid and size as written; None: deleted
_REPORT = "pmemo_clusters_changed"
_PUT = f"SELECT {_REPORT}(NEW.scope_key, NEW.id, NEW.centroid, NEW.size);"
_GONE = f"SELECT {_REPORT}(OLD.scope_key, OLD.id, NULL, NULL);"
_TRIGGERS = [
    f"CREATE TEMP TRIGGER IF NOT EXISTS clusters_put AFTER INSERT ON main.clusters BEGIN {_PUT} END",
    "CREATE TEMP TRIGGER IF NOT EXISTS clusters_set AFTER UPDATE OF scope_key, centroid, size"
    f" ON main.clusters BEGIN {_GONE} {_PUT} END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS clusters_gone AFTER DELETE ON main.clusters BEGIN {_GONE} END",
]


def applied(kept: Centroids, rows: dict[int, Row]) -> Centroids | None:
    """``kept`` with the rows a transaction wrote (in id order, as a fresh read has them), or
    None when they do not fit (another dimension: the next read decides)."""
    ids, matrix, sizes = kept
    by_id: dict[int, tuple[np.ndarray, int]] = {cid: (matrix[n], sizes[n]) for n, cid in enumerate(ids)}
    for cid, row in rows.items():
        if row is None:
            by_id.pop(cid, None)
        else:
            by_id[cid] = (unblob(row[0]), row[1])
    order = sorted(by_id)
    if not order:
        return [], np.zeros((0, 0), dtype=np.float32), []
    if len({by_id[cid][0].shape for cid in order}) > 1:
        return None
    new = np.stack([by_id[cid][0] for cid in order])
    new.flags.writeable = False
    return order, new, [by_id[cid][1] for cid in order]


class CentroidCache:
    """``get(scope_key, read)``: the scope's centroids, read with ``read`` when not kept."""

    def __init__(self, max_scopes: int) -> None:
        self.max_scopes = max_scopes
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[int, Centroids]] = {}
        self._versions: dict[str, int] = {}  # scopes written since open; absent: version 0
        self._changed: dict[str, dict[int, Row]] = {}  # by the open write transaction, per scope

    def watch(self, conn: sqlite3.Connection) -> None:
        """Hear of every row written to or deleted from ``conn``'s ``clusters`` table."""
        conn.create_function(_REPORT, 4, self._note, deterministic=False)
        for sql in _TRIGGERS:
            conn.execute(sql)

    def _note(self, scope_key: str, cid: int, centroid: bytes | None, size: int | None) -> None:
        self._changed.setdefault(scope_key, {})[cid] = None if centroid is None else (centroid, int(size or 0))

    def begin(self) -> None:
        """A write transaction starts: what an earlier one noted and did not commit is dropped."""
        self._changed.clear()

    def commit(self) -> None:
        """The transaction committed: the scopes whose clusters it changed move to a new version,
        their kept centroids with the rows it wrote."""
        if not self._changed:
            return
        with self._lock:
            for key, rows in self._changed.items():
                version = self._versions.get(key, 0) + 1
                self._versions[key] = version
                kept = self._kept.pop(key, None)
                new = applied(kept[1], rows) if kept is not None else None
                if new is not None:
                    self._kept[key] = (version, new)
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
