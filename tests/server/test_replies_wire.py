"""Replies over the wire (issue 44 §2): REST /v1/turns and MCP ``remember`` take ``reply_to`` and
answer it; a platform's message ids tie a batch's answer to its question; a turn of another chat
is a 404 naming the field."""

from __future__ import annotations

from typing import Any

import httpx
from mcp import Client

from pmemo.mcp import build_server

from .test_mcp import data


async def test_rest_reply_to_and_message_ids(client: httpx.AsyncClient) -> None:
    q = (await client.post("/v1/turns", json={"group_id": "g", "content": "谁有充电宝？",
                                              "metadata": {"message_id": "m1"}})).json()
    a = await client.post("/v1/turns", json={"group_id": "g", "content": "我有", "reply_to": q["id"]})
    assert a.status_code == 201 and a.json()["reply_to"] == q["id"]
    batch = (await client.post("/v1/turns", json={"turns": [
        {"group_id": "g", "content": "借我用下", "metadata": {"message_id": "m2"}},
        {"group_id": "g", "content": "来拿", "metadata": {"reply_to_message": "m2"}}]})).json()["turns"]
    assert batch[1]["reply_to"] == batch[0]["id"] and batch[0]["reply_to"] is None
    listed = (await client.get(f"/v1/turns/{a.json()['id']}")).json()
    assert listed["reply_to"] == q["id"]
    other = (await client.post("/v1/turns", json={"group_id": "h", "content": "hi"})).json()
    bad = await client.post("/v1/turns", json={"group_id": "g", "content": "x", "reply_to": other["id"]})
    assert bad.status_code == 404 and "reply_to" in bad.text  # the turn it names is not found there


async def test_mcp_remember_with_reply_to(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        q = data(await client.call_tool("remember", {"group_id": "g", "content": "明天几点？"}))
        a = data(await client.call_tool("remember", {"group_id": "g", "content": "八点", "reply_to": q["id"]}))
        c = data(await client.call_tool("remember", {"group_id": "g", "content": "「明天几点？」\n九点吧"}))
    assert a["reply_to"] == q["id"] and c["reply_to"] == q["id"]
