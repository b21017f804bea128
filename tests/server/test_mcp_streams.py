"""Issue 18 §10: the stateless MCP endpoint opens no stream that stays open (GET and DELETE
are 405 with ``Allow: POST``), and one key can hold only so many requests open at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from pmemo import Memory, Settings
from pmemo.server import SQLiteKeyStore, create_app

from .conftest import BASE
from .live import LiveServer

HEADERS = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}


def refused_method(r: httpx.Response) -> None:
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == "POST"
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "method_not_allowed" and "POST" in r.json()["detail"]


def test_get_mcp_is_refused_at_once_on_a_real_server(live: LiveServer) -> None:
    auth = {"Authorization": f"Bearer {live.key}"}
    # before the fix this GET opened an SSE stream that never ended: the read timed out
    with httpx.Client(base_url=live.url, timeout=5) as c:
        refused_method(c.get("/mcp", headers={**HEADERS, **auth}))
        refused_method(c.get("/mcp", headers={"Accept": "text/event-stream"}))  # no key either
        refused_method(c.delete("/mcp", headers={**HEADERS, **auth}))
        r = c.post("/mcp", headers={**HEADERS, **auth}, json=INITIALIZE)
        assert r.status_code == 200, r.text
        assert r.json()["result"]["serverInfo"]["name"]


async def test_one_key_may_hold_only_so_many_requests_open(tmp_path: Path) -> None:
    settings = Settings(data=str(tmp_path / "memory"), embedder="hashing", mcp_max_concurrent=1)
    memory = await Memory.open(settings=settings)
    keys = SQLiteKeyStore.in_dir(tmp_path)
    key, other = keys.create_key("t1"), keys.create_key("t2")
    app = create_app(memory, keys)
    sent, finish = asyncio.Event(), asyncio.Event()

    async def slow_body() -> AsyncIterator[bytes]:
        # a client that sends its request slowly: the request stays open until ``finish``
        body = httpx.Request("POST", BASE, json=INITIALIZE).content
        yield body[:10]
        sent.set()
        await finish.wait()
        yield body[10:]

    def client(k: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url=BASE,
            headers={**HEADERS, "Authorization": f"Bearer {k}"},
        )

    try:
        async with app.router.lifespan_context(app), client(key) as c, client(other) as o:
            held: asyncio.Task[Any] = asyncio.create_task(
                c.post("/mcp", content=slow_body(), headers={"Content-Type": "application/json"})
            )
            await asyncio.wait_for(sent.wait(), 10)
            # the same key: refused while its one request is open, saying when to retry
            r = await c.post("/mcp", json=INITIALIZE)
            assert r.status_code == 429, r.text
            assert r.headers["retry-after"] == "1"
            assert r.json()["setting"] == "PMEMO_MCP_MAX_CONCURRENT" and r.json()["limit"] == 1
            assert "PMEMO_MCP_MAX_CONCURRENT" in r.json()["detail"]
            # another key is not held up
            assert (await o.post("/mcp", json=INITIALIZE)).status_code == 200
            finish.set()
            assert (await asyncio.wait_for(held, 10)).status_code == 200
            # the slot is given back when the request ends
            assert (await c.post("/mcp", json=INITIALIZE)).status_code == 200
    finally:
        finish.set()
        await memory.close()
        keys.close()
