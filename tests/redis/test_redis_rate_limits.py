"""Rate limits through Redis (issue 21 §3): two server replicas (two apps over two data
folders, one key store) count each API key's requests in one moving window, over real HTTP
(httpx against each ASGI app); with Redis unreachable each counts alone, with one warning.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from pmemo import Memory, Settings
from pmemo.server import SQLiteKeyStore, create_app

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def keys(tmp_path: Path) -> Any:
    store = SQLiteKeyStore.in_dir(tmp_path / "keys")
    yield store
    store.close()


@asynccontextmanager
async def replicas(tmp_path: Path, settings: Settings, keys: Any, count: int) -> AsyncIterator[list[Any]]:
    """``count`` apps, each over its own Memory, as server replicas are."""
    async with AsyncExitStack() as stack:
        apps = []
        for i in range(count):
            memory = await Memory.open(tmp_path / f"replica{i}", settings=settings)
            stack.push_async_callback(memory.close)
            apps.append(create_app(memory, keys, mcp=False, web=False))
        yield apps


def client(app: Any, key: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE,
                             headers={"Authorization": f"Bearer {key}"})


async def statuses(app: Any, key: str, count: int) -> list[int]:
    async with client(app, key) as h:
        return [(await h.get("/v1/stats")).status_code for _ in range(count)]


async def test_two_replicas_share_one_window_per_key(tmp_path: Path, settings: Settings, keys: Any,
                                                     raw: Any, prefix: str) -> None:
    key, other = keys.create_key("t1"), keys.create_key("t2")
    async with replicas(tmp_path, settings.replace(rate_limit="3/minute"), keys, 2) as (first, second):
        assert await statuses(first, key, 2) == [200, 200]
        assert await statuses(second, key, 1) == [200]  # the third of the minute, wherever it lands
        async with client(second, key) as h:
            refused = await h.get("/v1/stats")
        assert refused.status_code == 429, refused.text
        assert refused.json()["setting"] == "PMEMO_RATE_LIMIT" and int(refused.headers["Retry-After"]) >= 1
        assert await statuses(first, key, 1) == [429]
        assert await statuses(second, other, 3) == [200, 200, 200]  # another key: its own window
    assert list(raw.scan_iter(match=prefix + "rate*")), "the windows were not kept in Redis"


async def test_unreachable_redis_counts_in_each_process_with_one_warning(
        tmp_path: Path, keys: Any, redis_warnings: Callable[[], list[str]]) -> None:
    key = keys.create_key("t1")
    down = Settings(redis_url="redis://127.0.0.1:1/0", rate_limit="3/minute", embedder="hashing")
    async with replicas(tmp_path, down, keys, 1) as (app,):
        assert await statuses(app, key, 5) == [200, 200, 200, 429, 429]
    assert len(redis_warnings()) == 1, redis_warnings()


async def test_a_cut_redis_falls_back_and_is_used_again(tmp_path: Path, keys: Any, relay: Any, prefix: str,
                                                        quick_probe: float, raw: Any,
                                                        redis_warnings: Callable[[], list[str]]) -> None:
    key = keys.create_key("t1")
    settings = Settings(redis_url=relay.url, redis_prefix=prefix, rate_limit="4/minute", embedder="hashing")
    async with replicas(tmp_path, settings, keys, 1) as (app,):
        assert await statuses(app, key, 2) == [200, 200]  # counted in Redis
        relay.cut()
        assert await statuses(app, key, 5) == [200] * 4 + [429]  # this process alone, from nothing
        assert len(redis_warnings()) == 1, redis_warnings()
        relay.restore()
        await asyncio.sleep(quick_probe * 1.5)
        assert await statuses(app, key, 3) == [200, 200, 429]  # Redis again: its window held 2
    assert len(redis_warnings()) == 1, redis_warnings()
