"""How long a quiet chat's message waits to be searchable by meaning while another tenant imports.

Usage: python bench/fair_claims.py [--store sqlite,postgres] [--turns 20000] [--quiet 30]
           [--every 2.0] [--embedder e5] [--pg-url postgresql://…]

One ``Memory`` (its worker in-process, as ``pmemo serve`` runs it) on a fresh store. Tenant
``big`` imports ``--turns`` turns of bench/corpus.py as ``pmemo import`` sends them (``add_many``
of 500, waiting out a full backlog as told); once the import has a backlog, tenant ``quiet``
adds one message every ``--every`` seconds to its one chat, ``--quiet`` of them. For each, the
delay from ``add`` returning until its vector is stored (it is then found by meaning) is
measured, and p50 / p95 / max are printed, with the import's rate. A message not digested
within ``--give-up`` seconds counts as that long (shown as ``>``).

Before/after a change: run it on the older commit's code too, from a worktree::

    git worktree add /tmp/base <sha>
    PYTHONPATH=/tmp/base/src .venv/bin/python bench/fair_claims.py
    .venv/bin/python bench/fair_claims.py

Measured numbers and their commands are in docs/SCALE.md ("Fair claims").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import corpus
import scale

import pmemo
from pmemo import Memory, Settings, errors

BATCH = 500  # turns per add_many, as `pmemo import` sends them
POLL_S = 0.05  # how often the messages' vectors are looked for


async def import_turns(mem: Memory, n: int, written: list[int]) -> float:
    """Tenant ``big``'s import; its seconds. A full backlog (``BacklogFull``, where the code has
    it) is waited out as told, as a client would."""
    full = getattr(errors, "BacklogFull", ())
    items = [{"tenant_id": "big", "user_id": f"u{i % 20}", "session_id": t.session, "content": t.text,
              "timestamp": t.timestamp} for i, t in enumerate(corpus.generate(n))]
    start = time.perf_counter()
    for at in range(0, n, BATCH):
        while True:
            try:
                await mem.add_many(items[at : at + BATCH])
                break
            except full as exc:  # type: ignore[misc]
                await asyncio.sleep(exc.retry_after)
        written.append(at + BATCH)
    return time.perf_counter() - start


async def watch(mem: Memory, added: dict[int, float], delays: dict[int, float], give_up: float,
                done: asyncio.Event) -> None:
    """Record each added message's delay until its vector is stored (``give_up`` if never):
    one read of the outstanding ones every POLL_S, so watching does not load the store."""
    while not (done.is_set() and len(delays) == len(added)):
        waiting = [i for i in added if i not in delays]
        found = await asyncio.to_thread(mem._store.vectors.get_vectors, "turn", waiting) if waiting else {}
        now = time.perf_counter()
        for i in waiting:
            if i in found or now - added[i] >= give_up:
                delays[i] = min(now - added[i], give_up)
        await asyncio.sleep(POLL_S)


async def run(where: Any, data: Path, args: argparse.Namespace) -> dict[str, Any]:
    mem = await Memory.open(where, embedder=args.embedder, settings=Settings(data=str(data)))
    try:
        await mem.add(content="warm-up", tenant_id="quiet", user_id="bob", session_id="s1")
        await mem.drain()  # the model loaded, the quiet chat known
        written: list[int] = []
        importing = asyncio.create_task(import_turns(mem, args.turns, written))
        while len(written) < 4 and not importing.done():  # a backlog first
            await asyncio.sleep(0.05)
        added: dict[int, float] = {}
        delays: dict[int, float] = {}
        done = asyncio.Event()
        watcher = asyncio.create_task(watch(mem, added, delays, args.give_up, done))
        for k in range(args.quiet):
            turn = await mem.add(content=f"quiet message {k}: my cat Miso likes the window seat",
                                 tenant_id="quiet", user_id="bob", session_id="s1")
            added[turn.id] = time.perf_counter()
            await asyncio.sleep(args.every)
        done.set()
        await watcher
        took = sorted(delays.values())
        during = not importing.done()
        import_s = await importing
        return {"p50_s": round(statistics.median(took), 2),
                "p95_s": round(took[int(0.95 * (len(took) - 1))], 2), "max_s": round(took[-1], 2),
                "gave_up": sum(d >= args.give_up for d in took), "messages": len(took),
                "import_still_running_at_last": during, "import_turns_s": round(args.turns / import_s, 1)}
    finally:
        await mem.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="sqlite,postgres")
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--quiet", type=int, default=30, help="quiet messages measured")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between quiet messages")
    parser.add_argument("--give-up", type=float, default=600.0)
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--pg-url", default="")
    args = parser.parse_args()
    kinds = args.store.split(",")
    print(f"pmemo from {Path(pmemo.__file__).parent}", file=sys.stderr)
    with scale.postgres_server(args.pg_url if "postgres" in kinds else "-") as pg, \
            tempfile.TemporaryDirectory(prefix="pmemo-fair-") as tmp:
        for kind in kinds:
            where = scale.schema_url(pg, "fair") if kind == "postgres" else Path(tmp) / kind
            if kind == "postgres":
                import psycopg

                with psycopg.connect(pg, autocommit=True) as conn:
                    conn.execute("DROP SCHEMA IF EXISTS fair CASCADE")
                    conn.execute("CREATE SCHEMA fair")
            found = asyncio.run(run(where, Path(tmp) / f"{kind}-data", args))
            print(json.dumps({"store": kind, "turns": args.turns, "embedder": args.embedder, **found}), flush=True)


if __name__ == "__main__":
    main()
