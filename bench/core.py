"""Core speed: add() latency, search latency over 100k turns, ingest vs embedder throughput.

Usage: python bench/core.py [--turns 100000] [--queries 200] [--out bench_out/core.json]

Each number is printed beside a baseline measured in the same run:
- add(): p50/p95 of the acknowledged, durable write (embedding happens after);
  baseline: a bare SQLite INSERT+commit of the same row in WAL mode.
- search over N turns in one scope: pmemo's fused search (lexical + vector + clusters +
  summaries), with the real e5 query embedding and without it (a hashing query embedder,
  ~0.1 ms); baseline: plain BM25 over turns (one FTS5 bm25 query on the same table, the
  same query texts). The first search after loading reads the scope's vectors from the store and
  builds its HNSW graph (FAISS above PMEMO_FAISS_MIN_VECTORS); it is reported apart (first_search_s).
  The N turns come from bench/corpus.py: Zipf-distributed words over a ~27k-word English
  and Chinese vocabulary, so query terms have posting lists of natural length (see its
  docstring for why). Their stored vectors are 384-d rows made by ``BenchEmbedder``
  (each turn's topic centroid plus noise; embedding 100k turns with e5 would take
  hours): their count, shape and clustering are what costs time, not their meaning.
- ingest: turns/s of add()+drain() with the default e5 embedder vs e5's own batch
  throughput on the same texts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import tempfile
import time
import zlib
from importlib import resources
from pathlib import Path

import corpus
import numpy as np

from pmemo import Memory, Settings
from pmemo.embedders.base import normalise
from pmemo.embedders.e5 import E5Embedder
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.text.segment import query_terms


class BenchEmbedder:
    """Cheap passage vectors: the topic centroid of a corpus turn plus noise seeded by the
    text (cosine ~0.7 to the centroid, ~0.5 between turns of a topic, ~0 across topics, as
    real embeddings cluster); a real e5 or a hashing query embedding."""

    cluster_threshold = 0.4

    def __init__(self, real_queries: bool, topics: dict[str, int] | None = None) -> None:
        self._hash = HashingEmbedder(384)
        self._e5 = E5Embedder() if real_queries else None
        self._topics = topics or {}
        self._centroids = normalise(np.random.default_rng(0).standard_normal((corpus.TOPICS, 384)))
        self.dim = 384
        self.model_id = "bench-topics-384"

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        rows = []
        for text in texts:
            rng = np.random.default_rng(zlib.crc32(text.encode()))
            noise = rng.standard_normal(384) / 384**0.5
            topic = self._topics.get(text)
            rows.append(noise if topic is None else self._centroids[topic] + noise)
        return normalise(np.asarray(rows, dtype=np.float32).reshape(len(texts), 384))

    def embed_query(self, text: str) -> np.ndarray:
        return self._e5.embed_query(text) if self._e5 else self._hash.embed_query(text)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000


async def bench_add(n: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        mem = await Memory.open(d, embedder="hashing")
        texts = [t.text for t in corpus.generate(n)]
        lat = []
        for i, text in enumerate(texts):
            t0 = time.perf_counter()
            await mem.add(user_id="u", session_id=f"s{i // 200}", content=text)
            lat.append(time.perf_counter() - t0)
        await mem.close()
    with tempfile.TemporaryDirectory() as d:
        conn = sqlite3.connect(Path(d) / "b.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, c TEXT)")
        base = []
        for text in texts:
            t0 = time.perf_counter()
            conn.execute("INSERT INTO t(s, c) VALUES(?, ?)", ("s", text))
            base.append(time.perf_counter() - t0)
        conn.close()
    return {"n": n, "add_p50_ms": pct(lat, 50), "add_p95_ms": pct(lat, 95),
            "baseline_sqlite_insert_p50_ms": pct(base, 50)}


async def bench_search(n: int, queries: int) -> dict:
    qs = [q["question"] for q in json.loads(
        resources.files("pmemo").joinpath("data/sample_questions.json").read_text("utf-8"))]
    out: dict = {"turns": n}
    with tempfile.TemporaryDirectory() as d:
        settings = Settings(short_term_turns=20, summary_every=10)
        turns = corpus.generate(n)
        topics = {t.text: t.topic for t in turns}
        mem = await Memory.open(d, settings=settings, embedder=BenchEmbedder(False, topics))
        t0 = time.perf_counter()
        for start in range(0, n, 1000):
            await mem.add_many([{"user_id": "u", "session_id": t.session, "content": t.text,
                                 "timestamp": t.timestamp} for t in turns[start : start + 1000]])
        await mem.drain()
        out["load_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await mem.search("warm-up", user_id="u", limit=10)  # builds the HNSW graph once
        out["first_search_s"] = time.perf_counter() - t0
        # a fresh text each time: a repeated query would hit the query-vector cache
        texts = [f"{qs[i % len(qs)]} (q{i})" for i in range(queries)]
        for label, real in (("without_embedding", False), ("with_e5_query_embedding", True)):
            mem._embed.embedder = BenchEmbedder(real, topics)  # noqa: SLF001 - bench only
            mem._embed._queries.clear()  # noqa: SLF001 - the other run's query vectors
            lat = []
            for text in texts:
                t1 = time.perf_counter()
                await mem.search(text, user_id="u", limit=10)
                lat.append(time.perf_counter() - t1)
            out[f"search_{label}_p50_ms"] = pct(lat, 50)
            out[f"search_{label}_p95_ms"] = pct(lat, 95)
        db = sqlite3.connect(Path(d) / "pmemo.db")
        from pmemo.stores.sqlite import fts

        token = fts.scope_token("default|default|u:u")
        lat = []
        for text in texts:
            terms = list(query_terms(text))
            t1 = time.perf_counter()
            db.execute("SELECT rowid FROM turns_fts WHERE turns_fts MATCH ?"
                       " ORDER BY bm25(turns_fts) LIMIT 10", (fts.match(token, terms),)).fetchall()
            lat.append(time.perf_counter() - t1)
        out["baseline_bm25_p50_ms"] = pct(lat, 50)
        db.close()
        await mem.close()
    return out


async def bench_ingest(n: int) -> dict:
    rows = corpus.sample_rows()
    texts = [f"{rows[i % len(rows)]['content']} ({i})" for i in range(n)]
    e5 = E5Embedder()
    t0 = time.perf_counter()
    for start in range(0, n, 32):
        e5.embed_passages(texts[start : start + 32])
    own = n / (time.perf_counter() - t0)
    with tempfile.TemporaryDirectory() as d:
        mem = await Memory.open(d)
        t0 = time.perf_counter()
        for i, text in enumerate(texts):
            await mem.add(user_id="u", session_id=f"s{i // 100}", content=text + " ")
        await mem.drain()
        ours = n / (time.perf_counter() - t0)
        await mem.close()
    return {"n": n, "embedder_batch_turns_per_s": own, "pmemo_ingest_turns_per_s": ours,
            "ratio": own / ours}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ingest", type=int, default=300)
    parser.add_argument("--out", default="bench_out/core.json")
    args = parser.parse_args()
    # the numbers are only as good as the machine is quiet: say how busy it was
    machine = {"cpus": os.cpu_count() or 0, "loadavg_1min_at_start": os.getloadavg()[0]}
    report = {"add": await bench_add(2000), "search": await bench_search(args.turns, args.queries),
              "ingest": await bench_ingest(args.ingest)}
    report["machine"] = {**machine, "loadavg_1min_at_end": os.getloadavg()[0]}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    for section, values in report.items():
        print(f"[{section}]")
        for key, value in values.items():
            shown = f"{value:10.3f}" if isinstance(value, float) else value
            print(f"  {key:42s} {shown}")


if __name__ == "__main__":
    asyncio.run(main())
