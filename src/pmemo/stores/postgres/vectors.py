"""Vectors, the embedding cache and the meta table on PostgreSQL (VectorStore, a mixin).

Vectors are pgvector values of any dimension. ``nearest`` answers exactly: the btree
``vectors_scope(kind, model, scope_key)`` finds the scope's rows and they are sorted by inner
product (stored vectors are unit length, so it is their cosine). An approximate index (HNSW)
filters after its search, and with a selective scope it returned 0 of 10 rows (issue 21).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from . import codec
from .database import Database

SCAN_BATCH = 2000


class VectorRows:
    if TYPE_CHECKING:
        _db: Database

    def put_vectors(self, kind: str, rows: list[tuple[int, str, np.ndarray]], model: str) -> None:
        with self._db.tx() as cur:
            cur.executemany(
                "INSERT INTO vectors(kind, ref, scope_key, model, vec) VALUES(%s,%s,%s,%s,%s)"
                " ON CONFLICT(kind, ref) DO UPDATE SET scope_key=EXCLUDED.scope_key, model=EXCLUDED.model,"
                " vec=EXCLUDED.vec", [(kind, int(ref), sk, model, codec.f32(v)) for ref, sk, v in rows])

    def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]:
        rows = self._db.rows("SELECT ref, vec FROM vectors WHERE kind=%s AND ref = ANY(%s)",
                             (kind, [int(r) for r in refs]), binary=True)
        return {r[0]: codec.vector(r[1]) for r in rows}

    def scan_vectors(self, kind: str, model: str) -> Iterator[tuple[int, str, np.ndarray]]:
        """Every vector of a kind and model, read a batch at a time (no connection held between)."""
        last = -(2**63)
        while True:
            rows = self._db.rows("SELECT ref, scope_key, vec FROM vectors WHERE kind=%s AND model=%s"
                                 " AND ref > %s ORDER BY ref LIMIT %s", (kind, model, last, SCAN_BATCH),
                                 binary=True)
            for r in rows:
                yield r[0], r[1], codec.vector(r[2])
            if len(rows) < SCAN_BATCH:
                return
            last = rows[-1][0]

    def scope_vectors(self, kind: str, scope_key: str, model: str) -> tuple[np.ndarray, np.ndarray]:
        rows = self._db.rows("SELECT ref, vec FROM vectors WHERE kind=%s AND model=%s AND scope_key=%s"
                             " ORDER BY ref", (kind, model, scope_key), binary=True)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        mat = np.empty((len(rows), len(rows[0][1]) if rows else 0), dtype=np.float32)
        for i, r in enumerate(rows):
            mat[i] = r[1]
        return ids, mat

    def nearest(self, kind: str, scope_key: str, query: np.ndarray, k: int, model: str) -> list[tuple[int, float]]:
        if k <= 0:
            return []
        # <#> is the negative inner product; equal scores go to the lower id, as on SQLite
        rows = self._db.rows("SELECT ref, -(vec <#> %(q)s) FROM vectors WHERE kind=%(kind)s AND model=%(model)s"
                             " AND scope_key=%(scope)s ORDER BY vec <#> %(q)s, ref LIMIT %(k)s",
                             {"q": codec.f32(query), "kind": kind, "model": model, "scope": scope_key, "k": k})
        return [(r[0], float(r[1])) for r in rows]

    def stale_turns(self, model: str, limit: int) -> list[int]:
        rows = self._db.rows("SELECT t.id FROM turns t LEFT JOIN vectors v ON v.kind='turn' AND v.ref=t.id"
                             " WHERE v.model IS NULL OR v.model<>%s LIMIT %s", (model, limit))
        return [r[0] for r in rows]

    def delete_vectors(self, kind: str, refs: Iterable[int]) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM vectors WHERE kind=%s AND ref = ANY(%s)", (kind, [int(r) for r in refs]))

    def stale_summaries(self, model: str) -> list[int]:
        rows = self._db.rows("SELECT s.id FROM summaries s LEFT JOIN vectors v ON v.kind='summary' AND v.ref=s.id"
                             " WHERE v.model IS NULL OR v.model<>%s", (model,))
        return [r[0] for r in rows]

    def cache_get(self, keys: list[str]) -> dict[str, np.ndarray]:
        rows = self._db.rows("SELECT key, vec FROM embed_cache WHERE key = ANY(%s)", (list(keys),), binary=True)
        return {r[0]: codec.vector(r[1]) for r in rows}

    def cache_put(self, rows: list[tuple[str, np.ndarray]]) -> None:
        with self._db.tx() as cur:
            cur.executemany("INSERT INTO embed_cache(key, vec) VALUES(%s,%s)"
                            " ON CONFLICT(key) DO UPDATE SET vec=EXCLUDED.vec", [(k, codec.f32(v)) for k, v in rows])

    def cache_delete(self, keys: list[str]) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM embed_cache WHERE key = ANY(%s)", (list(keys),))

    def get_meta(self, key: str) -> str | None:
        row = self._db.one("SELECT value FROM meta WHERE key=%s", (key,))
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._db.tx() as cur:
            cur.execute("INSERT INTO meta(key, value) VALUES(%s,%s)"
                        " ON CONFLICT(key) DO UPDATE SET value=EXCLUDED.value", (key, value))

