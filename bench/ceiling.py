"""How much evidence any of the systems finds: recall of the union of their top-k lists.

    python bench/ceiling.py madial DATA/madial_dev.json [--k 5 10] [--limit N] [--by-category]

A fusion or reranking of these systems can at best put in its own top k what one of them
ranked in theirs; when even the union of all their top-k lists (more than k items) stays
under a recall target, reaching it takes a signal none of them has. Uses the eval's
embedding cache (``~/.cache/pmemo-eval``), like ``pmemo eval``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from pmemo import Memory
from pmemo.config import Settings
from pmemo.embedders import make_embedder
from pmemo.eval.baselines import make_baseline
from pmemo.eval.datasets import KINDS, load
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.eval.harness import default_data_dir
from pmemo.eval.runner import PmemoSystem

SYSTEMS = ("pmemo", "bm25", "dense")


async def rankings(kind: str, path: str, limit: int | None, depth: int,
                   ) -> dict[str, tuple[set[str], dict[str, list[str]]]]:
    """Each scored question's evidence and each system's ranking of it."""
    settings = Settings.from_env()
    cached = FileCachedEmbedder(make_embedder(settings.embedder, settings),
                            default_data_dir() / "embeddings.sqlite")

    async def open_memory(store_dir: str) -> Memory:
        return await Memory.open(store_dir, settings=settings.replace(data=store_dir),
                                 embedder=cached)

    out: dict[str, tuple[set[str], dict[str, list[str]]]] = {}
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for episode in load(kind, path, limit=limit):
                probes = [p for p in episode.probes if not p.apart and p.gold.evidence]
                pmemo = PmemoSystem(open_memory, Path(scratch))
                await pmemo.start(episode.owner)
                await pmemo.load(episode.units)
                baselines = {name: make_baseline(name, embedder=cached) for name in SYSTEMS[1:]}
                for system in baselines.values():
                    system.load(episode.units)
                for probe in probes:
                    ranked = {"pmemo": await pmemo.rank(probe.query, depth)}
                    ranked.update({n: s.rank(probe.query, depth) for n, s in baselines.items()})
                    out[probe.qid] = (set(probe.gold.evidence), ranked)
                await pmemo.close()
    finally:
        cached.close()
    return out


def union_recall(found: dict[str, tuple[set[str], dict[str, list[str]]]],
                 systems: tuple[str, ...], k: int) -> tuple[float, float]:
    """Mean recall of the union of ``systems``' top ``k``, and the union's mean size."""
    recalls, sizes = [], []
    for gold, ranked in found.values():
        union = set().union(*(ranked[s][:k] for s in systems))
        recalls.append(len(union & gold) / len(gold))
        sizes.append(len(union))
    return sum(recalls) / len(recalls), sum(sizes) / len(sizes)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("path")
    ap.add_argument("--k", type=int, nargs="+", default=[5, 10])
    ap.add_argument("--limit", type=int)
    ap.add_argument("--by-category", action="store_true", help="also each question category apart")
    args = ap.parse_args()
    found = asyncio.run(rankings(args.kind, args.path, args.limit, max(args.k)))
    parts = {"all": found}
    if args.by_category:
        category = {p.qid: p.category for e in load(args.kind, args.path, limit=args.limit) for p in e.probes}
        for name in sorted({category[q] for q in found}):
            parts[name] = {q: row for q, row in found.items() if category[q] == name}
    for name, part in parts.items():
        print(f"{args.kind}, {name}: {len(part)} scored questions")
        for k in args.k:
            for systems in (("pmemo",), ("bm25", "dense"), SYSTEMS):
                recall, size = union_recall(part, systems, k)
                print(f"  top {k} of {'+'.join(systems)}: recall {recall:.3f} ({size:.1f} units)")


if __name__ == "__main__":
    main()
