"""Issue 19: waiting until written turns are processed, without polling tenant-wide stats:
``Memory.drain(**scope)`` / ``Memory.pending(**scope)`` and ``POST /v1/turns?wait=true``.
A wait counts the jobs of its own turns' owners only: another tenant's backlog is not waited
for (the one worker still finishes the job it is in before it takes the next)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from mcp import Client

from pmemo import Memory
from pmemo.mcp import build_server
from pmemo.server import SQLiteKeyStore, create_app

from .conftest import BASE
from .test_stats_isolation import GatedEmbedder, until

ALICE = {"user_id": "alice", "session_id": "s1"}


async def test_wait_is_per_owner_and_never_on_another_tenant(tmp_path: Path) -> None:
    embedder = GatedEmbedder()
    memory = await Memory.open(str(tmp_path / "memory"), embedder=embedder)
    keys = SQLiteKeyStore.in_dir(tmp_path)
    app = create_app(memory, keys)

    def client(tenant: str) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {keys.create_key(tenant)}"}
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, headers=headers, timeout=60)

    try:
        async with client("ta") as a, client("tb") as b:
            stuck = await a.post("/v1/turns", json={**ALICE, "content": "a slow message"})
            assert stuck.status_code == 201
            await asyncio.wait_for(asyncio.to_thread(embedder.waiting.wait, 20), 30)  # the worker is in it
            assert await memory.pending(tenant_id="ta") >= 1
            assert await memory.pending(tenant_id="tb") == 0
            await asyncio.wait_for(memory.drain(tenant_id="tb"), 5)  # nothing of tb's: at once

            # tb's wait lasts while the worker is in ta's job, and ends with tb's own work
            waiting = asyncio.create_task(
                b.post("/v1/turns", params={"wait": "true", "wait_seconds": 20},
                       json={"turns": [{**ALICE, "content": f"tb note {i} about kayaks"} for i in range(3)]})
            )
            await asyncio.sleep(0.2)
            assert not waiting.done()  # it waits: the worker is busy with ta's job
            embedder.release.set()
            done = await asyncio.wait_for(waiting, 30)
            assert done.status_code == 201 and done.headers["Pmemo-Pending-Jobs"] == "0"
            assert len(done.json()["turns"]) == 3
            assert await memory.pending(tenant_id="tb", user_id="alice") == 0
            hits = (await b.post("/v1/search", json={"user_id": "alice", "query": "kayaks"})).json()["hits"]
            assert hits and "meaning" in hits[0]["why"]  # embedded: found by meaning too

            plain = await b.post("/v1/turns", json={**ALICE, "content": "no wait"})
            assert plain.status_code == 201 and "Pmemo-Pending-Jobs" not in plain.headers
            bad = await b.post("/v1/turns", params={"wait": "true", "wait_seconds": 0}, json={**ALICE, "content": "x"})
            assert bad.status_code == 422 and "wait_seconds" in bad.json()["detail"]
            await until(lambda: _zero(memory, "ta"))
    finally:
        embedder.release.set()
        await memory.close()
        keys.close()


async def _zero(memory: Memory, tenant: str) -> bool:
    return await memory.pending(tenant_id=tenant) == 0


async def test_wait_times_out_with_the_count_left(tmp_path: Path) -> None:
    embedder = GatedEmbedder()
    memory = await Memory.open(str(tmp_path / "memory"), embedder=embedder)
    keys = SQLiteKeyStore.in_dir(tmp_path)
    app = create_app(memory, keys)
    headers = {"Authorization": f"Bearer {keys.create_key('ta')}"}
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, headers=headers) as c:
            r = await c.post("/v1/turns", params={"wait": "true", "wait_seconds": 0.5},
                             json={**ALICE, "content": "a slow one"})
            assert r.status_code == 201 and int(r.headers["Pmemo-Pending-Jobs"]) >= 1
            assert (await c.get(f"/v1/turns/{r.json()['id']}")).status_code == 200  # stored all the same
    finally:
        embedder.release.set()
        await memory.close()
        keys.close()


async def test_mcp_remember_backfills_time_and_metadata(memory: Memory) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        result = await client.call_tool(
            "remember",
            {"user_id": "u", "session_id": "s", "content": "we met in Lisbon",
             "timestamp": "2023-05-01T10:00:00+08:00", "metadata": {"msg_id": "m-1", "tags": ["trip"]}},
        )
        assert not result.is_error, result.content
        bad = await client.call_tool("remember", {"user_id": "u", "session_id": "s", "content": "x",
                                                  "timestamp": "yesterday-ish"})
        assert bad.is_error and "timestamp" in bad.content[0].text
    (turn,) = await memory.turns(tenant_id="t1", user_id="u")
    assert turn.timestamp.isoformat() == "2023-05-01T10:00:00+08:00"
    assert turn.metadata == {"msg_id": "m-1", "tags": ["trip"]}
