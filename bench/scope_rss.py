"""Memory per scope: the RSS that searching many one-turn scopes costs (issue 18, part 2).

    .venv/bin/python bench/scope_rss.py [--scopes 10000] [--big] [--bound-mb 16]

For each N (10k by default; ``--big`` adds 100k, ~6 minutes more): N scopes (user ids u0..uN-1),
one turn each, are written through ``Memory.add_many`` and drained (the hashing embedder at
384 dimensions, e5's size). Then, in a fresh process per variant, the directory is opened,
one warm-up search is made, and every scope is searched once (``Memory.search``, the full
read path); RSS is read before opening, after the warm-up and after the searches.

Variants, measured in the same run on the same data:
- ``preallocating``: the growth policy before issue 18 (a scope's buffers start at 256 rows),
  and no memory bound: the baseline. It searches at most --baseline-max scopes (20k): on this
  machine a scope costs it ~200 KiB of RSS, so 100k would take ~20 GiB;
- ``proportional``: buffers of exactly the rows a scope has, growing geometrically from there
  (the default bound, 512 MB, is not reached);
- ``bounded``: proportional, with PMEMO_INDEX_MEMORY_MB=--bound-mb: the least recently
  used scope indexes are dropped and read back from the store on their next search.

Reported per scope searched: RSS growth over the searches, RSS growth from before opening
(the open-time load included), and the bytes the index cache counts for itself; and the
mean time of a search, the first of each scope (its vectors are read from the store).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import psutil

DIM = 384
BATCH = 1000
QUERIES = ["what is my cat called?", "when do we walk?", "which note was it?", "tell me about Miso"]
VARIANTS = ("preallocating", "proportional", "bounded")


def rss() -> int:
    gc.collect()
    return int(psutil.Process().memory_info().rss)


def embedder() -> Any:
    from pmemo.embedders.hashing import HashingEmbedder

    return HashingEmbedder(DIM)


async def populate(data: str, n: int) -> dict[str, float]:
    from pmemo import Memory

    t0 = time.perf_counter()
    mem = await Memory.open(data, embedder=embedder())
    for start in range(0, n, BATCH):
        await mem.add_many([{"user_id": f"u{i}", "session_id": "s", "content":
                             f"Note {i}: I adopted a cat named Miso, we walk on Fridays ({i * 7919 % 997})."}
                            for i in range(start, min(n, start + BATCH))])
        await mem.drain()
    await mem.close()
    return {"populate_s": time.perf_counter() - t0}


def preallocate() -> None:
    """The growth policy before issue 18: at least 256 rows from a scope's first vector."""
    from pmemo.stores.sqlite.vector_cache import ScopeIndex

    ScopeIndex.grown = staticmethod(lambda cap, end: max(end, cap * 5 // 4, 256))  # type: ignore[method-assign]


async def measure(data: str, n: int, variant: str, bound_mb: int, searched: int) -> dict[str, Any]:
    from pmemo import Memory, Settings

    if variant == "preallocating":
        preallocate()
    # the old index had no bound; the proportional one keeps the default (512 MB)
    env = {"preallocating": {"PMEMO_INDEX_MEMORY_MB": "0"},
           "bounded": {"PMEMO_INDEX_MEMORY_MB": str(bound_mb)}}.get(variant, {})
    settings = Settings.from_env(env)
    before_open = rss()
    mem = await Memory.open(data, settings=settings, embedder=embedder())
    await mem.search(QUERIES[0], user_id="warm-up", limit=5)
    before = rss()
    t0 = time.perf_counter()
    for i in range(searched):
        await mem.search(QUERIES[i % len(QUERIES)], user_id=f"u{i}", limit=5)
    seconds = time.perf_counter() - t0
    after = rss()
    cache = getattr(getattr(mem._store, "vector_cache", None), "cache", None)  # noqa: SLF001 - bench only
    out = {"n": n, "searched": searched, "variant": variant, "search_ms": 1000 * seconds / searched,
           "search_kib": (after - before) / searched / 1024, "total_kib": (after - before_open) / searched / 1024,
           "index_kib": cache.nbytes / searched / 1024 if cache is not None else None,
           "resident": len(cache) if cache is not None else None}
    await mem.close()
    return out


def child(*args: str) -> dict[str, Any]:
    """One phase in a fresh process, so that each RSS starts from the same place."""
    done = subprocess.run([sys.executable, __file__, "--child", *args], check=True,
                          capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def table(rows: list[dict[str, Any]]) -> None:
    base = {r["n"]: r["search_kib"] for r in rows if r["variant"] == "preallocating"}
    print(f"{'scopes':>7} {'searched':>8} {'variant':14} {'search KiB/scope':>17} {'vs base':>8} "
          f"{'total KiB/scope':>16} {'index KiB/scope':>16} {'resident':>9} {'ms/search':>10}")
    for r in rows:
        ratio = r["search_kib"] / base[r["n"]] if base.get(r["n"]) else float("nan")
        index = "-" if r["index_kib"] is None else f"{r['index_kib']:.2f}"
        resident = "-" if r["resident"] is None else str(r["resident"])
        print(f"{r['n']:>7} {r['searched']:>8} {r['variant']:14} {r['search_kib']:>17.2f} {ratio:>8.2f} "
              f"{r['total_kib']:>16.2f} {index:>16} {resident:>9} {r['search_ms']:>10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scopes", type=int, default=10_000)
    parser.add_argument("--big", action="store_true", help="also measure 100k scopes (~6 minutes more)")
    parser.add_argument("--bound-mb", type=int, default=16, help="PMEMO_INDEX_MEMORY_MB of the bounded variant")
    parser.add_argument("--baseline-max", type=int, default=20_000,
                        help="scopes the preallocating baseline searches at most (~200 KiB each)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        phase, data, n, *rest = args.child
        result = (asyncio.run(populate(data, int(n))) if phase == "populate"
                  else asyncio.run(measure(data, int(n), rest[0], int(rest[1]), int(rest[2]))))
        print(json.dumps(result))
        return
    rows = []
    for n in [args.scopes, *([100_000] if args.big else [])]:
        with tempfile.TemporaryDirectory() as d:
            data = os.path.join(d, "data")
            made = child("populate", data, str(n))
            print(f"{n} one-turn scopes written in {made['populate_s']:.0f} s", flush=True)
            for variant in VARIANTS:
                searched = min(n, args.baseline_max) if variant == "preallocating" else n
                rows.append(child("measure", data, str(n), variant, str(args.bound_mb), str(searched)))
    table(rows)


if __name__ == "__main__":
    main()
