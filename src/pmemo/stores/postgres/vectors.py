"""Vectors, the embedding cache and the meta table on PostgreSQL (VectorStore, a mixin).

Vectors are pgvector values of any dimension. ``nearest`` chooses by the scope's size:

- below ``ANN_MIN_ROWS`` rows, exactly: the btree ``vectors_scope(kind, model, scope_key)`` finds
  the scope's rows and they are sorted by inner product (stored vectors are unit length, so it is
  their cosine). The query's ``vec <#> q`` cannot use an HNSW index (those are on the expression
  ``vec::vector(dim)``), so the planner never takes a graph for a small scope: with a 1%-selective
  scope HNSW filters after its search and returned 0 of 10 rows (issue 21).
- from ``ANN_MIN_ROWS`` on, the scope's rows are marked ``ann`` and searched through the HNSW
  index of their dimension with ``hnsw.iterative_scan = relaxed_order`` (the scan goes on until
  ``k`` rows of the scope are found) — approximate, as FAISS is on SQLite past faiss_min_vectors.

bench/pg_vectors.py, 200k rows of 384-d clustered vectors on this 2-core machine (busy), p50 of
30 queries, recall@10 against the exact answer::

    scope rows  share  exact ms  hnsw ms recall  iterative ms recall
          1000   0.5%      0.22     5.18   0.02          60.56   0.86
          3000   1.5%      0.47     4.47   0.05          16.50   0.99
         10000   5.0%      3.98     4.06   0.17           8.12   0.97
         30000  15.0%     18.28     5.16   0.54           7.10   0.92
         60000  30.0%     29.33     3.84   0.79           5.12   0.84

Exact wins up to ~10k rows, iterative HNSW from ~30k: the switch is at 20k. An HNSW index over
every row would cost each insert 8.5 ms instead of 0.03 ms, so only large scopes' rows are in it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg

from .. import parts
from . import codec
from .database import Database, lock_key

SCAN_BATCH = 2000
ANN_MIN_ROWS = 20_000  # rows of a scope from which it is searched through HNSW (see above)
ANN_EF_SEARCH = 100  # candidates per step of the graph search (pgvector's default is 40)
ANN_REFRESH_S = 30.0  # how often the scopes another process made approximate are read again


class VectorRows:
    if TYPE_CHECKING:
        _db: Database

    # (kind, model, scope key) of the scopes searched through HNSW, and when they were read
    ann_min_rows = ANN_MIN_ROWS
    _ann_scopes: frozenset[tuple[str, str, str]] = frozenset()
    _ann_read = 0.0

    def put_vectors(self, kind: str, rows: list[tuple[int, str, np.ndarray]], model: str) -> None:
        if not rows:
            return
        with self._db.tx() as cur:
            now = self._write_vectors(cur, kind, rows, model)
        if now:  # committed: searched through the graph from now on
            self._ann_scopes = self._ann_scopes | {(kind, model, sk) for sk in now}

    def put_parts(self, rows: list[tuple[int, str, np.ndarray]], model: str) -> None:
        flat = [(parts.ref(turn_id, i), sk, v) for turn_id, sk, mat in rows if len(mat) > 1
                for i, v in enumerate(mat)]
        with self._db.tx() as cur:  # the old parts go by their key range (stores/parts.py)
            cur.executemany("DELETE FROM vectors WHERE kind=%s AND ref BETWEEN %s AND %s",
                            [(parts.KIND, *parts.span(int(turn_id))) for turn_id, _, _ in rows])
            now = self._write_vectors(cur, parts.KIND, flat, model) if flat else set()
        if now:
            self._ann_scopes = self._ann_scopes | {(parts.KIND, model, sk) for sk in now}

    def _write_vectors(self, cur: psycopg.Cursor[Any], kind: str, rows: list[tuple[int, str, np.ndarray]],
                       model: str) -> set[str]:
        """Write ``rows`` in the caller's transaction; returns the scopes that became approximate."""
        large, now = self._count_rows(cur, kind, model, Counter(sk for _, sk, _ in rows), len(rows[0][2]))
        cur.executemany(
            "INSERT INTO vectors(kind, ref, scope_key, model, vec, ann) VALUES(%s,%s,%s,%s,%s,%s)"
            " ON CONFLICT(kind, ref) DO UPDATE SET scope_key=EXCLUDED.scope_key, model=EXCLUDED.model,"
            " vec=EXCLUDED.vec, ann=EXCLUDED.ann",
            [(kind, int(ref), sk, model, codec.f32(v), sk in large) for ref, sk, v in rows])
        return now

    def _count_rows(self, cur: psycopg.Cursor[Any], kind: str, model: str, added: Counter[str],
                    dim: int) -> tuple[set[str], set[str]]:
        """Count the rows written to each scope: the scopes searched through HNSW, and those of
        them that get there now (their rows go into the graph, in this transaction, once)."""
        cur.executemany(  # in key order: two writers lock the counts in the same order
            "INSERT INTO vector_scopes(kind, model, scope_key, rows) VALUES(%s,%s,%s,%s)"
            " ON CONFLICT(kind, model, scope_key) DO UPDATE SET rows=vector_scopes.rows+EXCLUDED.rows"
            " RETURNING scope_key, rows, ann", [(kind, model, sk, added[sk]) for sk in sorted(added)],
            returning=True)
        counted = []
        while True:
            counted.extend(cur.fetchall())
            if not cur.nextset():
                break
        now = {sk for sk, count, ann in counted if not ann and count >= self.ann_min_rows}
        for sk in sorted(now):
            self._go_approximate(cur, kind, model, sk, dim)
        return {sk for sk, _, ann in counted if ann} | now, now

    def _go_approximate(self, cur: psycopg.Cursor[Any], kind: str, model: str, scope_key: str, dim: int) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("pmemo", "vectors_ann", str(dim)),))
        # made while no row is marked: the build reads the table once and indexes nothing
        cur.execute(f"CREATE INDEX IF NOT EXISTS vectors_ann_{dim} ON vectors USING hnsw"
                    f" ((vec::vector({dim})) vector_ip_ops) WHERE ann AND vector_dims(vec) = {dim}")
        cur.execute("UPDATE vectors SET ann=true WHERE kind=%s AND model=%s AND scope_key=%s",
                    (kind, model, scope_key))
        cur.execute("UPDATE vector_scopes SET ann=true WHERE kind=%s AND model=%s AND scope_key=%s",
                    (kind, model, scope_key))

    def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]:
        if not (wanted := [int(r) for r in refs]):
            return {}  # every candidate was a nearest one: its cosine is known
        rows = self._db.rows("SELECT ref, vec FROM vectors WHERE kind=%s AND ref = ANY(%s)",
                             (kind, wanted), binary=True)
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
        vec = codec.f32(query)
        args = {"q": vec, "kind": kind, "model": model, "scope": scope_key, "k": k}
        if (kind, model, scope_key) in self._approximate():
            return self._nearest_ann(args, len(vec))
        # <#> is the negative inner product; equal scores go to the lower id, as on SQLite
        rows = self._db.rows("SELECT ref, -(vec <#> %(q)s) FROM vectors WHERE kind=%(kind)s AND model=%(model)s"
                             " AND scope_key=%(scope)s ORDER BY vec <#> %(q)s, ref LIMIT %(k)s", args)
        return [(r[0], float(r[1])) for r in rows]

    def _nearest_ann(self, args: dict[str, Any], dim: int) -> list[tuple[int, float]]:
        """A large scope's nearest through the HNSW index of its dimension; the iterative scan
        goes on past the first ``ef_search`` rows until ``k`` of the scope are found."""
        with self._db.tx() as cur:
            cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            cur.execute(f"SET LOCAL hnsw.ef_search = {ANN_EF_SEARCH}")
            cur.execute(f"SELECT ref, -(vec::vector({dim}) <#> %(q)s::vector({dim})) FROM vectors"
                        f" WHERE ann AND vector_dims(vec) = {dim} AND kind=%(kind)s AND model=%(model)s"
                        f" AND scope_key=%(scope)s ORDER BY vec::vector({dim}) <#> %(q)s::vector({dim})"
                        f" LIMIT %(k)s", args)
            found = [(r[0], float(r[1])) for r in cur.fetchall()]
        return sorted(found, key=lambda hit: (-hit[1], hit[0]))  # relaxed order: nearly sorted

    def _approximate(self) -> frozenset[tuple[str, str, str]]:
        """The scopes searched through HNSW, read again every ANN_REFRESH_S (another process
        may have made one approximate; until then this one searches it exactly, rightly)."""
        now = time.monotonic()
        if now - self._ann_read > ANN_REFRESH_S:
            rows = self._db.rows("SELECT kind, model, scope_key FROM vector_scopes WHERE ann")
            self._ann_scopes = frozenset((r[0], r[1], r[2]) for r in rows)
            self._ann_read = now
        return self._ann_scopes

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

