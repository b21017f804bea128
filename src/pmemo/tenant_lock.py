"""Each tenant's quota lock, shared by server replicas through Redis (issue 21 §3).

``Memory`` checks a write against its tenants' quotas and stores it under one in-process
lock, so two writers in one process never both take a tenant's last place. Replicas share
the quotas (the store) but not that lock: with ``PMEMO_REDIS_URL``, a Redis lock per tenant
is held around the same check and write. A lock expires after ``LOCK_S``, so a replica that
died holding one blocks the tenant no longer than that. Redis unreachable: the in-process
lock alone, as without Redis (the link logs the outage once).

>>> import asyncio
>>> async def write():
...     async with TenantLock(None).held(["acme"]):  # no Redis: nothing to take
...         return "stored"
>>> asyncio.run(write())
'stored'
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from .errors import StoreLocked
from .redis_link import RedisLink

log = logging.getLogger("pmemo.redis")

LOCK_S = 30.0  # the longest a write may hold its tenants: a check and one batch take far less
WAIT_S = 30.0  # the longest a write waits for a tenant another replica holds, then 503
POLL_S = 0.02  # how often a waiting write tries again


class TenantLock:
    def __init__(self, link: RedisLink | None, *, lock_s: float = LOCK_S, wait_s: float = WAIT_S) -> None:
        self.link, self.lock_s, self.wait_s = link, lock_s, wait_s

    @asynccontextmanager
    async def held(self, tenants: Iterable[str]) -> AsyncIterator[None]:
        """Hold the Redis locks of ``tenants`` (taken in sorted order: two writers of the same
        tenants never wait on each other crosswise); ``StoreLocked`` after ``wait_s``."""
        if self.link is None:
            yield
            return
        locks = await self._acquire(self.link, sorted(set(tenants)))
        try:
            yield
        finally:
            if locks:
                await asyncio.to_thread(self._release, self.link, locks)

    async def _acquire(self, link: RedisLink, tenants: list[str]) -> list[Any]:
        # each try is one quick call in a thread, the waits between them on the event loop: a
        # writer waiting for another replica holds no thread the holder may need to finish
        if not await asyncio.to_thread(link.usable):
            return []
        held: list[Any] = []
        try:
            for tenant in tenants:
                # not thread-local: taken and released in different worker threads
                lock = link.client.lock(link.key("quota", tenant), timeout=self.lock_s, thread_local=False)
                deadline = time.monotonic() + self.wait_s
                while not await asyncio.to_thread(lock.acquire, blocking=False):
                    if time.monotonic() >= deadline:
                        await asyncio.to_thread(self._release, link, held)
                        raise StoreLocked(f"tenant {tenant!r} is being written by another server, which has "
                                          f"held its quota lock in Redis for over {self.wait_s:g} s: retry")
                    await asyncio.sleep(POLL_S)
                held.append(lock)
        except link.errors as exc:
            link.failed(exc)
            await asyncio.to_thread(self._release, link, held)
            return []
        return held

    def _release(self, link: RedisLink, locks: list[Any]) -> None:
        from redis.exceptions import LockNotOwnedError

        for lock in locks:
            try:
                lock.release()
            except LockNotOwnedError:
                log.warning("a write held its tenant's quota lock past %g s, when Redis let it go: another "
                            "server may have written beside it", self.lock_s)
            except link.errors as exc:
                link.failed(exc)
