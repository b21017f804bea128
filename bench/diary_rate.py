"""The diary step alone: what one day's entry costs to write, on SQLite or PostgreSQL.

Usage: python bench/diary_rate.py [--messages 3000] [--seed 0] [--store sqlite] [--rounds 3]
           [--pg-url postgresql://…] [--out bench_out/diary_rate.json]

The eval's generated group chat (as ``bench/ingest_rate.py`` feeds it, with the hashing
embedder: a digest's vector is its turns' centroid, so the embedder is no part of the step) is
stored and processed to nothing pending; then every entry the worker wrote is written again
``--rounds`` times by the worker's own ``DiaryWriter`` on this thread, nothing else running.
Reported: CPU and wall milliseconds per entry, and a sha256 of every entry (owner, day, text,
method, source turns) as the worker wrote it and after the rewrites: the same commit must give
the same, and a change that only makes the step cheaper must give its baseline's.

A/B: run it with ``PYTHONPATH=/tmp/base/src`` (a ``git worktree`` of the commit before) and with
this tree, alternating, in the same window; the ratio is what to quote (a shared box's load
moves both).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

from pmemo import Memory, Settings
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import chat_runs, turn_item
from pmemo.models import Scope

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale import postgres_server, schema_url  # noqa: E402 - the bench folder's helper


def entries_sha(store: Any, keys: list[tuple[str, str, str, str]]) -> str:
    """One digest of every entry, in ``keys``' order: owner, day, text, method, sources."""
    digest = hashlib.sha256()
    for tenant, agent, owner, day in keys:
        d = store.diary.get_diary(Scope(tenant, agent, owner), date.fromisoformat(day))
        digest.update(repr((owner, day, d.text, d.method, d.source_ids)).encode())
    return digest.hexdigest()


async def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    chat = list(generate(args.seed, messages=args.messages).messages[: args.messages])
    mem = await Memory.open(settings=settings, embedder="hashing")
    try:
        for batch in chat_runs(chat, 100):
            await mem.add_many([turn_item(m) for m in batch])
        await mem.drain()
        store, writer = mem._store, mem._worker.diary  # noqa: SLF001 - bench only
        scopes = store.diary.turns_after(0, 10**9)
        keys = sorted({(d.scope.tenant_id, d.scope.agent_id, d.scope.owner, d.day.isoformat())
                       for o in {(s.tenant, s.agent, s.owner) for s in scopes}
                       for d in store.diary.diaries(Scope(*o), sources=False)})
        first = entries_sha(store, keys)
        rounds = []
        for _ in range(args.rounds):
            cpu, wall = time.process_time(), time.perf_counter()
            for tenant, agent, owner, day in keys:
                writer.write(Scope(tenant, agent, owner), date.fromisoformat(day))
            rounds.append((time.process_time() - cpu, time.perf_counter() - wall))
        return {"entries": len(keys), "rounds": rounds, "sha_worker": first, "sha_rewritten": entries_sha(store, keys)}
    finally:
        await mem.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--store", default="sqlite", choices=("sqlite", "postgres"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg-url", default="")
    parser.add_argument("--out", default="bench_out/diary_rate.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pmemo-diary-") as tmp:
        settings = Settings(data=tmp)
        if args.store == "sqlite":
            out = asyncio.run(run(args, settings))
        else:
            import psycopg

            with postgres_server(args.pg_url) as url, psycopg.connect(url, autocommit=True) as conn:
                schema = f"diary_{uuid.uuid4().hex[:8]}"  # a schema of its own: a server may be shared
                conn.execute(f"CREATE SCHEMA {schema}")
                try:
                    out = asyncio.run(run(args, settings.replace(store=schema_url(url, schema))))
                finally:
                    conn.execute(f"DROP SCHEMA {schema} CASCADE")
    n = out["entries"]
    for i, (cpu, wall) in enumerate(out["rounds"], 1):
        print(f"[{args.store}] round {i}: {n} entries, {1000 * cpu / n:.2f} ms CPU and {1000 * wall / n:.2f} ms wall"
              " an entry")
    same = "same" if out["sha_worker"] == out["sha_rewritten"] else "DIFFERENT"
    print(f"entries as the worker wrote them: {out['sha_worker'][:16]}; rewritten: {same}")
    out.update(store=args.store, messages=args.messages, pmemo=os.path.dirname(sys.modules["pmemo"].__file__ or ""),
               load=os.getloadavg()[0])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
