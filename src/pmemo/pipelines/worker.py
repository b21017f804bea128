"""Background jobs: embedding, mid-term clustering on overflow, summaries, promotion.

Jobs live in the store's job table, so they survive a restart; a failing job is retried
and then parked as failed, and never touches the turn it was about.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from ..config import Settings
from ..models import Turn
from ..retrieval.vector_index import Indexes
from ..stores.base import Job, Store
from ..tiers.services import Tiers
from . import enrich
from .embedding import CachedEmbedder

log = logging.getLogger("pmemo")
MAX_ATTEMPTS = 3


class Interrupted(Exception):
    """The memory is closing: stop between chunks; the jobs run again after the next open."""
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
        self._inflight: asyncio.Future[None] | None = None
        self.stopping = threading.Event()

    async def run_forever(self) -> None:
        while not self.stopping.is_set():
            done = await self.run_once()
            if not done:
                self.wake.clear()
                # not asyncio.wait_for: on 3.11 it swallows a cancel that comes as the event
                # is set (a search queueing a promotion just before close), and close hangs
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        await self.wake.wait()

    async def run_once(self) -> int:
        async with self._busy:
            jobs = await asyncio.to_thread(self.store.claim, CLAIM)
            if jobs:
                # shielded: a cancelled worker still lets the thread finish its batch
                self._inflight = asyncio.ensure_future(asyncio.to_thread(self._process, jobs))
                await asyncio.shield(self._inflight)
            return len(jobs)

    async def settle(self) -> None:
        """Wait for the batch a cancelled worker left running in its thread."""
        if self._inflight is not None:
            await asyncio.gather(self._inflight, return_exceptions=True)

    def _process(self, jobs: list[Job]) -> None:
        turn_jobs = [j for j in jobs if j.kind in ("turns", "embed")]
        if turn_jobs:
            self._guard(turn_jobs, self._turns)
        for job in jobs:
            if job.kind in ("turns", "embed"):
                continue
            handler = self.handlers.get(job.kind)
            if handler is None:
                self.store.fail(job.id, f"unknown job kind {job.kind!r}", retry=False)
            else:
                self._guard([job], lambda js, h=handler: h(js[0].payload))

    @property
    def handlers(self) -> dict[str, Callable[[Any], Any]]:
        """What runs a job of each kind (other than turns/embed, batched above), by its payload."""
        return {
            "promote": lambda p: self.tiers.promote(int(p["cluster_id"])),
            "hits": lambda p: self.tiers.count_hits(p["clusters"], p["at"]),  # what a read recalled
            "touch": lambda p: self.tiers.touch_episodes(p["episodes"], p["at"]),
            "reindex": lambda p: self._reindex(p["recluster"]),
        }

    def _guard(self, jobs: list[Job], action: Any) -> None:
        try:
            action(jobs)
        except Interrupted:
            return  # left 'running': the next open puts them back in the queue
        except Exception as exc:  # a job may fail; the turns it was about stay stored
            log.exception("background job failed")
            for job in jobs:
                self.store.fail(job.id, f"{type(exc).__name__}: {exc}", retry=job.attempts < MAX_ATTEMPTS)
            return
        for job in jobs:
            self.store.finish(job.id)

    def _turns(self, jobs: list[Job]) -> None:
        ids = list(dict.fromkeys(int(i) for job in jobs if job.kind in ("turns", "embed")
                                 for i in job.payload))
        found = self.store.get_turns(ids)
        turns = [found[i] for i in ids if i in found]
        for start in range(0, len(turns), self.embed.batch):
            if self.stopping.is_set():  # a closing memory does not wait for the whole backlog
                raise Interrupted
            chunk = turns[start : start + self.embed.batch]
            vectors = self.embed.passages([t.indexed for t in chunk])
            rows = [(t.id, t.scope.key, vectors[n]) for n, t in enumerate(chunk)]
            self.store.put_vectors("turn", rows, self.embed.model_id)
            for turn_id, scope_key, vec in rows:
                self.indexes.turns.add(scope_key, turn_id, vec)
        after = {int(i) for job in jobs if job.kind == "turns" for i in job.payload}
        enrich.people_batch(self, [t for t in turns if t.id in after])
        spans: list[list[Turn]] = []
        for turn in turns:
            if turn.id in after:
                self._after_turn(turn, spans)
        # the batch's summaries are embedded together, like its turns
        for summary, vec in self.tiers.add_summaries(spans) if spans else []:
            self.indexes.summaries.add(summary.scope.key, summary.id, vec)

    def _reindex(self, recluster: list[int]) -> None:
        """After an embedder change: re-embed summaries and rebuild clusters from their members."""
        for sid in self.store.stale_summaries(self.embed.model_id):
            summary = self.store.get_summary(sid)
            if summary is not None:
                vec = self.tiers.summary_vector(summary)
                self.store.put_vectors("summary", [(sid, summary.scope.key, vec)], self.embed.model_id)
                self.indexes.summaries.add(summary.scope.key, sid, vec)
        turns = self.store.get_turns(recluster)
        vectors = self.store.get_vectors("turn", list(turns))
        for turn_id in sorted(turns):
            if turn_id in vectors and not self.store.cluster_of([turn_id]):
                self.tiers.absorb(turns[turn_id], vectors[turn_id])

    def _after_turn(self, turn: Turn, spans: list[list[Turn]]) -> None:
        """Mid-term overflow, extraction and episodes for one new turn; a span due for a
        long-term summary is added to ``spans``."""
        n, every = self.settings.short_term_turns, self.settings.summary_every
        if turn.step > n:
            leaving = self.store.turn_at(turn.scope, turn.session_id, turn.step - n)
            if leaving is not None:
                vec = self.store.get_vectors("turn", [leaving.id]).get(leaving.id)
                if vec is not None and not self.store.cluster_of([leaving.id]):
                    self.tiers.absorb(leaving, vec)
        if turn.step % every == 0:
            span = [self.store.turn_at(turn.scope, turn.session_id, s)
                    for s in range(turn.step - every + 1, turn.step + 1)]
            present = [t for t in span if t is not None]
            done = {(s.step_from, s.step_to) for s in self.store.summaries(turn.scope, turn.session_id)}
            if present and (present[0].step, present[-1].step) not in done:  # a re-run job is a no-op
                spans.append(present)
        enrich.after_turn(self, turn)  # profile facts, episodes, compaction (issue 5)
