"""A chat without sessions over the wire (issue 44 §2): REST /v1/turns and the MCP ``remember``
tool take a turn without ``session_id`` and answer the session it joined."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from mcp import Client

from pmemo.mcp import build_server

from .test_mcp import data

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


def _at(minutes: int) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


async def test_rest_turns_without_a_session(client: httpx.AsyncClient) -> None:
    one = await client.post("/v1/turns", json={"group_id": "g", "content": "早", "timestamp": _at(0)})
    assert one.status_code == 201, one.text
    batch = await client.post("/v1/turns", json={"turns": [
        {"group_id": "g", "content": "在", "timestamp": _at(5)},
        {"group_id": "g", "content": "晚上好", "timestamp": _at(600)}]})
    assert batch.status_code == 201, batch.text
    first, (second, third) = one.json()["session_id"], [t["session_id"] for t in batch.json()["turns"]]
    assert first == second != third and first.startswith("auto-")
    listed = await client.get("/v1/turns", params={"group_id": "g", "session_id": first})
    assert [t["content"] for t in listed.json()["turns"]] == ["早", "在"]


async def test_mcp_remember_without_a_session(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        a = data(await client.call_tool("remember", {"group_id": "g", "content": "早", "timestamp": _at(0)}))
        b = data(await client.call_tool("remember", {"group_id": "g", "content": "在", "timestamp": _at(9)}))
    assert a["session_id"] == b["session_id"] and a["session_id"].startswith("auto-") and b["step"] == 2
