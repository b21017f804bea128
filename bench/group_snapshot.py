"""Group-chat snapshot: what context() and search() return on a generated IM group chat, to show
that a change of the read path left every pack alone (issue 45 §4; bench/rank_snapshot.py does
the same for the shipped one-user sample).

Usage:
  python bench/group_snapshot.py OUT.json [--pg URL] [--messages 700]
  python bench/group_snapshot.py --compare BEFORE.json AFTER.json

The scenario is ``pmemo.eval.groupchat_gen.generate(0, im=True)`` (replies, notices, media, no
session ids), fed in chat order with the hashing embedder, the worker drained after each batch,
two key lines set; cluster hits do not decay (``hit_half_life_days=0``) and the worker is drained
after every call, so each run reads the same memory. For each of the first 40 questions: a
context asked at the question's time with the asker and the last 4 messages, one asked now in
the chat's last session, one on a 600-token budget, a search with the asker, one at the
question's time and one in the session; for each of the first 40 person questions, a context
now and one at its time. Recorded per item: id, score (6 digits), tier, why, source ids; and each
context's text. With ``--pg URL`` the memory lives in that PostgreSQL schema (give each run an
empty one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from pmemo import Memory, Settings
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import _last_before, chat_runs, turn_item, where_of

QUESTIONS = 40


def _items(hits: Any) -> list[Any]:
    return [(h.id, round(h.score, 6), h.tier, h.why, [t.id for t in h.sources]) for h in hits]


async def _question(mem: Memory, s: Any, q: Any) -> dict[str, Any]:
    where = where_of(q.group_id, q.user_id)
    recent = [m.content for m in _last_before(s.messages, q, 4)]
    last = _last_before(s.messages, q, 1)
    sid = last[-1].session_id if last and last[-1].session_id else None
    calls: dict[str, Any] = {
        "ctx_at": lambda: mem.context(q.query, at=q.at, asker=q.asker, recent=recent, **where),
        "ctx_now": lambda: mem.context(q.query, asker=q.asker, recent=recent, session_id=sid, **where),
        "search": lambda: mem.search(q.query, limit=10, asker=q.asker, **where),
        "search_at": lambda: mem.search(q.query, limit=10, at=q.at, **where)}
    if sid:
        calls["search_sess"] = lambda: mem.search(q.query, limit=25, session_id=sid, **where)
        calls["ctx_small"] = lambda: mem.context(q.query, session_id=sid, at=q.at, budget_tokens=600, **where)
    out: dict[str, Any] = {"q": q.query}
    for name, call in calls.items():
        got = await call()
        await mem.drain()
        out[name] = _items(got) if name.startswith("search") else {"text": got.text, "items": _items(got.items)}
    return out


async def snapshot(pg: str | None, messages: int) -> list[dict[str, Any]]:
    s = generate(0, messages=messages, im=True)
    with tempfile.TemporaryDirectory() as d:
        mem = await Memory.open(pg or d, settings=Settings(data=d, hit_half_life_days=0), embedder="hashing")
        try:
            for batch in chat_runs(s.messages, 40):
                await mem.add_many([turn_item(m) for m in batch])
                await mem.drain()
            for group in sorted({m.group_id for m in s.messages if m.group_id})[:2]:
                await mem.add_key(f"群规：{group} 每周五晚上八点打卡", group_id=group)
            await mem.drain()
            out = [await _question(mem, s, q) for q in s.questions[:QUESTIONS]]
            for p in s.person_questions[:QUESTIONS]:
                row: dict[str, Any] = {"q": p.query}
                for name, at in (("person", None), ("person_at", p.at)):
                    got = await mem.context(p.query, group_id=p.group_id, asker=p.asker, recent=list(p.recent), at=at)
                    await mem.drain()
                    row[name] = {"text": got.text, "items": _items(got.items)}
                out.append(row)
            return out
        finally:
            await mem.close()


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> int:
    """Print each question's parts that differ; return how many differ."""
    differ = parts = 0
    for a, b in zip(before, after, strict=True):
        for part in a:
            parts += part != "q"
            if a[part] != b.get(part):
                differ += 1
                print(f"{a['q']!r} {part}: differs")
    print(f"{len(before)} questions, {parts} parts, {differ} differing")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?")
    parser.add_argument("--pg", help="a PostgreSQL URL (an empty schema) instead of a SQLite folder")
    parser.add_argument("--messages", type=int, default=700)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(p).read_text("utf-8")) for p in args.compare)
        sys.exit(1 if compare(before, after) else 0)
    if not args.out:
        parser.error("give OUT.json, or --compare BEFORE AFTER")
    found = asyncio.run(snapshot(args.pg, args.messages))
    Path(args.out).write_text(json.dumps(found, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
