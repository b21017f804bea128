from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pmemo import Settings
from pmemo.server import KeyStore, SQLiteKeyStore, create_app

from .live import LiveServer, open_memory

BASE = "http://127.0.0.1:8765"  # MCP's DNS-rebinding guard wants a loopback Host


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[Any]:
    m = await open_memory(tmp_path / "memory")
    yield m
    await m.close()


@pytest.fixture
def keys(tmp_path: Path) -> KeyStore:
    store = SQLiteKeyStore.in_dir(tmp_path)
    yield store
    store.close()


@pytest.fixture
def key(keys: KeyStore) -> str:
    return keys.create_key("t1")


@pytest.fixture
def other_key(keys: KeyStore) -> str:
    return keys.create_key("t2")


@pytest.fixture
def admin_key(keys: KeyStore) -> str:
    return keys.create_key(admin=True)


@pytest.fixture
def app(memory: Any, keys: KeyStore) -> Any:
    # No lifespan here: it only runs MCP's session manager, whose task group must be
    # entered and left in one task (MCP-over-HTTP tests run it inside the test).
    return create_app(memory, keys)


@pytest.fixture
async def client(app: Any, key: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE,
        headers={"Authorization": f"Bearer {key}"},
    ) as c:
        yield c


@pytest.fixture
async def anon(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as c:
        yield c


def sample_seed() -> list[dict[str, Any]]:
    from pmemo.cli.serve_cmd import sample_turns

    return [{k: v for k, v in t.items() if k != "tenant_id"} for t in sample_turns()]


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> LiveServer:
    # Many tests share this server and its one key: no rate limit here (test_limits.py has its own)
    settings = Settings.from_env(rate_limit="off")
    server = LiveServer(tmp_path_factory.mktemp("live"), seed=sample_seed(), settings=settings).start()
    yield server
    server.stop()
