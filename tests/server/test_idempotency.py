"""Issue 18 §14: idempotent writes. A retry after a lost reply, with the same
`Idempotency-Key` (REST) or `idempotency_key` (library, MCP), stores nothing twice and gets
the first write's turns back; the same key for other turns is a conflict."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from mcp import Client

from pmemo import errors
from pmemo.mcp import build_server

from .live import LiveServer


def _batch(user: str, n: int = 3) -> dict[str, Any]:
    return {"turns": [{"user_id": user, "session_id": "s", "content": f"message {i}"} for i in range(n)]}


@pytest.fixture
async def http(live: LiveServer) -> Any:
    async with httpx.AsyncClient(
        base_url=live.url, headers={"Authorization": f"Bearer {live.key}"}, timeout=30
    ) as c:
        yield c


async def _count(http: httpx.AsyncClient, user: str) -> int:
    got = await http.get("/v1/turns", params={"user_id": user, "limit": 1000})
    assert got.status_code == 200, got.text
    return len(got.json()["turns"])


async def test_retried_batch_is_stored_once(http: httpx.AsyncClient) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = await http.post("/v1/turns", json=_batch("idem-a"), headers=key)
    again = await http.post("/v1/turns", json=_batch("idem-a"), headers=key)
    assert first.status_code == again.status_code == 201
    assert [t["id"] for t in again.json()["turns"]] == [t["id"] for t in first.json()["turns"]]
    assert await _count(http, "idem-a") == 3
    other = await http.post("/v1/turns", json=_batch("idem-a", 2), headers=key)
    assert other.status_code == 409 and "idempotency key" in other.json()["detail"]
    assert await _count(http, "idem-a") == 3
    fresh = await http.post("/v1/turns", json=_batch("idem-a"))  # no key: a new write
    assert fresh.status_code == 201 and await _count(http, "idem-a") == 6


async def test_retried_single_turn_is_stored_once(http: httpx.AsyncClient) -> None:
    one = {"user_id": "idem-b", "session_id": "s", "content": "hello"}  # no timestamp: "now" each call
    key = {"Idempotency-Key": "msg-42"}
    first = await http.post("/v1/turns", json=one, headers=key)
    again = await http.post("/v1/turns", json=one, headers=key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert await _count(http, "idem-b") == 1
    bad = await http.post("/v1/turns", json=one, headers={"Idempotency-Key": "tab\tinside"})
    assert bad.status_code == 422 and "idempotency" in bad.json()["detail"].lower()


async def test_keys_are_per_tenant(memory: Any) -> None:
    a = await memory.add(tenant_id="ta", user_id="u", session_id="s", content="x", idempotency_key="k1")
    b = await memory.add(tenant_id="tb", user_id="u", session_id="s", content="x", idempotency_key="k1")
    assert a.id != b.id and b.scope.tenant_id == "tb"
    with pytest.raises(errors.InvalidInput, match="one tenant"):
        await memory.add_many(
            [{"tenant_id": t, "user_id": "u", "session_id": "s", "content": "y"} for t in ("ta", "tb")],
            idempotency_key="k2",
        )
    with pytest.raises(errors.Conflict):
        await memory.add(tenant_id="ta", user_id="u", session_id="s", content="other", idempotency_key="k1")


async def test_mcp_remember_is_idempotent(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        args = {"user_id": "u", "session_id": "s", "content": "hi", "idempotency_key": "chat-msg-7"}
        first = await client.call_tool("remember", args)
        again = await client.call_tool("remember", args)
        assert not first.is_error and first.structured_content == again.structured_content
    assert len(await memory.turns(tenant_id="t1", user_id="u")) == 1


async def test_a_retry_that_filled_the_quota_gets_its_turns(tmp_path: Any) -> None:
    from pmemo import Memory, Settings

    mem = await Memory.open(tmp_path, embedder="hashing", settings=Settings(quota_turns=3))
    try:
        batch = [{"user_id": "u", "session_id": "s", "content": f"m{i}"} for i in range(3)]
        first = await mem.add_many(batch, idempotency_key="fills-it")
        again = await mem.add_many(batch, idempotency_key="fills-it")  # the reply was lost
        assert [t.id for t in again] == [t.id for t in first]
        with pytest.raises(errors.QuotaExceeded):
            await mem.add_many(batch, idempotency_key="a-new-write")
    finally:
        await mem.close()
