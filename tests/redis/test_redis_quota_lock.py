"""Quota admission with Redis (issue 21 §3): concurrent writers of one tenant never take it
past its quota; the Redis lock itself excludes a second replica (its own connection), lets
other tenants through, refuses after its wait, and frees a dead replica's hold when it
expires; with Redis unreachable, writes go on under the in-process lock, with one warning.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pmemo import Memory, QuotaExceeded, Settings
from pmemo.errors import StoreLocked
from pmemo.redis_link import RedisLink
from pmemo.tenant_lock import TenantLock


@pytest.fixture
def links(redis_url: str, prefix: str) -> Iterator[list[RedisLink]]:
    """Two replicas' links: one Redis, two connection pools."""
    made = [RedisLink(redis_url, prefix) for _ in range(2)]
    yield made
    for link in made:
        link.close()


async def fill(memory: Memory, writer: str, tries: int) -> int:
    stored = 0
    for n in range(tries):
        try:
            await memory.add(session_id=writer, user_id="u", tenant_id="acme", content=f"{writer} {n}")
            stored += 1
        except QuotaExceeded:
            pass
    return stored


async def test_concurrent_writers_never_pass_a_tenants_quota(tmp_path: Path, settings: Settings) -> None:
    memory = await Memory.open(tmp_path / "m", settings=settings.replace(quota_turns=10))
    try:
        stored = await asyncio.gather(*(fill(memory, f"w{i}", 8) for i in range(3)))
        assert sum(stored) == 10
        assert len(await memory.turns(user_id="u", tenant_id="acme", limit=100)) == 10
        await memory.add(session_id="s", user_id="u", tenant_id="other", content="another tenant still writes")
    finally:
        await memory.close()


async def test_the_redis_lock_lets_one_replica_at_a_time_into_a_tenant(links: list[RedisLink]) -> None:
    inside, most, stored = 0, 0, 0

    async def admit(lock: TenantLock) -> None:  # check, then write, as Memory does around quota.admit
        nonlocal inside, most, stored
        async with lock.held(["acme"]):
            inside += 1
            most = max(most, inside)
            seen = stored
            await asyncio.sleep(0.002)  # the store's read and write
            if seen < 15:
                stored = seen + 1
            inside -= 1

    locks = [TenantLock(link) for link in links]  # no in-process lock between them: Redis alone
    await asyncio.gather(*(admit(locks[i % 2]) for i in range(40)))
    assert most == 1 and stored == 15


async def test_other_tenants_pass_and_a_held_tenant_refuses_after_its_wait(links: list[RedisLink]) -> None:
    first, second = TenantLock(links[0]), TenantLock(links[1], wait_s=0.3)
    async with first.held(["acme"]):
        async with second.held(["globex"]):  # another tenant: no wait
            pass
        started = time.monotonic()
        with pytest.raises(StoreLocked, match="acme"):
            async with second.held(["acme", "globex"]):
                pass
        assert time.monotonic() - started >= 0.3
    async with second.held(["globex"]):  # what the refused write took on its way is let go
        pass


async def test_a_dead_replicas_hold_expires(links: list[RedisLink]) -> None:
    dead = links[0].client.lock(links[0].key("quota", "acme"), timeout=0.5, thread_local=False)
    assert dead.acquire(blocking=False)  # taken, and never released
    started = time.monotonic()
    async with TenantLock(links[1], wait_s=5).held(["acme"]):
        waited = time.monotonic() - started
    assert 0.3 <= waited < 3


async def test_unreachable_redis_still_keeps_the_quota_with_one_warning(
        tmp_path: Path, redis_warnings: Callable[[], list[str]]) -> None:
    down = Settings(redis_url="redis://127.0.0.1:1/0", quota_turns=6, rate_limit="off", embedder="hashing")
    memory = await Memory.open(tmp_path / "m", settings=down)
    try:
        stored = await asyncio.gather(*(fill(memory, f"w{i}", 4) for i in range(3)))
        assert sum(stored) == 6
        assert len(await memory.turns(user_id="u", tenant_id="acme", limit=100)) == 6
    finally:
        await memory.close()
    assert len(redis_warnings()) == 1, redis_warnings()

