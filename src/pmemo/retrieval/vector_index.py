"""In-memory vector index per scope: a rebuildable cache over the vectors in the store.

Exact numpy search below ``faiss_min`` vectors; FAISS HNSW above (deleted ids are
filtered out and the graph is rebuilt once a fifth of it is dead). Rows live in buffers
that grow geometrically, so new vectors are appended in place: a search after an add does
not copy the whole matrix.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np


class ScopeIndex:
    def __init__(self, dim: int, faiss_min: int) -> None:
        self.dim = dim
        self.faiss_min = faiss_min
        self._n = 0  # rows in use; the buffers below may be longer
        self._ids = np.zeros(0, dtype=np.int64)
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._row: dict[int, int] = {}
        self._pending: list[tuple[int, np.ndarray]] = []
        self._dead: set[int] = set()
        self._hnsw: Any = None  # a faiss.IndexHNSWFlat, built on the first large search
        self._hnsw_size = 0

    def __len__(self) -> int:
        self._flush()
        return self._n - len(self._dead)

    def add(self, ref: int, vec: np.ndarray) -> None:
        self._dead.discard(ref)
        self._pending.append((ref, np.asarray(vec, dtype=np.float32)))

    def remove(self, ref: int) -> None:
        self._dead.add(ref)

    def _flush(self) -> None:
        if self._pending:
            latest = dict(self._pending)  # a ref added twice keeps its last vector
            self._pending.clear()
            replaced = {r for r in latest if r in self._row}
            if replaced:  # re-embedded (another model, a restore): the old rows go
                self._drop(replaced)
            self._append(np.fromiter(latest, dtype=np.int64, count=len(latest)),
                         np.stack(list(latest.values())))
        if self._dead and (len(self._dead) * 5 > self._n or self._hnsw is None):
            self._drop(self._dead & self._row.keys())
            self._dead.clear()

    def _append(self, ids: np.ndarray, rows: np.ndarray) -> None:
        end = self._n + len(ids)
        if end > len(self._ids):
            size = max(end, len(self._ids) * 5 // 4, 256)  # amortised O(1) per row
            self._ids = np.concatenate([self._ids[: self._n], np.zeros(size - self._n, np.int64)])
            mat = np.zeros((size, self.dim), dtype=np.float32)
            mat[: self._n] = self._mat[: self._n]
            self._mat = mat
        self._ids[self._n : end] = ids
        self._mat[self._n : end] = rows
        self._row.update((int(r), self._n + i) for i, r in enumerate(ids))
        self._n = end

    def _drop(self, refs: set[int]) -> None:
        """Remove rows (O(n), and the HNSW graph is rebuilt): rare, amortised by ``_dead``."""
        if not refs:
            return
        keep = ~np.isin(self._ids[: self._n], np.fromiter(refs, dtype=np.int64, count=len(refs)))
        ids, mat = self._ids[: self._n][keep], self._mat[: self._n][keep]
        self._n = 0
        self._ids, self._mat, self._row = ids[:0], mat[:0], {}
        self._append(ids, mat)
        self._hnsw = None

    def vectors(self, refs: list[int]) -> tuple[list[int], np.ndarray]:
        """The stored vectors of ``refs`` that are here (ids, rows), in the order asked."""
        self._flush()
        found = [r for r in refs if r in self._row and r not in self._dead]
        return found, self._mat[[self._row[r] for r in found]]

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        self._flush()
        n = self._n
        if n == 0:
            return []
        if n < self.faiss_min:
            sims = self._mat[:n] @ query
            k = min(k, n)
            top = np.argpartition(-sims, k - 1)[:k]
            top = top[np.argsort(-sims[top], kind="stable")]
            return [(int(self._ids[i]), float(sims[i])) for i in top if int(self._ids[i]) not in self._dead]
        return self._search_hnsw(query, k)

    def _search_hnsw(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        import faiss

        if self._hnsw is None or self._hnsw_size < self._n:
            if self._hnsw is None:
                index = faiss.IndexHNSWFlat(self.dim, 32, faiss.METRIC_INNER_PRODUCT)
                index.hnsw.efConstruction = 80
                index.add(self._mat[: self._n])
                self._hnsw = index
            else:
                self._hnsw.add(self._mat[self._hnsw_size : self._n])
            self._hnsw_size = self._n
            self._hnsw.hnsw.efSearch = 128
        sims, rows = self._hnsw.search(query.reshape(1, -1), k + len(self._dead))
        out = []
        for sim, row in zip(sims[0], rows[0], strict=True):
            if row < 0:
                continue
            ref = int(self._ids[row])
            if ref not in self._dead:
                out.append((ref, float(sim)))
        return out[:k]


class VectorIndex:
    """Scope key → ScopeIndex; thread-safe."""

    def __init__(self, dim: int, faiss_min: int = 20_000) -> None:
        self.dim = dim
        self.faiss_min = faiss_min
        self._scopes: dict[str, ScopeIndex] = {}
        self._lock = threading.Lock()
        self._where: dict[int, str] = {}

    def add(self, scope_key: str, ref: int, vec: np.ndarray) -> None:
        with self._lock:
            index = self._scopes.setdefault(scope_key, ScopeIndex(self.dim, self.faiss_min))
            index.add(ref, vec)
            self._where[ref] = scope_key

    def remove(self, ref: int) -> None:
        with self._lock:
            scope_key = self._where.pop(ref, None)
            if scope_key is not None:
                self._scopes[scope_key].remove(ref)

    def search(self, scope_key: str, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        with self._lock:
            index = self._scopes.get(scope_key)
            return index.search(query, k) if index is not None else []

    def vectors(self, scope_key: str, refs: list[int]) -> tuple[list[int], np.ndarray]:
        """The vectors of ``refs`` in that scope (ids found, rows): no database read."""
        with self._lock:
            index = self._scopes.get(scope_key)
            if index is None:
                return [], np.zeros((0, self.dim), dtype=np.float32)
            return index.vectors(refs)

    def size(self, scope_key: str) -> int:
        with self._lock:
            index = self._scopes.get(scope_key)
            return len(index) if index is not None else 0


class Indexes:
    """The vector caches a memory keeps: one over turns, one over summaries."""

    def __init__(self, dim: int, faiss_min: int = 20_000) -> None:
        self.turns = VectorIndex(dim, faiss_min)
        self.summaries = VectorIndex(dim, faiss_min)
