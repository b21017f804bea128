"""Background jobs: embedding, mid-term clustering on overflow, summaries, promotion.

Jobs live in the store's job table, so they survive a restart and several worker processes
can share them: each process claims under its own owner id with a lease, renewed while a long
batch runs, so the jobs of a process that dies go to another once the lease runs out. A
failing job is retried with backoff, then parked in the dead-letter list (status 'failed')
with its error, and never touches the turn it was about.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from .. import reads_first
from ..blocks.model import HUMAN_JOB
from ..config import Settings
from ..diary.schedule import DiarySchedule
from ..diary.writer import DiaryWriter
from ..embedders.base import normalise
from ..embedders.cached import CachedEmbedder
from ..errors import StoreLocked, Unavailable
from ..graph import insights as graph_insights
from ..models import Turn
from ..ports.jobs import Job, JobListening, JobSignals
from ..ports.unit import unit_of
from ..stores.base import Store
from ..tiers.services import Tiers
from . import enrich, extraction
from . import windows as l2
from .fresh import Fresh
from .job_owners import job_owners

log = logging.getLogger("pmemo")
MAX_ATTEMPTS = 3


class Interrupted(Exception):
    """The memory is closing: stop between chunks; the jobs go back to the queue at close."""


class LeaseLost(Interrupted):
    """Our lease on the batch ran out and another worker claimed its jobs: stop, it runs them."""


def worker_owner() -> str:
    """This process's owner id for job claims: host, pid and a random part (a pid is reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


CLAIM = 64
# turns a claim takes of each tenant (past its first job): a flooding tenant's share of a batch,
# which bounds how long a new turn of another chat waits (the batch running when it came, then
# its own; bench/fair_claims.py); a quiet chat's job is in a claim's first round (fair_share.py)
CLAIM_TURNS = 128
DEFER_MAX_S = 2.0  # writers first: the longest the background waits for add() calls to pause
POLL_S = 1.0  # an idle worker's look for due jobs when nothing announces them


def poll_s(listener: JobListening | None, announced_s: float) -> float:
    """How long an idle worker waits for a wake-up before it looks for due jobs anyway: the
    slow ``announced_s`` while the store announces new jobs, else ``POLL_S``.

    >>> poll_s(None, 5.0)
    1.0
    """
    return announced_s if listener is not None and listener.live else POLL_S


class Worker:
    def __init__(self, store: Store, embed: CachedEmbedder, tiers: Tiers, settings: Settings) -> None:
        self.store = store
        self.embed = embed
        self.tiers = tiers
        self.settings = settings
        self.wake = asyncio.Event()
        self.listener: JobListening | None = None  # while run_forever runs on a store that announces jobs
        self._busy = asyncio.Lock()
        self._inflight: asyncio.Future[Any] | None = None
        self.stopping = threading.Event()
        self.owner = worker_owner()
        self._held: set[int] = set()  # the batch's jobs not ended yet, whose leases _between renews
        self._renewed = 0.0  # time.monotonic() of the last claim or renewal of their leases
        self.last_write = 0.0  # time.monotonic() of the last add(): writers first (run_forever)
        self.fresh: Fresh[Turn] = Fresh()  # small writes' turns, embedded at the next pause (fresh.py)
        self._batch_turns: set[int] = set()  # the running batch's turns: it embeds them itself
        self._in_fresh = False
        # memory blocks (issue 20): writes the groups' derived human blocks; set by Memory
        # when blocks_dir is (a job queued while it was, and left after, does nothing)
        self.human_blocks: Callable[[Any], Any] = lambda payload: None
        # the statement model (issue 44 §1), loaded now: a missing or damaged file is an error
        # logged at open, naming it, and the rules extract facts instead
        self.statements = extraction.statement_model(settings)

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Hold the background off while the block runs: no batch of jobs (nor a flush of
        open windows) runs in this process meanwhile, and one in progress is finished first.
        A forget, restore, purge or sweep rewrites what a batch reads and writes, so it runs
        alone. Not re-entrant.

        >>> async with memory_worker.exclusive():  # doctest: +SKIP
        ...     await asyncio.to_thread(forgetter.forget, ids, False, "forget")
        """
        async with self._busy:
            yield

    async def run_forever(self) -> None:
        self.listener = self._listen()
        try:
            await self._loop()
        finally:
            if self.listener is not None:
                await asyncio.to_thread(self.listener.close)
                self.listener = None

    async def _loop(self) -> None:
        while not self.stopping.is_set():
            await self._after_writers()
            # cleared before the claim, not after it: a job queued while the claim runs (in this
            # process or, announced, in another) leaves the event set and the wait below short
            self.wake.clear()
            try:
                done = await self.run_once()
            except Unavailable as exc:
                await self._ride_out(exc)
                continue
            if not done:
                if self.settings.window_tokens:  # L2 windows (issue 20): quiet sessions' open windows
                    await self.flush_windows()
                # not asyncio.wait_for: on 3.11 it swallows a cancel that comes as the event
                # is set (a search queueing a promotion just before close), and close hangs
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(poll_s(self.listener, self.settings.job_poll_s)):
                        await self.wake.wait()

    def _listen(self) -> JobListening | None:
        """Hear the jobs other processes queue, if the store announces them (JobSignals)."""
        jobs = self.store.jobs
        if not isinstance(jobs, JobSignals):
            return None
        loop = asyncio.get_running_loop()

        def wake() -> None:  # from the listener's thread
            with contextlib.suppress(RuntimeError):  # the loop closed first: nobody to wake
                loop.call_soon_threadsafe(self.wake.set)

        return jobs.listen_jobs(wake)

    async def _after_writers(self) -> None:
        """Writers first: wait while add() calls keep coming (one within ``writer_quiet_ms``),
        at most DEFER_MAX_S. The GIL and the write lock are shared: a batch digested while a
        bulk import runs made each add_many call ~3× slower (measured, 10k turns in batches
        of 100). ``drain`` calls ``run_once`` itself and never waits here."""
        quiet = self.settings.writer_quiet_ms / 1000
        give_up = time.monotonic() + DEFER_MAX_S
        while quiet and not self.stopping.is_set():
            now = time.monotonic()
            left = min(self.last_write + quiet, give_up) - now
            if left <= 0:
                return
            await asyncio.sleep(left)

    async def run_once(self) -> int:
        async with self.exclusive():
            jobs = await asyncio.to_thread(self.store.jobs.claim, CLAIM, self.owner, self.settings.job_lease_s,
                                           CLAIM_TURNS)
            if jobs:
                # shielded: a cancelled worker still lets the thread finish its batch
                self._inflight = asyncio.ensure_future(asyncio.to_thread(self._process, jobs))
                await asyncio.shield(self._inflight)
            if self.diary_schedule.due(time.time()):  # diary (issue 20): days now due an entry
                self._inflight = asyncio.ensure_future(asyncio.to_thread(self._tick, time.time()))
                return len(jobs) + int(await asyncio.shield(self._inflight))
            return len(jobs)

    async def _ride_out(self, exc: Unavailable) -> None:
        """The database went away (a restart): wait until it answers again, then give back the
        jobs this worker held, which no batch runs any more, rather than wait out their leases.
        A job is never failed for an outage: it is not the job's fault."""
        log.warning("background jobs wait for the database: %s", exc)
        while not self.stopping.is_set():
            await asyncio.sleep(1.0)
            with contextlib.suppress(Unavailable):
                await asyncio.to_thread(self.store.jobs.requeue_running, self.owner)
                log.warning("the database answers again: background jobs resume")
                return

    async def settle(self) -> None:
        """Wait for the batch a cancelled worker left running in its thread."""
        if self._inflight is not None:
            await asyncio.gather(self._inflight, return_exceptions=True)

    def _tick(self, now: float) -> int:
        with reads_first.background():
            return self.diary_schedule.tick(now)

    def _process(self, jobs: list[Job]) -> None:
        self._held, self._renewed = {j.id for j in jobs}, time.monotonic()
        try:
            # it pauses where it can while a read is under way, then embeds small writes' turns
            with reads_first.background(self._embed_fresh):
                self._run(jobs)
        finally:
            self._held, self._batch_turns = set(), set()

    def _run(self, jobs: list[Job]) -> None:
        turn_jobs = [j for j in jobs if j.kind in ("turns", "embed")]
        if turn_jobs:
            self._guard(turn_jobs, self._turns)
        diaries = [j for j in jobs if j.kind == "diary"]
        if diaries:  # the days' entries read and written together: a few round trips, not ~10 each
            self._guard(diaries, lambda js: self.diary.run_many([j.payload for j in js]))
        for job in jobs:
            if job.kind in ("turns", "embed", "diary"):
                continue
            handler = self.handlers.get(job.kind)
            if handler is None:
                self.store.jobs.fail(job.id, f"unknown job kind {job.kind!r}", retry=False)
                self._held.discard(job.id)
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
            "diary": lambda p: self.diary.run(p),  # one day's entry of one chat (issue 20; _run batches them)
            HUMAN_JOB: lambda p: self.human_blocks(p),  # memory blocks (issue 20)
            # graph (issue 20): a person's insights in one chat, with an LLM
            "insights": lambda p: graph_insights.refresh(self.store.graph, self.store,  # type: ignore[attr-defined,arg-type]
                                                         self.tiers.llm, self.settings, p),
            # a step of what turns teach (people, facts, agenda, graph, episodes) that failed in its
            # turn job, tried again on its own (enrich.py)
            **{enrich.kind_of(step): functools.partial(enrich.run_job, self, step) for step in enrich.JOB_STEPS},
        }

    def _guard(self, jobs: list[Job], action: Any) -> None:
        try:
            # their owners held shared (job_owners.py): no forget of theirs, in any process, meanwhile
            with self.store.locks.hold(job_owners(self.store, jobs), shared=True):
                action(jobs)
            self._still_ours(jobs)
        except Interrupted:
            return  # left 'running': ours go back to the queue at close, a lost lease's are another's
        except Unavailable:
            raise  # the database, not the job: run_forever waits for it and gives the jobs back
        except Exception as exc:  # a job may fail; the turns it was about stay stored
            log.exception("background job failed")
            # retried with backoff (the store's), then parked in the dead-letter list
            for job in jobs:
                self.store.jobs.fail(job.id, f"{type(exc).__name__}: {exc}", retry=job.attempts < MAX_ATTEMPTS)
                self._held.discard(job.id)
            return
        with unit_of(self.store):  # the batch's jobs end in one commit
            for job in jobs:
                self.store.jobs.finish(job.id)
                self._held.discard(job.id)

    def _still_ours(self, jobs: list[Job]) -> None:
        """Before the jobs are ended: LeaseLost if another worker took one meanwhile (a step that
        never reached ``_between`` outlived the lease). It runs them again and ends them; ending
        them here too would delete its jobs under it. Within half a lease of the last renewal
        nobody can have: no round trip then (most jobs)."""
        self._keep({j.id for j in jobs}, 1 / 2)

    def _turns(self, jobs: list[Job]) -> None:
        ids = list(dict.fromkeys(int(i) for job in jobs if job.kind in ("turns", "embed")
                                 for i in job.payload))
        found = self.store.turns.get_turns(ids)
        turns = [found[i] for i in ids if i in found]
        self._batch_turns = set(found)
        self.fresh.drop(lambda t: t.id in found)  # embedded below
        if self.settings.window_tokens:  # L2 windows (issue 20): one embedding per window, not per turn
            self.windows.add(turns, self._between)
        else:
            self._embed_turns(fewest_first(jobs, found), self.embed, "turn")
        if self.embed.second is not None:  # the second dense channel: one vector per turn, windows or not
            self._embed_turns(turns, self.embed.second, "turn2")
        after = {int(i) for job in jobs if job.kind == "turns" for i in job.payload}
        new = [t for t in turns if t.id in after]  # stored by these jobs ('embed' jobs re-embed)
        self._between()  # and between the steps after: each renews the leases of a long batch
        enrich.people_batch(self, new)
        self.diary_schedule.saw(new, time.time())  # diary (issue 20): a day due
        at = _Steps(self.store, turns)
        self._between()
        self._overflow(new, at)
        self._between()
        spans = [span for turn in new if (span := self._summary_due(turn, at))]
        if spans:  # the batch's summaries are embedded together, like its turns
            self.tiers.add_summaries(spans)
        self._between()
        enrich.after_turns(self, new)  # episodes, compaction (issue 5)

    def _embed_turns(self, turns: list[Turn], embed: CachedEmbedder, kind: str) -> None:
        """A batch at a time, each turn piece by piece (``embed.parts``: a long one is several
        bounded calls, with ``_between`` before each): its vector is their mean, and for the
        first encoder's "turn" vectors its pieces' stay as its parts (``stores.parts``)."""
        for start in range(0, len(turns), embed.batch):
            self._between()
            chunk = turns[start : start + embed.batch]
            pieces = embed.parts([t.indexed for t in chunk], self._between)
            rows = [(t.id, t.scope.key, p[0] if len(p) == 1 else normalise(p.sum(axis=0)))
                    for t, p in zip(chunk, pieces, strict=True)]
            with unit_of(self.store):  # the chunk's vectors and parts in one commit (embedded before it)
                self.store.vectors.put_vectors(kind, rows, embed.model_id)
                if kind == "turn" and embed.splits:  # every turn: an edited one may have had parts
                    self.store.vectors.put_parts([(t.id, t.scope.key, p) for t, p in zip(chunk, pieces, strict=True)],
                                         embed.model_id)

    def _between(self) -> None:
        """Between two embedding calls: a closing memory does not wait for the whole backlog,
        a long batch keeps its leases (renewed every third of ``job_lease_s``), a read under way
        goes first (reads_first), then the turns of small writes (``_embed_fresh``)."""
        if self.stopping.is_set():
            raise Interrupted
        self._keep(self._held, 1 / 3)
        reads_first.give_way()

    def _embed_fresh(self) -> None:
        """At a pause point of a batch (reads_first): embed up to ``fresh.TAKE`` turns of small
        writes noted since, ahead of the batch. Their chat's messages are searchable by meaning
        now, and their jobs find the vectors cached."""
        if self._in_fresh or not len(self.fresh) or self.settings.window_tokens:
            return  # with L2 windows a turn is embedded as part of its window, by its job
        noted = [t for t in self.fresh.take() if t.id not in self._batch_turns]
        if not noted:
            return
        self._in_fresh = True  # embedding pauses too: not again from there
        try:
            # as a batch holds its owners (job_owners.py): a forget never runs beside it
            with self.store.locks.hold({t.scope.key for t in noted}, shared=True, wait_s=0):
                found = self.store.turns.get_turns([t.id for t in noted])  # forgotten since: not embedded
                self._embed_turns([found[t.id] for t in noted if t.id in found], self.embed, "turn")
        except (StoreLocked, Interrupted):
            return  # a forget holds one of their owners, or closing: their jobs embed them
        except Unavailable:
            raise  # the database: the batch it paused stops too, and waits for it
        except Exception:  # their jobs embed them again, retried as jobs are: the batch goes on
            log.exception("embedding %d fresh turn(s) ahead of their jobs failed", len(noted))
        finally:
            self._in_fresh = False

    def _keep(self, job_ids: set[int], share: float) -> None:
        """Renew the leases on ``job_ids`` once ``share`` of a lease has passed since the last
        renewal; LeaseLost if another worker took one of them meanwhile."""
        lease = self.settings.job_lease_s
        if not job_ids or time.monotonic() - self._renewed < lease * share:
            return
        held = self.store.jobs.renew(sorted(job_ids), self.owner, lease)
        self._renewed = time.monotonic()
        if held < len(job_ids):
            log.warning("the lease on %d background job(s) ran out and another worker took them;"
                        " leaving them to it", len(job_ids) - held)
            raise LeaseLost

    # ---- diary (issue 20) -------------------------------------------------------------------
    @functools.cached_property
    def diary(self) -> DiaryWriter:
        return DiaryWriter(self.store, self.embed, self.tiers.llm, self.settings)  # type: ignore[arg-type]

    @functools.cached_property
    def diary_schedule(self) -> DiarySchedule:
        return DiarySchedule(self.store, self.settings)  # type: ignore[arg-type]

    # ---- L2 windows (issue 20) ----------------------------------------------------------
    @functools.cached_property
    def windows(self) -> l2.Windows:
        return l2.make(self)

    async def flush_windows(self, force: bool = False, **owner: Any) -> None:
        """Embed the open windows of sessions quiet for ``window_idle_seconds`` (all of them
        with ``force``; of one tenant, agent or owner with ``tenant_id``/``agent_id``/``owner``)."""
        async with self.exclusive():
            self._inflight = asyncio.ensure_future(asyncio.to_thread(self._flush, force, owner))
            await asyncio.shield(self._inflight)

    def _flush(self, force: bool, owner: dict[str, Any]) -> None:
        try:
            self.windows.flush(force, between=self._between, **owner)
        except Interrupted:
            return  # closing: the windows stay open in the store and close after the next open
        except Exception:  # the turns are stored; the windows close on a later try
            log.exception("closing open windows failed")

    def _reindex(self, recluster: list[int]) -> None:
        """After an embedder change: re-embed summaries and diary entries, and rebuild clusters
        from their members."""
        self.diary.revector()  # diary (issue 20)
        for sid in self.store.summaries.stale_summaries(self.embed.model_id):
            summary = self.store.summaries.get_summary(sid)
            if summary is not None:
                vec = self.tiers.summary_vector(summary)
                self.store.vectors.put_vectors("summary", [(sid, summary.scope.key, vec)], self.embed.model_id)
        turns = self.store.turns.get_turns(recluster)
        self._file([turns[i] for i in sorted(turns)])

    def _overflow(self, turns: list[Turn], at: _Steps) -> None:
        """Mid-term: each new turn pushes its session's turn ``short_term_turns`` back out of
        short-term, into a cluster (one read of their clusters and vectors for the batch)."""
        n = self.settings.short_term_turns
        leaving = [t for turn in turns if turn.step > n and (t := at(turn, turn.step - n)) is not None]
        with self.tiers.batch():
            self._file(leaving)

    def _file(self, turns: list[Turn]) -> None:
        """Put each of ``turns`` that has a vector and no cluster yet (a re-run job filed some)
        into one, in order: one read of their clusters and one of their vectors."""
        if not turns:
            return
        clustered = self.store.clusters.cluster_of(t.id for t in turns)
        vectors = self.store.vectors.get_vectors("turn", [t.id for t in turns if t.id not in clustered])
        for turn in turns:
            if turn.id in vectors:
                self.tiers.absorb(turn, vectors[turn.id])

    def _summary_due(self, turn: Turn, at: _Steps) -> list[Turn]:
        """The span of ``summary_every`` turns that ``turn`` closes, when it is due a long-term
        summary (not one already written: a re-run job is a no-op); else []."""
        every = self.settings.summary_every
        if turn.step % every:
            return []
        present = [t for s in range(turn.step - every + 1, turn.step + 1) if (t := at(turn, s)) is not None]
        done = {(s.step_from, s.step_to) for s in self.store.summaries.of_scope(turn.scope, turn.session_id)}
        return present if present and (present[0].step, present[-1].step) not in done else []


def fewest_first(jobs: list[Job], found: dict[int, Turn]) -> list[Turn]:
    """The batch's turns in the order they are embedded: the jobs with fewest turns first (a quiet
    chat's message before another tenant's import, which a claim took first by age), each job's
    turns in order. Only the embedding goes in this order: the steps after read each chat's
    turns in the order they came.

    >>> [t for t in fewest_first([Job(1, "turns", [1, 2, 3], 1), Job(2, "turns", [4], 1)],
    ...                          {1: 1, 2: 2, 3: 3, 4: 4})]
    [4, 1, 2, 3]
    """
    ordered = sorted((j for j in jobs if j.kind in ("turns", "embed")), key=lambda j: len(j.payload))
    ids = dict.fromkeys(int(i) for job in ordered for i in job.payload)
    return [found[i] for i in ids if i in found]


class _Steps:
    """A session's turn by its step, for one batch: the batch's own turns without a read."""

    def __init__(self, store: Store, turns: list[Turn]) -> None:
        self.store = store
        self.known = {(t.scope.key, t.session_id, t.step): t for t in turns}

    def __call__(self, turn: Turn, step: int) -> Turn | None:
        """The turn at ``step`` of ``turn``'s session."""
        found = self.known.get((turn.scope.key, turn.session_id, step))
        return found if found is not None else self.store.turns.turn_at(turn.scope, turn.session_id, step)
