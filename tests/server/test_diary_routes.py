"""The diary over REST (httpx against the real app) and MCP (the mcp Client): a day, a range,
written on demand; bad days are 422 naming the parameter; a chat's entries are never read from
another chat or another tenant."""

from __future__ import annotations

import json
from typing import Any

import httpx
from mcp import Client

from pmemo.mcp import build_server

from .conftest import BASE

DAYS = {"2024-12-20": ["下周三考高数，最近压力好大", "考完请你们吃火锅"], "2024-12-21": ["明天一起去爬山吗"]}
SECRET = "zebrafish 秘密：我们下个月搬去成都"
# the other chat's busy day: a digest of more messages than a search's best hits shows too
CHATTER = [f"第{k}条闲聊：今天天气{'晴阴雨雪'[k % 4]}" for k in range(12)]


async def seed(memory: Any) -> None:
    for day, said in DAYS.items():
        await memory.add_many([{"tenant_id": "t1", "group_id": "study", "session_id": "s", "actor_id": "ni",
                                "actor": "周霓", "content": text, "timestamp": f"{day}T10:0{n}:00+00:00"}
                               for n, text in enumerate(said)])
    for tenant, owner in (("t1", {"group_id": "other"}), ("t1", {"user_id": "alice"}), ("t2", {"group_id": "study"})):
        await memory.add(tenant_id=tenant, session_id="s", content=SECRET if owner != {"user_id": "alice"}
                         else "I fly to Lisbon on Friday", timestamp="2024-12-20T11:00:00+00:00", **owner)
    await memory.add_many([{"tenant_id": "t1", "group_id": "other", "session_id": "s", "content": text,
                            "timestamp": f"2024-12-20T12:{n:02d}:00+00:00"} for n, text in enumerate(CHATTER)])
    await memory.drain()


async def test_a_day_a_range_and_a_write(memory: Any, client: httpx.AsyncClient) -> None:
    await seed(memory)
    r = await client.get("/v1/diary", params={"group_id": "study", "day": "2024-12-20"})
    assert r.status_code == 200, r.text
    entry = r.json()
    assert (entry["group_id"], entry["user_id"], entry["day"]) == ("study", None, "2024-12-20")
    assert entry["method"] == "digest" and len(entry["source_ids"]) == 2
    assert "下周三考高数，最近压力好大" in entry["text"] and SECRET not in entry["text"]
    r = await client.get("/v1/diaries", params={"group_id": "study", "start": "2024-12-21"})
    assert [e["day"] for e in r.json()["entries"]] == ["2024-12-21"]
    r = await client.get("/v1/diaries", params={"group_id": "study"})
    assert [e["day"] for e in r.json()["entries"]] == ["2024-12-20", "2024-12-21"]
    # written again on demand: the same entry (id), from the day's turns as they are now
    r = await client.post("/v1/diary", json={"group_id": "study", "day": "2024-12-20"})
    assert r.status_code == 200 and r.json()["id"] == entry["id"] and r.json()["text"] == entry["text"]
    r = await client.get("/v1/diary", params={"user_id": "alice", "day": "2024-12-20"})
    assert r.status_code == 200 and "Lisbon" in r.json()["text"]


async def test_missing_days_and_bad_input(memory: Any, client: httpx.AsyncClient) -> None:
    await seed(memory)
    r = await client.get("/v1/diary", params={"group_id": "study", "day": "2024-12-22"})
    assert r.status_code == 404 and "no diary entry for 2024-12-22" in r.json()["detail"]
    r = await client.post("/v1/diary", json={"group_id": "study", "day": "2024-12-22"})
    assert r.status_code == 404 and "no message from a person" in r.json()["detail"]
    for params, name in (({"group_id": "study", "day": "2024-12-2"}, "day"),
                         ({"group_id": "study", "day": "yesterday"}, "day"),
                         ({"group_id": "study", "day": "2024-02-30"}, "day")):
        r = await client.get("/v1/diary", params=params)
        assert r.status_code == 422
        assert r.json()["detail"].startswith(f"{name} (query parameter): must be a calendar day")
    r = await client.get("/v1/diaries", params={"group_id": "study", "end": "31.12.2024"})
    assert r.status_code == 422 and r.json()["detail"].startswith("end (query parameter)")
    r = await client.get("/v1/diary", params={"day": "2024-12-20"})
    assert r.status_code == 422 and "user_id or group_id" in r.json()["detail"]
    for body, says in (({"group_id": "study", "day": 20241220}, "day"),
                       ({"group_id": "study", "day": "20241220"}, "day"),
                       ({"day": "2024-12-20"}, "user_id or group_id"),
                       ({"group_id": "study", "when": "x"}, "when")):
        r = await client.post("/v1/diary", json=body)
        assert r.status_code == 422 and says in r.json()["detail"], (body, r.text)


async def test_no_chat_reads_another_chats_diary(memory: Any, app: Any, client: httpx.AsyncClient,
                                                 other_key: str) -> None:
    await seed(memory)
    for owner in ({"group_id": "study"}, {"user_id": "alice"}, {"group_id": "nobody"}):
        r = await client.get("/v1/diaries", params=owner)
        assert SECRET not in r.text
        r = await client.post("/v1/search", json={**owner, "query": "zebrafish 搬家 成都"})
        assert r.status_code == 200 and "zebrafish" not in r.text
        r = await client.post("/v1/context", json={**owner, "query": "what now", "budget_tokens": 4000})
        assert r.status_code == 200 and "zebrafish" not in r.text
    r = await client.post("/v1/search", json={"group_id": "other", "query": "zebrafish 搬家 成都", "limit": 30})
    assert any(h["kind"] == "diary" and h["tier"] == "long_term" for h in r.json()["hits"])
    # another tenant's key: its own group "study" only, never t1's
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE,
                                 headers={"Authorization": f"Bearer {other_key}"}) as other:
        r = await other.get("/v1/diary", params={"group_id": "study", "day": "2024-12-20"})
        assert r.status_code == 200 and "压力" not in r.text and "zebrafish" in r.json()["text"]
        r = await other.get("/v1/diary", params={"group_id": "other", "day": "2024-12-20"})
        assert r.status_code == 404
        r = await other.post("/v1/diary", json={"group_id": "other", "day": "2024-12-20"})
        assert r.status_code == 404
        r = await other.get("/v1/diaries", params={"group_id": "study"})
        assert [e["day"] for e in r.json()["entries"]] == ["2024-12-20"] and "压力" not in r.text


async def test_the_diary_tool(memory: Any) -> None:
    await seed(memory)
    async with Client(build_server(memory, tenant="t1")) as mcp:
        day = await mcp.call_tool("diary", {"group_id": "study", "day": "2024-12-20"})
        assert not day.is_error and "下周三考高数" in day.structured_content["entry"]["text"]
        days = await mcp.call_tool("diary", {"group_id": "study", "start": "2024-12-20", "end": "2024-12-20"})
        assert [e["day"] for e in days.structured_content["entries"]] == ["2024-12-20"]
        every = await mcp.call_tool("diary", {"group_id": "study"})
        assert [e["day"] for e in every.structured_content["entries"]] == ["2024-12-20", "2024-12-21"]
        for args, says in (({"group_id": "study", "day": "2024-12-22"}, "not_found"),
                           ({"group_id": "study", "day": "12/20"}, "invalid_input: day must be a calendar day"),
                           ({"group_id": "study", "start": "soon"}, "invalid_input: start must be"),
                           ({"group_id": "study", "day": "2024-12-20", "end": "2024-12-21"}, "not both"),
                           ({"day": "2024-12-20"}, "invalid_input")):
            found = await mcp.call_tool("diary", args)
            assert found.is_error and says in found.content[0].text, (args, found.content[0].text)
        for owner in ({"group_id": "study"}, {"user_id": "alice"}):
            for tool, args in (("diary", owner), ("recall", {**owner, "query": "zebrafish 搬家 成都"}),
                               ("get_context", {**owner, "query": "what now", "budget_tokens": 4000})):
                said = json.dumps((await mcp.call_tool(tool, args)).structured_content, ensure_ascii=False)
                assert "zebrafish" not in said, (tool, owner)
        found = await mcp.call_tool("recall", {"group_id": "other", "query": "zebrafish 搬家 成都", "limit": 30})
        assert any(h["kind"] == "diary" and "zebrafish" in h["text"] for h in found.structured_content["hits"])
    async with Client(build_server(memory, tenant="t2")) as mcp:
        said = json.dumps((await mcp.call_tool("diary", {"group_id": "study"})).structured_content, ensure_ascii=False)
        assert "压力" not in said and "zebrafish" in said
        missing = await mcp.call_tool("diary", {"group_id": "other", "day": "2024-12-20"})
        assert missing.is_error and "not_found" in missing.content[0].text
