"""Fill `pmemo eval`'s embedding cache for a dataset ahead of the run, question by question.

    nice python bench/warm_eval_cache.py longmemeval DATA/longmemeval_s_dev.json [--limit N]

LongMemEval-S's haystacks are ~500 long turns per question: on a new 2-core machine the
first full run embeds ~24k of them (about 2 minutes a question). This embeds each unit as
both pmemo and the dense baseline will (``render``), in file order, so a later
``pmemo eval ... --limit N`` finds the first N questions cached. It can run, niced, while
you work; stop it at any point and what is done stays done. ``--start N`` begins at the
Nth question, to warm the ones you are looking at first.
"""

from __future__ import annotations

import argparse
import time

from pmemo.config import Settings
from pmemo.embedders import make_embedder
from pmemo.eval.baselines import render
from pmemo.eval.datasets import load
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.eval.harness import default_data_dir


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["locomo", "longmemeval", "madial"])
    ap.add_argument("path")
    ap.add_argument("--limit", type=int, help="only N questions from --start, as `pmemo eval` counts them")
    ap.add_argument("--start", type=int, default=1,
                    help="begin at this question (1-based); without --limit, wrap around to the ones before it")
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    settings = Settings.from_env()
    cache = FileCachedEmbedder(make_embedder(settings.embedder, settings),
                           default_data_dir() / "embeddings.sqlite")
    started = time.perf_counter()
    try:
        first = max(args.start - 1, 0)
        episodes = list(enumerate(load(args.kind, args.path, limit=first + args.limit if args.limit else None), 1))
        for k, episode in episodes[first:] + (episodes[:first] if args.limit is None else []):
            texts = list(dict.fromkeys(render(u) for u in episode.units))
            before = cache.misses
            for i in range(0, len(texts), args.batch):
                cache.embed_passages(texts[i : i + args.batch])
            print(f"{k} {episode.eid}: {len(texts)} texts, {cache.misses - before} embedded,"
                  f" {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        cache.close()


if __name__ == "__main__":
    main()
