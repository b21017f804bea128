"""Ranking snapshot: what search() and context() return for fixed queries, to show that a
speed change left the ranking alone.

Usage:
  python bench/rank_snapshot.py OUT.json [--store DIR --user U --session S | --pg URL]
  python bench/rank_snapshot.py --compare BEFORE.json AFTER.json

Without --store it loads the shipped sample conversation into a fresh memory with the
default (e5) embedder. With --store it opens that data directory with bench/core.py's
BenchEmbedder (hashing queries), as the 100k search benchmark does: give it a copy, since
searches record cluster hits. Each query is run as search(limit=10), search in a session
(limit=25) and context(); the worker is drained after each call, and cluster hits do not
decay (hit_half_life_days=0: decay runs on wall-clock time, so a slower run would promote
a cluster a query later), so the key lines that hits promote appear at the same point in
every run. With --pg URL the sample goes into that PostgreSQL store instead (an empty
schema: give each run its own), for the reads that pgvector answers there. Recorded per
hit: id, score rounded to 6 digits, tier, why and source ids; the context's text.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from pmemo import Memory, Settings

EXTRA = ["What did Louis say about the budget last week?", "budget", "预算", "Barcelona trip",
         "who is responsible for the mini program", "三月四号说了什么", "deadline on Friday",
         "what did the assistant recommend", "Mei", "project name"]


def _questions() -> list[str]:
    raw = resources.files("pmemo").joinpath("data/sample_questions.json").read_text("utf-8")
    return [q["question"] for q in json.loads(raw)]


def _hits(hits: list[Any]) -> list[Any]:
    return [(h.id, round(h.score, 6), h.tier, h.why, [t.id for t in h.sources]) for h in hits]


async def _run(mem: Memory, queries: list[str], user: str, session: str) -> list[dict[str, Any]]:
    out = []
    for query in queries:
        top = await mem.search(query, limit=10, user_id=user)
        await mem.drain()
        in_session = await mem.search(query, limit=25, session_id=session, user_id=user)
        await mem.drain()
        ctx = await mem.context(query, session_id=session, user_id=user)
        await mem.drain()
        out.append({"q": query, "hits": _hits(top), "hits_session": _hits(in_session),
                    "context": ctx.text})
    return out


async def snapshot(store: str | None, user: str, session: str, pg: str | None = None) -> list[dict[str, Any]]:
    if store is None:
        raw = resources.files("pmemo").joinpath("data/sample_conversation.jsonl").read_text("utf-8")
        with tempfile.TemporaryDirectory() as d:
            mem = await Memory.open(pg or d, settings=Settings(data=d, hit_half_life_days=0))
            await mem.add_many([json.loads(line) for line in raw.splitlines() if line.strip()])
            await mem.drain()
            try:
                return await _run(mem, _questions() + EXTRA, "demo", "s1")
            finally:
                await mem.close()
    sys.path.insert(0, str(Path(__file__).parent))
    from core import BenchEmbedder

    settings = Settings(short_term_turns=20, summary_every=10, hit_half_life_days=0)
    mem = await Memory.open(store, settings=settings, embedder=BenchEmbedder(False, {}))
    qs = _questions()
    try:
        return await _run(mem, [f"{qs[i % len(qs)]} (q{i})" for i in range(40)] + EXTRA, user,
                          session)
    finally:
        await mem.close()


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> int:
    """Print each query whose results differ; return how many parts differ."""
    differ = 0
    for a, b in zip(before, after, strict=True):
        for part in ("hits", "hits_session", "context"):
            if a[part] != b[part]:
                differ += 1
                ids = [[h[0] for h in x[part]] for x in (a, b)] if part != "context" else [0, 1]
                print(f"{a['q']!r} {part}: " + ("same order, other scores or reasons"
                                                 if ids[0] == ids[1] else "differs"))
    print(f"{len(before)} queries, {differ} differing parts")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?")
    parser.add_argument("--store")
    parser.add_argument("--pg", help="a PostgreSQL URL (an empty schema) for the sample, instead of SQLite")
    parser.add_argument("--user", default="u")
    parser.add_argument("--session", default="s7")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(p).read_text("utf-8")) for p in args.compare)
        sys.exit(1 if compare(before, after) else 0)
    if not args.out:
        parser.error("give OUT.json, or --compare BEFORE AFTER")
    found = asyncio.run(snapshot(args.store, args.user, args.session, args.pg))
    Path(args.out).write_text(json.dumps(found, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
