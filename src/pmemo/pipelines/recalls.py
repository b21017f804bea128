"""What reads recalled, counted in the background: one job for many reads.

Every search that recalls clusters, and every context that shows episodes, raises their hit
and access counts (promotion to key memory, forgetting). A read never writes: it hands what
it recalled to ``Recalls``, which queues it as a 'hits' (and 'touch') job once per
``FLUSH_S`` for all the reads meanwhile, not one per read: on Postgres each job is an insert,
a claim, an update and a finish, four transactions (`bench/search_reads.py` at 10k turns:
~19 ms of database time a search, more than the search's own reads). A cluster recalled by
three reads is in the job three times and counts three hits; the job's time is the newest
read's (hits decay over days, so the seconds between reads change nothing). ``settle``
(``drain`` and ``close``) queues what is gathered at once and waits for it. What a process
held when it died unclean is lost: up to ``FLUSH_S`` of counts, which only rank.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from ..ports.jobs import JobPort

log = logging.getLogger("pmemo")
FLUSH_S = 0.5  # the longest a read's counts wait to be queued


class Recalls:
    def __init__(self, jobs: JobPort, wake: Callable[[], None], flush_s: float = FLUSH_S) -> None:
        self._jobs = jobs
        self._wake = wake  # the worker: jobs are queued
        self._flush_s = flush_s
        self._clusters: list[int] = []
        self._episodes: list[int] = []
        self._timer: asyncio.TimerHandle | None = None
        self._queueing: set[asyncio.Task[None]] = set()

    def add(self, clusters: Sequence[int], episodes: Sequence[int] = ()) -> None:
        """A read recalled these clusters and showed these episodes (call on the event loop)."""
        if not clusters and not episodes:
            return
        self._clusters += clusters
        self._episodes += episodes
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self._flush_s, self.flush)

    def flush(self) -> None:
        """Queue what is gathered now (call on the event loop)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        clusters, episodes = self._clusters, self._episodes
        self._clusters, self._episodes = [], []
        if clusters or episodes:
            task = asyncio.get_running_loop().create_task(self._queue(clusters, episodes, time.time()))
            self._queueing.add(task)
            task.add_done_callback(self._queueing.discard)

    async def settle(self) -> None:
        """Queue what is gathered, and wait until every count gathered so far is queued."""
        self.flush()
        while self._queueing:
            await asyncio.gather(*self._queueing)

    async def _queue(self, clusters: list[int], episodes: list[int], at: float) -> None:
        try:
            if clusters:
                await asyncio.to_thread(self._jobs.enqueue, "hits", {"clusters": clusters, "at": at})
            if episodes:
                await asyncio.to_thread(self._jobs.enqueue, "touch", {"episodes": episodes, "at": at})
        except Exception as exc:  # hit counts only rank clusters: the reads have answered already
            log.warning("reads' hit counts were not queued: %s", exc)
        self._wake()
