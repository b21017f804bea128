"""Limits (issue 18 §2) on the real server: per-key rate limits (REST and MCP), per-tenant
quotas of turns, bytes and scopes, the batch size and the body cap of each route.

Every refusal is a problem body naming the limit and the ``PMEMO_*`` setting that sets it;
what was stored before stays, and another tenant (or key) never notices.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pmemo import InvalidInput, Memory, Settings
from pmemo.server import KeyStore, create_app

from .conftest import BASE
from .live import LiveServer

ALICE = {"user_id": "alice", "session_id": "s1"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
MiB = 1024 * 1024


@asynccontextmanager
async def serving(tmp_path: Path, keys: KeyStore, **settings: Any) -> AsyncIterator[tuple[Any, Any]]:
    """The app over a real Memory with these settings, its lifespan (MCP) running."""
    memory = await Memory.open(tmp_path / "memory", settings=Settings(**settings), embedder="hashing")
    try:
        app = create_app(memory, keys)
        async with app.router.lifespan_context(app):
            yield memory, app
    finally:
        await memory.close()


def http(app: Any, key: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, headers=auth(key))


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def refused(r: httpx.Response, status: int, setting: str) -> dict[str, Any]:
    """A problem body that names the setting and the limit."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    body = r.json()
    assert body["status"] == status and body["setting"] == setting and "limit" in body, body
    assert setting in body["detail"], body["detail"]
    assert "Traceback" not in r.text
    return body


def turn(content: str, **kw: Any) -> dict[str, Any]:
    return {**ALICE, "content": content, **kw}


async def contents(memory: Any, tenant: str, **owner: Any) -> list[str]:
    return [t.content for t in await memory.turns(tenant_id=tenant, **(owner or {"user_id": "alice"}))]


# ---- rate limits ------------------------------------------------------------------------


@pytest.fixture
def limited_live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path, settings=Settings(rate_limit="4/minute")).start()
    yield server
    server.stop()


def test_rate_limit_per_key_over_real_http(limited_live: LiveServer) -> None:
    """A uvicorn server: a key's 5th request in a minute is 429 with Retry-After, on REST and
    on MCP alike; another tenant's key and the admin key go on unslowed."""
    live = limited_live
    with httpx.Client(base_url=live.url, timeout=30) as h:
        made = h.post("/v1/admin/keys", json={"tenant": "t2"}, headers=auth(live.admin_key))
        assert made.status_code == 201, made.text
        other = made.json()["key"]
        for _ in range(4):
            assert h.get("/v1/stats", headers=auth(live.key)).status_code == 200
        r = h.get("/v1/stats", headers=auth(live.key))
        body = refused(r, 429, "PMEMO_RATE_LIMIT")
        assert body["code"] == "rate_limited" and body["limit"] == "4/minute"
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        r = h.post("/mcp", json=LIST_TOOLS, headers={**auth(live.key), **MCP_HEADERS})
        refused(r, 429, "PMEMO_RATE_LIMIT")
        assert int(r.headers["Retry-After"]) >= 1
        for _ in range(4):
            assert h.get("/v1/stats", headers=auth(other)).status_code == 200
        assert h.get("/v1/admin/tenants", headers=auth(live.admin_key)).status_code == 200


async def test_rate_limit_on_mcp_is_per_key(tmp_path: Path, keys: KeyStore, key: str, other_key: str) -> None:
    async with serving(tmp_path, keys, rate_limit="3/minute") as (_, app):
        async with http(app, key) as h, http(app, other_key) as o:
            for _ in range(3):
                r = await h.post("/mcp", json=LIST_TOOLS, headers=MCP_HEADERS)
                assert r.status_code == 200, r.text
            r = await h.post("/mcp", json=LIST_TOOLS, headers=MCP_HEADERS)
            refused(r, 429, "PMEMO_RATE_LIMIT")
            assert int(r.headers["Retry-After"]) >= 1
            assert (await h.get("/v1/stats")).status_code == 429  # one budget per key
            for _ in range(3):
                assert (await o.post("/mcp", json=LIST_TOOLS, headers=MCP_HEADERS)).status_code == 200


async def test_rate_limit_off_and_a_bad_value(tmp_path: Path, keys: KeyStore, key: str) -> None:
    async with serving(tmp_path, keys, rate_limit="off") as (_, app), http(app, key) as h:
        for _ in range(30):
            assert (await h.get("/v1/stats")).status_code == 200
    memory = await Memory.open(tmp_path / "m2", settings=Settings(rate_limit="lots"), embedder="hashing")
    try:
        with pytest.raises(InvalidInput, match="PMEMO_RATE_LIMIT"):
            create_app(memory, keys)
    finally:
        await memory.close()


# ---- quotas -----------------------------------------------------------------------------


async def test_turn_quota(tmp_path: Path, keys: KeyStore, key: str, other_key: str) -> None:
    async with serving(tmp_path, keys, quota_turns=3) as (memory, app):
        async with http(app, key) as h, http(app, other_key) as o:
            assert (await h.post("/v1/turns", json=turn("one"))).status_code == 201
            r = await h.post("/v1/turns", json={"turns": [turn("two"), turn("three")]})
            assert r.status_code == 201, r.text
            r = await h.post("/v1/turns", json=turn("four"))
            body = refused(r, 429, "PMEMO_QUOTA_TURNS")
            assert body["code"] == "quota_exceeded" and body["limit"] == 3
            assert await contents(memory, "t1") == ["one", "two", "three"]  # untouched
            # the other tenant has its own three
            r = await o.post("/v1/turns", json={"turns": [turn("a"), turn("b"), turn("c")]})
            assert r.status_code == 201, r.text
            refused(await o.post("/v1/turns", json=turn("d")), 429, "PMEMO_QUOTA_TURNS")
            # a deleted turn frees its place (the counter follows deletes)
            first = (await h.get("/v1/turns", params={"user_id": "alice"})).json()["turns"][0]
            assert (await h.delete(f"/v1/turns/{first['id']}")).status_code == 200
            r = await h.post("/v1/turns", json={"turns": [turn("four"), turn("five")]})
            refused(r, 429, "PMEMO_QUOTA_TURNS")  # a batch is all or nothing
            assert (await h.post("/v1/turns", json=turn("four"))).status_code == 201
            assert await contents(memory, "t1") == ["two", "three", "four"]


async def test_turn_quota_over_mcp(tmp_path: Path, keys: KeyStore, key: str) -> None:
    async with serving(tmp_path, keys, quota_turns=1) as (memory, app):
        async with http(app, key) as h, Client(streamable_http_client(f"{BASE}/mcp", http_client=h)) as c:
            ok = await c.call_tool("remember", {**ALICE, "content": "kept"})
            assert not ok.is_error, ok.content
            over = await c.call_tool("remember", {**ALICE, "content": "over"})
            assert over.is_error
            text = over.content[0].text  # type: ignore[union-attr]
            assert "quota_exceeded: " in text and "PMEMO_QUOTA_TURNS" in text
        assert await contents(memory, "t1") == ["kept"]


async def test_byte_quota(tmp_path: Path, keys: KeyStore, key: str, other_key: str) -> None:
    async with serving(tmp_path, keys, quota_bytes=100) as (memory, app):
        async with http(app, key) as h, http(app, other_key) as o:
            assert (await h.post("/v1/turns", json=turn("x" * 60))).status_code == 201
            r = await h.post("/v1/turns", json=turn("猫" * 14))  # 42 bytes in UTF-8, 14 characters
            body = refused(r, 413, "PMEMO_QUOTA_BYTES")
            assert body["code"] == "quota_exceeded" and body["limit"] == 100
            # metadata is stored too, and counts
            refused(await h.post("/v1/turns", json=turn("y", metadata={"k": "z" * 50})), 413, "PMEMO_QUOTA_BYTES")
            assert (await h.post("/v1/turns", json=turn("猫" * 13))).status_code == 201  # 99 bytes in all
            assert await contents(memory, "t1") == ["x" * 60, "猫" * 13]
            assert (await o.post("/v1/turns", json=turn("z" * 100))).status_code == 201


async def test_scope_quota(tmp_path: Path, keys: KeyStore, key: str, other_key: str) -> None:
    async with serving(tmp_path, keys, quota_scopes=2) as (memory, app):
        async with http(app, key) as h, http(app, other_key) as o:
            for user in ("alice", "bob"):
                r = await h.post("/v1/turns", json={"user_id": user, "session_id": "s", "content": "hi"})
                assert r.status_code == 201, r.text
            r = await h.post("/v1/turns", json={"user_id": "carol", "session_id": "s", "content": "hi"})
            body = refused(r, 429, "PMEMO_QUOTA_SCOPES")
            assert body["code"] == "quota_exceeded" and body["limit"] == 2
            r = await h.post("/v1/turns", json={"group_id": "team", "session_id": "s", "content": "hi"})
            refused(r, 429, "PMEMO_QUOTA_SCOPES")
            # a scope it has takes more turns; another tenant has its own scopes
            assert (await h.post("/v1/turns", json={**turn("again"), "session_id": "s2"})).status_code == 201
            for user in ("carol", "dave"):
                r = await o.post("/v1/turns", json={"user_id": user, "session_id": "s", "content": "hi"})
                assert r.status_code == 201, r.text
            assert await memory.owners(tenant_id="t1") == ["u:alice", "u:bob"]
            # deleting a user's memory frees the scope
            assert (await h.delete("/v1/owners", params={"user_id": "bob"})).status_code == 200
            r = await h.post("/v1/turns", json={"user_id": "carol", "session_id": "s", "content": "hi"})
            assert r.status_code == 201, r.text


async def test_quota_in_the_library(tmp_path: Path) -> None:
    """``Memory.add`` itself refuses: every adapter (REST, MCP, CLI) honours the quota."""
    from pmemo import QuotaExceeded

    memory = await Memory.open(tmp_path / "m", settings=Settings(quota_turns=1), embedder="hashing")
    try:
        await memory.add(content="one", **ALICE)
        with pytest.raises(QuotaExceeded, match="PMEMO_QUOTA_TURNS") as caught:
            await memory.add_many([{"content": "two", **ALICE}])
        assert caught.value.setting == "PMEMO_QUOTA_TURNS" and caught.value.limit == 1
        await memory.add(content="other tenant", tenant_id="t2", **ALICE)
    finally:
        await memory.close()


# ---- batch and body size ----------------------------------------------------------------


async def test_batch_over_the_max(tmp_path: Path, keys: KeyStore, key: str) -> None:
    async with serving(tmp_path, keys, max_batch=3) as (memory, app), http(app, key) as h:
        r = await h.post("/v1/turns", json={"turns": [turn(f"t{i}") for i in range(4)]})
        body = refused(r, 413, "PMEMO_MAX_BATCH")
        assert body["code"] == "too_large" and body["limit"] == 3
        assert await contents(memory, "t1") == []
        assert (await h.post("/v1/turns", json={"turns": [turn(f"t{i}") for i in range(3)]})).status_code == 201


async def test_batch_max_is_settable_above_the_old_500(tmp_path: Path, keys: KeyStore, key: str) -> None:
    async with serving(tmp_path, keys, max_batch=600) as (memory, app), http(app, key) as h:
        r = await h.post("/v1/turns", json={"turns": [turn(f"t{i}") for i in range(550)]})
        assert r.status_code == 201, r.text[:300]
        assert len(r.json()["turns"]) == 550


def padded(body: dict[str, Any], size: int) -> bytes:
    """Valid JSON of ``size`` bytes: the body, then spaces."""
    raw = httpx.Request("POST", BASE, json=body).content
    return raw + b" " * (size - len(raw))


async def test_body_caps_per_route(tmp_path: Path, keys: KeyStore, key: str) -> None:
    """Defaults: 8 MiB for POST /v1/turns, 1 MiB for everything else (/mcp too)."""
    json_type = {"Content-Type": "application/json"}
    async with serving(tmp_path, keys) as (memory, app), http(app, key) as h:
        search = {"user_id": "alice", "query": "cat"}
        assert (await h.post("/v1/search", content=padded(search, MiB // 2), headers=json_type)).status_code == 200
        r = await h.post("/v1/search", content=padded(search, 2 * MiB), headers=json_type)
        body = refused(r, 413, "PMEMO_MAX_BODY_BYTES")
        assert body["code"] == "too_large" and body["limit"] == MiB
        r = await h.post("/mcp", content=padded(LIST_TOOLS, 2 * MiB), headers={**json_type, **MCP_HEADERS})
        refused(r, 413, "PMEMO_MAX_BODY_BYTES")
        # the turns route takes more, up to its own cap
        r = await h.post("/v1/turns", content=padded(turn("big"), 2 * MiB), headers=json_type)
        assert r.status_code == 201, r.text
        r = await h.post("/v1/turns", content=padded(turn("huge"), 9 * MiB), headers=json_type)
        refused(r, 413, "PMEMO_MAX_TURNS_BODY_BYTES")
        assert await contents(memory, "t1") == ["big"]


async def test_body_cap_is_settable_and_holds_without_a_length(tmp_path: Path, keys: KeyStore, key: str) -> None:
    json_type = {"Content-Type": "application/json"}

    def chunks(raw: bytes) -> Iterator[bytes]:  # no Content-Length: a chunked body
        for start in range(0, len(raw), 1000):
            yield raw[start : start + 1000]

    async with serving(tmp_path, keys, max_body_bytes=4096, max_turns_body_bytes=8192) as (memory, app):
        async with http(app, key) as h:
            search = {"user_id": "alice", "query": "cat"}
            refused(await h.post("/v1/search", content=padded(search, 5000), headers=json_type),
                    413, "PMEMO_MAX_BODY_BYTES")
            r = await h.post("/v1/search", content=_aiter(chunks(padded(search, 5000))), headers=json_type)
            refused(r, 413, "PMEMO_MAX_BODY_BYTES")
            r = await h.post("/v1/turns", content=_aiter(chunks(padded(turn("a"), 9000))), headers=json_type)
            refused(r, 413, "PMEMO_MAX_TURNS_BODY_BYTES")
            r = await h.post("/mcp", content=_aiter(chunks(padded(LIST_TOOLS, 5000))),
                             headers={**json_type, **MCP_HEADERS})
            refused(r, 413, "PMEMO_MAX_BODY_BYTES")
            assert (await h.post("/v1/turns", content=padded(turn("fits"), 6000), headers=json_type)).status_code == 201
        assert await contents(memory, "t1") == ["fits"]


async def _aiter(items: Iterator[bytes]) -> AsyncIterator[bytes]:
    for item in items:
        yield item


# ---- the usage counters behind the quotas -------------------------------------------------


def recount(memory: Any, tenant: str) -> tuple[int, int, int]:
    """What the counters must say, counted the slow way over every turn."""
    rows = memory._store._read.execute(
        "SELECT COUNT(*), COALESCE(SUM(length(CAST(content AS BLOB)) + CASE WHEN metadata = '{}' THEN 0"
        " ELSE length(CAST(metadata AS BLOB)) END), 0), COUNT(DISTINCT scope_key) FROM turns WHERE tenant=?",
        (tenant,)).fetchone()
    return tuple(rows)  # type: ignore[return-value]


async def test_usage_follows_every_write_path(tmp_path: Path) -> None:
    """Add, delete, soft and hard forget, restore, purge, delete an owner: the per-tenant
    counters (kept by triggers, read by a quota check) always equal a full recount."""
    memory = await Memory.open(tmp_path / "m", settings=Settings(quota_turns=1000), embedder="hashing")
    store = memory._store

    def same() -> None:
        for tenant in ("t1", "t2"):
            assert tuple(store.quotas.usage(tenant)) == recount(memory, tenant), tenant

    try:
        turns = await memory.add_many(
            [{"content": f"猫 {i}", "user_id": f"u{i % 3}", "session_id": "s", "tenant_id": "t1",
              "metadata": {"n": i} if i % 2 else None} for i in range(9)])
        await memory.add(content="other", user_id="u0", session_id="s", tenant_id="t2")
        same()
        assert store.quotas.usage("t1").scopes == 3 and store.quotas.usage("t1").turns == 9
        await memory.delete_turn(turns[0].id, tenant_id="t1")
        same()
        soft = await memory.forget([t.id for t in turns[1:4]], tenant_id="t1")
        same()
        await memory.restore(soft["batch"], tenant_id="t1")
        same()
        soft = await memory.forget([turns[4].id], tenant_id="t1")
        await memory.purge(soft["batch"], tenant_id="t1")
        same()
        await memory.forget([turns[5].id], hard=True, tenant_id="t1")
        same()
        await memory.delete_owner(user_id="u1", tenant_id="t1")
        same()
        assert store.quotas.usage("t2") == (1, 5, 1)
    finally:
        await memory.close()


async def test_usage_of_a_store_made_before_the_counters(tmp_path: Path) -> None:
    """Opening a store from before the counters fills them once from its turns."""
    from pmemo.stores.sqlite import schema
    from pmemo.stores.sqlite.store import SQLiteStore

    memory = await Memory.open(tmp_path / "m", embedder="hashing")
    await memory.add_many([{"content": "x" * (i + 1), "user_id": f"u{i % 2}", "session_id": "s",
                            "tenant_id": "t1", "metadata": {"i": i}} for i in range(5)])
    await memory.close()
    store = SQLiteStore.open(tmp_path / "m")
    mine = next(m for m in schema.MIGRATIONS if "CREATE TABLE tenant_usage" in m)
    with store._tx() as conn:  # as before the counters: no table, no triggers
        conn.execute("DROP TABLE tenant_usage")
        for name in ("turns_usage_in", "turns_usage_out", "turns_usage_edit"):
            conn.execute(f"DROP TRIGGER {name}")
    store._writer.executescript("BEGIN;" + mine + "; COMMIT;")  # as migrate() runs it
    store.close()
    memory = await Memory.open(tmp_path / "m", embedder="hashing")
    try:
        assert tuple(memory._store.quotas.usage("t1")) == recount(memory, "t1") == (5, 15 + 5 * 8, 2)
    finally:
        await memory.close()
