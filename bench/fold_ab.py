"""The statements a search sends before and after a read fold, timed on one store state.

Usage: python bench/fold_ab.py --keep DIR [--turns 1000000] [--queries 200] [--rounds 5] [--pg-url URL]

``search_reads.py`` compares whole searches, but each run changes the kept store (its reads'
hit counts promote key lines), so two runs of it differ by more than a fold saves. Here the
inputs of the folded reads are recorded from ``--queries`` searches of the kept Postgres store
(``search_reads.py --keep DIR`` fills it), then each fold's statements, the old ones and the
new one, run on those same inputs in alternate rounds, nothing written meanwhile:

- candidates' refs: the candidates' refs, their seeds' neighbours' refs and their clusters
  (three reads, as before 2026-11-29) against ``turn_refs(ids, radius, around)`` (one);
- recalled clusters: every centroid of the scope (the top k then picked in numpy) against the
  k nearest ordered by pgvector (``nearest_clusters``);
- a context's episodes: every episode of the owner with its sources and vectors (three reads)
  against their ids, end times, importance and similarity (``episode_signals``) and the top
  three read whole (``get_episodes``), recorded from as many contexts;
- the keyword search: through the GIN index always, against a small scope's turns matched
  row by row (``lexical``, ``SCAN_ROWS``).

Printed: the median ms of each over all rounds, per query.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import scale
import search_reads

from pmemo import Memory, Settings
from pmemo.stores.base import CLUSTERS
from pmemo.stores.postgres import lexical as lexical_sql

REFS = ("{t}.id, {t}.scope_key, {t}.session, {t}.step, {t}.actor, {t}.ts, {t}.tz, {t}.content, {t}.role,"
        " {t}.actor_id")
OLD = {  # the statements as they were before the folds (69e28ee)
    "refs": f"SELECT {REFS.format(t='turns')} FROM turns WHERE id = ANY(%s)",
    "neighbours": (f"SELECT DISTINCT {REFS.format(t='n')} FROM turns t JOIN turns n ON n.scope_key=t.scope_key"
                   " AND n.session=t.session AND n.step BETWEEN t.step-%s AND t.step+%s WHERE t.id = ANY(%s)"),
    "cluster_of": "SELECT turn_id, cluster_id FROM cluster_members WHERE turn_id = ANY(%s)",
}


async def record(mem: Memory, who: list[str], queries: int) -> list[dict[str, Any]]:
    """The inputs of the folded reads, one dict a read."""
    store: Any = mem._store  # noqa: SLF001 - bench only
    seen: list[dict[str, Any]] = []
    # a read of the plan (issue 45 §4) stands for the single reads these folds timed: their inputs are its
    pool, kinds, tier, words = store.turn_pool, store.nearest_kinds, store.episodic, store.turns.lexical

    def turn_pool(ids: Any, radius: int = 0, around: Any = (), *rest: Any, **kwargs: Any) -> Any:
        ids, around = list(ids), list(around)
        if around:
            seen.append({"ids": [int(i) for i in ids], "radius": radius, "around": [int(i) for i in around]})
        return pool(ids, radius, around, *rest, **kwargs)

    def nearest_kinds(scope: Any, query: np.ndarray, wanted: Any, model: str) -> Any:
        seen.extend({"scope": scope, "query": query, "k": k} for kind, k in wanted if kind == CLUSTERS)
        return kinds(scope, query, wanted, model)

    def episodic(scope: Any, query: np.ndarray | None) -> Any:
        found, tasks = tier(scope, query)
        if found:
            # three read whole, as a context shows (which three is the ranking's: any cost alike)
            seen.append({"owner": scope, "query": query, "top": [e.id for e in found[-3:]]})
        return found, tasks

    def lexical(scope: Any, terms: list[str], limit: int, session_id: str | None = None, until: Any = None) -> Any:
        seen.append({"words": (scope, list(terms), limit, session_id)})
        return words(scope, terms, limit, session_id, until)

    store.turn_pool, store.nearest_kinds, store.episodic = turn_pool, nearest_kinds, episodic
    store.turns.lexical = lexical
    try:
        await search_reads.searches(mem, who, queries)
        await search_reads.searches(mem, who, queries, "context")
    finally:
        store.turn_pool, store.nearest_kinds, store.episodic, store.turns.lexical = pool, kinds, tier, words
    return seen


def timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", required=True)
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--scopes", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pg-url", default="", help="the server search_reads.py filled (default: its own in DIR/pg)")
    args = parser.parse_args()
    root = Path(args.keep)
    with scale.postgres_server(args.pg_url, keep=root) as pg:
        asyncio.run(run(args, root, pg))


async def run(args: argparse.Namespace, root: Path, pg: str) -> None:
    settings = Settings(data=str(root / f"postgres_{args.turns}")).replace(
        store=scale.schema_url(pg, scale.kept_schema(args.turns)))
    mem = await Memory.open(settings=settings, embedder=scale.ScaleEmbedder(e5_queries=False))
    try:
        seen = await record(mem, search_reads.users(args.turns, args.scopes, False), args.queries)
        await mem.drain()
        store: Any = mem._store  # noqa: SLF001 - bench only
        db = store._db  # noqa: SLF001
        refs = [s for s in seen if "ids" in s]
        near = [s for s in seen if "k" in s]
        episodes = [s for s in seen if "owner" in s]
        keywords = [s["words"] for s in seen if "words" in s]

        def old_refs(s: dict[str, Any]) -> None:
            db.rows(OLD["refs"], (s["ids"],))
            db.rows(OLD["neighbours"], (s["radius"], s["radius"], s["around"]))
            db.rows(OLD["cluster_of"], (s["ids"] + s["around"],))

        def old_clusters(s: dict[str, Any]) -> None:
            ids, centroids, _ = store.clusters.centroids(s["scope"])
            np.argsort(-(centroids @ s["query"]), kind="stable")[: s["k"]]

        def old_episodes(s: dict[str, Any]) -> None:
            store.vectors.get_vectors("episode", [e.id for e in store.episodes.episodes(s["owner"])])

        def new_episodes(s: dict[str, Any]) -> None:
            store.episode_signals(s["owner"], s["query"])
            store.get_episodes(s["top"])

        def old_keywords(s: tuple[Any, list[str], int, str | None]) -> None:
            scope, terms, limit, session_id = s
            rank, more = lexical_sql.rank(terms)
            mine = "" if session_id is None else " AND session=%(session)s"
            db.rows(f"SELECT id, {rank} AS score FROM turns WHERE scope_key=%(scope)s AND lexemes @@ %(q)s::tsquery"
                    f"{mine} ORDER BY score DESC, id LIMIT %(limit)s",
                    {"q": lexical_sql.tsquery(terms), "scope": scope.key, "session": session_id, "limit": limit,
                     **more})

        pairs = {
            "candidates' refs": (refs, old_refs, lambda s: store.turns.turn_refs(s["ids"], s["radius"], s["around"])),
            "recalled clusters": (near, old_clusters,
                                  lambda s: store.clusters.nearest_clusters(s["scope"], s["query"], s["k"])),
            "a context's episodes": (episodes, old_episodes, new_episodes),
            "keyword search": (keywords, old_keywords, lambda s: store.turns.lexical(*s)),
        }
        rng = random.Random(0)
        for name, (inputs, old, new) in pairs.items():
            if not inputs:
                print(f"{name:20s} none of the reads had one", flush=True)
                continue
            times: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.rounds):
                order = [("before", old), ("after", new)]
                rng.shuffle(order)
                for label, fn in order:
                    times[label] += [timed(lambda s=s, fn=fn: fn(s)) for s in inputs]
            before, after = statistics.median(times["before"]), statistics.median(times["after"])
            print(f"{name:20s} {len(inputs):4d} reads x {args.rounds} rounds: before {before:.2f} ms,"
                  f" after {after:.2f} ms ({after / before:.2f}x)", flush=True)
    finally:
        await mem.close()


if __name__ == "__main__":
    main()
