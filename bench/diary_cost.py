"""What the daily diary costs (issue 20 §2), offline: scheduling, writing, and reads beside it.

    .venv/bin/python bench/diary_cost.py [--groups 20] [--days 30] [--per-day 100] [--embedder hashing]

An imported history of ``groups`` group chats, ``days`` days each, ``per-day`` messages a day
(the shipped bilingual sample's messages, in turn), is stored with the diary off and drained.
Then, in the same run:
- ``look``: the schedule's first look over the whole history (every turn read once, one job per
  group and day queued), and a second look with nothing new (what a look costs a busy store);
- ``write``: the queued entries written (the digest, its embedding, the store), per entry;
- ``search``: one group's search p50 before any entry exists and after, the same queries.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from importlib import resources
from typing import Any

from pmemo import Settings, SyncMemory

QUERIES = ["预算是多少", "when is the launch", "出差住哪里", "what can the dog not eat", "谁录用了"]


def messages() -> list[str]:
    text = resources.files("pmemo").joinpath("data/sample_conversation.jsonl").read_text("utf-8")
    return [json.loads(line)["content"] for line in text.splitlines() if line.strip()]


def history(groups: int, days: int, per_day: int) -> list[dict[str, Any]]:
    said = messages()
    start = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
    out = []
    for g in range(groups):
        for d in range(days):
            for n in range(per_day):
                out.append({"group_id": f"g{g}", "session_id": f"d{d}", "actor_id": f"p{n % 7}",
                            "actor": f"P{n % 7}", "content": said[(g * 31 + d * 7 + n) % len(said)],
                            "timestamp": start + timedelta(days=d, seconds=n * 300)})
    return out


def search_p50(m: SyncMemory, rounds: int = 40) -> float:
    for q in QUERIES:  # warm: the scope's vectors are read on its first search
        m.search(q, group_id="g0")
    took = []
    for _ in range(rounds):
        for q in QUERIES:
            t0 = time.perf_counter()
            m.search(q, group_id="g0")
            took.append(time.perf_counter() - t0)
    return statistics.median(took) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--groups", type=int, default=20)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--per-day", type=int, default=100)
    ap.add_argument("--embedder", default="hashing")
    args = ap.parse_args()
    turns = history(args.groups, args.days, args.per_day)
    with tempfile.TemporaryDirectory() as data, SyncMemory.open(
            data, embedder=args.embedder, settings=Settings(diary_enabled=False)) as m:
        for i in range(0, len(turns), 2000):
            m.add_many(turns[i:i + 2000])
        m.drain()
        before = search_p50(m)
        schedule = m._memory._worker.diary_schedule
        now = time.time()
        t0 = time.perf_counter()
        queued = schedule.look(now)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = schedule.look(now)
        second = time.perf_counter() - t0
        t0 = time.perf_counter()
        m.drain()
        write = time.perf_counter() - t0
        entries = sum(len(m.diaries(group_id=f"g{g}")) for g in range(args.groups))
        after = search_p50(m)
    print(f"{len(turns):,} turns, {args.groups} groups x {args.days} days x {args.per_day} messages,"
          f" embedder {args.embedder}")
    print(f"look, whole history: {first * 1000:.0f} ms, {queued} jobs queued"
          f" ({first / len(turns) * 1e6:.1f} us per turn)")
    print(f"look, nothing new:   {second * 1000:.2f} ms, {again} jobs queued")
    print(f"write: {entries} entries in {write:.1f} s, {write / max(entries, 1) * 1000:.0f} ms per entry"
          f" ({args.per_day} messages a day)")
    print(f"search p50, group g0: {before:.2f} ms without entries, {after:.2f} ms with {args.days}"
          f" (x{after / before:.2f})")


if __name__ == "__main__":
    main()
