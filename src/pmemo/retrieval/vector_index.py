"""In-memory vector index per scope: a rebuildable cache over the vectors in the store.

Exact numpy search below ``faiss_min`` vectors; FAISS HNSW above (deleted ids are
filtered out and the graph is rebuilt once a fifth of it is dead).
"""

from __future__ import annotations

import threading

import numpy as np


class ScopeIndex:
    def __init__(self, dim: int, faiss_min: int) -> None:
        self.dim = dim
        self.faiss_min = faiss_min
        self._ids = np.zeros(0, dtype=np.int64)
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._pending: list[tuple[int, np.ndarray]] = []
        self._dead: set[int] = set()
        self._hnsw = None
        self._hnsw_size = 0

    def __len__(self) -> int:
        return len(self._ids) + len(self._pending) - len(self._dead)

    def add(self, ref: int, vec: np.ndarray) -> None:
        self._dead.discard(ref)
        self._pending.append((ref, np.asarray(vec, dtype=np.float32)))

    def remove(self, ref: int) -> None:
        self._dead.add(ref)

    def _flush(self) -> None:
        if self._pending:
            new_ids = np.fromiter((r for r, _ in self._pending), dtype=np.int64)
            keep = ~np.isin(self._ids, new_ids)
            self._ids = np.concatenate([self._ids[keep], new_ids])
            self._mat = np.vstack([self._mat[keep], np.stack([v for _, v in self._pending])])
            self._pending.clear()
            self._hnsw = None if self._hnsw is not None and not keep.all() else self._hnsw
        if self._dead and (len(self._dead) * 5 > len(self._ids) or self._hnsw is None):
            keep = ~np.isin(self._ids, np.fromiter(self._dead, dtype=np.int64))
            self._ids, self._mat = self._ids[keep], self._mat[keep]
            self._dead.clear()
            self._hnsw = None

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        self._flush()
        n = len(self._ids)
        if n == 0:
            return []
        if n < self.faiss_min:
            sims = self._mat @ query
            k = min(k, n)
            top = np.argpartition(-sims, k - 1)[:k]
            top = top[np.argsort(-sims[top], kind="stable")]
            return [(int(self._ids[i]), float(sims[i])) for i in top if int(self._ids[i]) not in self._dead]
        return self._search_hnsw(query, k)

    def _search_hnsw(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        import faiss

        if self._hnsw is None or self._hnsw_size < len(self._ids):
            if self._hnsw is None:
                index = faiss.IndexHNSWFlat(self.dim, 32, faiss.METRIC_INNER_PRODUCT)
                index.hnsw.efConstruction = 80
                index.add(self._mat)
                self._hnsw = index
            else:
                self._hnsw.add(self._mat[self._hnsw_size :])
            self._hnsw_size = len(self._ids)
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

    def size(self, scope_key: str) -> int:
        with self._lock:
            index = self._scopes.get(scope_key)
            return len(index) if index is not None else 0


class Indexes:
    """The vector caches a memory keeps: one over turns, one over summaries."""

    def __init__(self, dim: int, faiss_min: int = 20_000) -> None:
        self.turns = VectorIndex(dim, faiss_min)
        self.summaries = VectorIndex(dim, faiss_min)
