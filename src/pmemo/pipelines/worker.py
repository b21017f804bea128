"""Background jobs: embedding, mid-term clustering on overflow, summaries, promotion.

Jobs live in the store's job table, so they survive a restart; a failing job is retried
and then parked as failed, and never touches the turn it was about.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..config import Settings
from ..models import Turn
from ..retrieval.vector_index import Indexes
from ..stores.base import Job, Store
from ..tiers.services import Tiers
from .embedding import CachedEmbedder

log = logging.getLogger("pmemo")
MAX_ATTEMPTS = 3
CLAIM = 64


class Worker:
    def __init__(self, store: Store, embed: CachedEmbedder, indexes: Indexes, tiers: Tiers,
                 settings: Settings) -> None:
        self.store = store
        self.embed = embed
        self.indexes = indexes
        self.tiers = tiers
        self.settings = settings
        self.wake = asyncio.Event()
        self._busy = asyncio.Lock()

    async def run_forever(self) -> None:
        while True:
            done = await self.run_once()
            if not done:
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), timeout=1.0)
                except TimeoutError:
                    pass

    async def run_once(self) -> int:
        async with self._busy:
            jobs = await asyncio.to_thread(self.store.claim, CLAIM)
            if jobs:
                await asyncio.to_thread(self._process, jobs)
            return len(jobs)

    def _process(self, jobs: list[Job]) -> None:
        turn_jobs = [j for j in jobs if j.kind in ("turns", "embed")]
        if turn_jobs:
            self._guard(turn_jobs, self._turns)
        for job in jobs:
            if job.kind == "promote":
                self._guard([job], lambda js: self.tiers.promote(int(js[0].payload["cluster_id"])))
            elif job.kind not in ("turns", "embed"):
                self.store.fail(job.id, f"unknown job kind {job.kind!r}", retry=False)

    def _guard(self, jobs: list[Job], action: Any) -> None:
        try:
            action(jobs)
        except Exception as exc:  # a job may fail; the turns it was about stay stored
            log.exception("background job failed")
            for job in jobs:
                self.store.fail(job.id, f"{type(exc).__name__}: {exc}", retry=job.attempts < MAX_ATTEMPTS)
            return
        for job in jobs:
            self.store.finish(job.id)

    def _turns(self, jobs: list[Job]) -> None:
        ids = [int(i) for job in jobs for i in job.payload]
        turns = [t for t in (self.store.get_turns(ids).get(i) for i in ids) if t is not None]
        vectors = self.embed.passages([t.content for t in turns])
        rows = [(t.id, t.scope.key, vectors[n]) for n, t in enumerate(turns)]
        self.store.put_vectors("turn", rows, self.embed.model_id)
        for turn_id, scope_key, vec in rows:
            self.indexes.turns.add(scope_key, turn_id, vec)
        for job in jobs:
            if job.kind == "turns":
                for turn in (t for t in turns if t.id in set(job.payload)):
                    self._after_turn(turn)

    def _after_turn(self, turn: Turn) -> None:
        n, every = self.settings.short_term_turns, self.settings.summary_every
        if turn.step > n:
            leaving = self.store.turn_at(turn.scope, turn.session_id, turn.step - n)
            if leaving is not None:
                vec = self.store.get_vectors("turn", [leaving.id]).get(leaving.id)
                if vec is not None:
                    self.tiers.absorb(leaving, vec)
        if turn.step % every == 0:
            span = [self.store.turn_at(turn.scope, turn.session_id, s)
                    for s in range(turn.step - every + 1, turn.step + 1)]
            present = [t for t in span if t is not None]
            if present:
                summary = self.tiers.add_summary(present)
                self.indexes.summaries.add(turn.scope.key, summary.id,
                               self.store.get_vectors("summary", [summary.id])[summary.id])
