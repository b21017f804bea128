"""The vectors port on PostgreSQL (``stores/vectors_sql.py`` in Postgres's dialect): what is its own
is the search, pgvector's, and counting each scope's rows as they are written.

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
from typing import Any

import numpy as np

from ..sql import Exec
from ..vectors_sql import SQLVectors, VectorCodec, VectorRows, upsert
from . import codec
from .database import Database, lock_key
from .dialect import POSTGRES, PostgresLink

ANN_MIN_ROWS = 20_000  # rows of a scope from which it is searched through HNSW (see above)
ANN_EF_SEARCH = 100  # candidates per step of the graph search (pgvector's default is 40)
ANN_REFRESH_S = 30.0  # how often the scopes another process made approximate are read again


def _matrix(values: list[Any], dim: int) -> np.ndarray:
    mat = np.empty((len(values), dim), dtype=np.float32)
    for i, v in enumerate(values):
        mat[i] = v
    return mat


PGVECTOR = VectorCodec(codec.f32, codec.vector, _matrix)


class PostgresVectors(SQLVectors):
    """``VectorPort`` on PostgreSQL: ``nearest`` exact or through HNSW by the scope's size."""

    ann_min_rows = ANN_MIN_ROWS

    def __init__(self, db: Database) -> None:
        super().__init__(PostgresLink(db), POSTGRES, PGVECTOR)
        self._db = db
        # (kind, model, scope key) of the scopes searched through HNSW, and when they were read
        self._ann_scopes: frozenset[tuple[str, str, str]] = frozenset()
        self._ann_read = 0.0

    def _write(self, x: Exec, kind: str, rows: VectorRows, model: str) -> set[tuple[str, str, str]]:
        large, now = self._count_rows(x, kind, model, Counter(sk for _, sk, _ in rows), len(rows[0][2]))
        upsert(x, self._codec, kind, rows, model, ann=large)
        return {(kind, model, sk) for sk in now}

    def _written(self, scopes: set[tuple[str, str, str]]) -> None:
        if scopes:  # committed: searched through the graph from now on
            self._ann_scopes = self._ann_scopes | scopes

    def _count_rows(self, x: Exec, kind: str, model: str, added: Counter[str], dim: int) -> tuple[set[str], set[str]]:
        """Count the rows written to each scope: the scopes searched through HNSW, and those of
        them that get there now (their rows go into the graph, in this transaction, once)."""
        keys = sorted(added)
        counted = x.rows(  # in key order: two writers lock the counts in the same order
            "INSERT INTO vector_scopes(kind, model, scope_key, rows) SELECT :kind, :model, s.key, s.n"
            " FROM unnest(:keys::text[], :ns::int[]) WITH ORDINALITY AS s(key, n, i) ORDER BY s.i"
            " ON CONFLICT(kind, model, scope_key) DO UPDATE SET rows=vector_scopes.rows+EXCLUDED.rows"
            " RETURNING scope_key, rows, ann", {"kind": kind, "model": model, "keys": keys,
                                                "ns": [added[k] for k in keys]})
        now = {r["scope_key"] for r in counted if not r["ann"] and r["rows"] >= self.ann_min_rows}
        for sk in sorted(now):
            self._go_approximate(x, kind, model, sk, dim)
        return {r["scope_key"] for r in counted if r["ann"]} | now, now

    @staticmethod
    def _go_approximate(x: Exec, kind: str, model: str, scope_key: str, dim: int) -> None:
        x.one("SELECT pg_advisory_xact_lock(:key)", {"key": lock_key("pmemo", "vectors_ann", str(dim))})
        # made while no row is marked: the build reads the table once and indexes nothing
        x.run(f"CREATE INDEX IF NOT EXISTS vectors_ann_{dim} ON vectors USING hnsw"
              f" ((vec::vector({dim})) vector_ip_ops) WHERE ann AND vector_dims(vec) = {dim}")
        where = {"kind": kind, "model": model, "key": scope_key}
        x.run("UPDATE vectors SET ann=true WHERE kind=:kind AND model=:model AND scope_key=:key", where)
        x.run("UPDATE vector_scopes SET ann=true WHERE kind=:kind AND model=:model AND scope_key=:key", where)

    def nearest(self, kind: str, scope_key: str, query: np.ndarray, k: int, model: str) -> list[tuple[int, float]]:
        if k <= 0:
            return []
        vec = codec.f32(query)
        args = {"q": vec, "kind": kind, "model": model, "scope": scope_key, "k": k}
        if (kind, model, scope_key) in self.approximate():
            return self.nearest_ann(args, len(vec))
        # <#> is the negative inner product; equal scores go to the lower id, as on SQLite
        rows = self._db.rows("SELECT ref, -(vec <#> %(q)s) FROM vectors WHERE kind=%(kind)s AND model=%(model)s"
                             " AND scope_key=%(scope)s ORDER BY vec <#> %(q)s, ref LIMIT %(k)s", args)
        return [(r[0], float(r[1])) for r in rows]

    def nearest_ann(self, args: dict[str, Any], dim: int) -> list[tuple[int, float]]:
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

    def approximate(self) -> frozenset[tuple[str, str, str]]:
        """The scopes searched through HNSW, read again every ANN_REFRESH_S (another process
        may have made one approximate; until then this one searches it exactly, rightly)."""
        now = time.monotonic()
        if now - self._ann_read > ANN_REFRESH_S:
            rows = self._db.rows("SELECT kind, model, scope_key FROM vector_scopes WHERE ann")
            self._ann_scopes = frozenset((r[0], r[1], r[2]) for r in rows)
            self._ann_read = now
        return self._ann_scopes
