"""The MCP tools through the mcp SDK's own client: in-process, over HTTP (/mcp) and over stdio."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from pmemo.mcp import TOOLS, build_server
from pmemo.server import create_app

from .conftest import BASE

U = {"user_id": "alice"}


def data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content  # type: ignore[no-any-return]
    return json.loads(result.content[0].text)  # type: ignore[no-any-return]


async def exercise(client: Client) -> None:
    """Every tool once, plus an error, as an agent would call them."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(TOOLS) <= set(tools)
    for name in TOOLS:
        assert tools[name].description
        for prop in tools[name].input_schema["properties"].values():
            assert prop.get("description"), (name, prop)

    turn = data(
        await client.call_tool(
            "remember", {**U, "session_id": "s1", "content": "My sister Ana lives in Porto."}
        )
    )
    data(
        await client.call_tool(
            "remember", {**U, "session_id": "s1", "content": "Noted!", "role": "assistant"}
        )
    )
    hits = data(await client.call_tool("recall", {**U, "query": "Ana Porto"}))["hits"]
    assert any("Ana" in h["text"] for h in hits)
    line = data(await client.call_tool("core_memory_append", {**U, "text": "Sister: Ana, Porto"}))
    assert line["origin"] == "user"
    line = data(
        await client.call_tool(
            "core_memory_replace", {**U, "old_text": "Porto", "new_text": "Braga"}
        )
    )
    assert line["text"] == "Sister: Ana, Braga"
    pack = data(
        await client.call_tool(
            "get_context",
            {**U, "query": "where does my sister live?", "session_id": "s1", "budget_tokens": 300},
        )
    )
    assert "Braga" in pack["text"] and pack["items"][0]["tier"] == "key"
    assert "## Current input" in pack["text"]
    bare = data(await client.call_tool("get_context", {**U, "query": "where?", "with_input": False}))
    assert "Braga" in bare["text"] and "## Current input" not in bare["text"]
    found = data(
        await client.call_tool(
            "conversation_search", {**U, "query": "sister", "start_date": "2000-01-01"}
        )
    )["turns"]
    assert [t["id"] for t in found] == [turn["id"]]
    none = data(await client.call_tool("conversation_search", {**U, "end_date": "2000-01-01"}))
    assert none["turns"] == []
    forgotten = data(await client.call_tool("forget", {"id": f"turn:{turn['id']}"}))
    assert "removed" in forgotten
    data(await client.call_tool("forget", {"id": f"key:{line['id']}"}))

    # errors come back as MCP tool errors that name the problem
    again = await client.call_tool("forget", {"id": f"turn:{turn['id']}"})
    assert again.is_error and "not_found" in again.content[0].text
    bad = await client.call_tool("remember", {"session_id": "s1", "content": "no owner"})
    assert bad.is_error and "invalid_input" in bad.content[0].text
    bad = await client.call_tool("forget", {"id": "banana"})
    assert bad.is_error
    bad = await client.call_tool("core_memory_replace", {**U, "old_text": "zzz", "new_text": "y"})
    assert bad.is_error and "key-memory" in bad.content[0].text


async def test_tools_in_process(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        await exercise(client)
    assert await memory.turns(tenant_id="t1", user_id="alice")  # the assistant turn remains


async def test_tools_over_http(memory: Any, keys: Any, key: str, other_key: str) -> None:
    app = create_app(memory, keys)

    def http(k: str | None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {k}"} if k else {}
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=BASE, headers=headers
        )

    async with app.router.lifespan_context(app):
        async with (
            http(key) as h,
            Client(streamable_http_client(f"{BASE}/mcp", http_client=h)) as client,
        ):
            await exercise(client)
            await client.call_tool("remember", {**U, "session_id": "s9", "content": "t1 data"})
        # another tenant's key sees none of it
        async with (
            http(other_key) as h,
            Client(streamable_http_client(f"{BASE}/mcp", http_client=h)) as client,
        ):
            found = data(await client.call_tool("conversation_search", {**U}))
            assert found["turns"] == []
        async with http(None) as h:
            r = await h.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            assert r.status_code == 401 and r.json()["code"] == "unauthorized"
        async with http("pm_wrong") as h:
            r = await h.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            assert r.status_code == 401


async def test_tools_over_stdio(tmp_path: Path) -> None:
    pmemo = Path(sys.executable).with_name("pmemo")
    env = {**os.environ, "PMEMO_EMBEDDER": "hashing"}
    params = StdioServerParameters(
        command=str(pmemo), args=["mcp", "--data", str(tmp_path / "d"), "--tenant", "t1"], env=env
    )
    async with Client(params) as client:
        await exercise(client)


async def test_forget_restore_profile_tools(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        turn = data(
            await client.call_tool("remember", {**U, "session_id": "s1", "content": "我不吃辣"})
        )
        await memory.drain()
        facts = data(await client.call_tool("profile", U))["facts"]
        assert any("辣" in f["key"] for f in facts), facts
        gone = data(await client.call_tool("forget", {"id": f"turn:{turn['id']}"}))
        assert gone["mode"] == "soft" and gone["batch"]
        assert data(await client.call_tool("profile", U))["facts"] == []
        back = data(await client.call_tool("restore", {"batch": gone["batch"]}))
        assert turn["id"] in back["restored"]["turns"]
        assert data(await client.call_tool("profile", {**U, "history": True}))["facts"]
        again = await client.call_tool("restore", {"batch": gone["batch"]})
        assert again.is_error and "conflict" in again.content[0].text
        bad = await client.call_tool("restore", {})
        assert bad.is_error and "invalid_input" in bad.content[0].text
        gone = data(await client.call_tool("forget", {"id": str(turn["id"])}))
        assert data(await client.call_tool("restore", {"turn_ids": [turn["id"]]}))["restored"]
        hard = data(await client.call_tool("forget", {"id": str(turn["id"]), "hard": True}))
        assert hard["batch"] is None
    # another tenant cannot restore t1's batch
    async with Client(build_server(memory, tenant="t2")) as client:
        other = await client.call_tool("restore", {"batch": gone["batch"]})
        assert other.is_error and "not_found" in other.content[0].text
        assert data(await client.call_tool("profile", U))["facts"] == []
