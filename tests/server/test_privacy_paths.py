"""Privacy between groups on the REST and MCP read paths (issue 17 §5): random scripts over three
groups and private chats, every message carrying its chat's marker word (as in
tests/property/test_privacy_props.py for the library); no group's search, context, profile,
agenda or member list, asked over HTTP or MCP, shows another chat's word."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from mcp import Client

from pmemo.mcp import build_server

from .test_mcp import data

T0 = datetime(2026, 9, 1, 9, 0, tzinfo=timezone(timedelta(hours=8)))
GROUPS = ("ga", "gb", "gc")
MARK = {"ga": "qa", "gb": "qb", "gc": "qc", "private": "qp"}
NAMES = ("周霓", "许文涛", "Neko", "陈浩", "Alex")
SAYINGS = ("我对花生{m}过敏", "我在云杉{m}工作", "I love hiking{m}.", "12月23日考研{m}", "{other}对芒果{m}过敏",
           "{other}, everyone calls her Kiki{m}", "今天吃了火锅{m}，好开心", "叫我Momo{m}就行")
EVERYTHING = " ".join([*NAMES, "过敏 工作 hiking 考研 火锅 Kiki Momo", *MARK.values()])


def script(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for n in range(rng.randint(8, 20)):
        chat, who = rng.choice([*GROUPS, "private"]), rng.randrange(len(NAMES))
        where = {"user_id": f"p{who}"} if chat == "private" else {"group_id": chat}
        text = rng.choice(SAYINGS).format(m=MARK[chat], other=rng.choice(NAMES))
        out.append({**where, "session_id": "s", "actor_id": f"p{who}", "actor": NAMES[who], "content": text,
                    "timestamp": (T0 + timedelta(hours=n)).isoformat()})
    return out


def leaked(payload: Any, group: str, query: str = EVERYTHING) -> list[str]:
    """Other chats' words in a response (the echoed query, which holds them all, taken out)."""
    text = json.dumps(payload, ensure_ascii=False).replace(query, "")
    return [m for g, m in MARK.items() if g != group and m in text]


def without_input(pack: dict[str, Any]) -> dict[str, Any]:
    return {"items": [i for i in pack["items"] if i["tier"] != "input"]}


@pytest.mark.parametrize("seed", range(5))
async def test_rest_reads_keep_groups_apart(client: httpx.AsyncClient, memory: Any, seed: int) -> None:
    r = await client.post("/v1/turns", json={"turns": script(seed)})
    assert r.status_code == 201, r.text
    await memory.drain()
    for group in GROUPS:
        where = {"group_id": group}
        hits = (await client.post("/v1/search", json={"query": EVERYTHING, "limit": 50, **where})).json()
        assert not leaked(hits, group), hits
        members = (await client.get("/v1/people", params=where)).json()
        assert not leaked(members, group), members
        for who in range(len(NAMES)):
            pack = (await client.post("/v1/context", json={"query": EVERYTHING, "asker": f"p{who}",
                                                           "recent": [EVERYTHING], **where,
                                                           "at": (T0 + timedelta(days=100)).isoformat()})).json()
            assert not leaked(without_input(pack), group), pack
            profile = (await client.get(f"/v1/people/p{who}/profile", params={**where, "history": "true"})).json()
            assert profile.get("status") == 404 or not leaked(profile, group), profile
            agenda = (await client.get("/v1/agenda", params={**where, "person_id": f"p{who}"})).json()
            assert not leaked(agenda, group), agenda


@pytest.mark.parametrize("seed", range(3))
async def test_mcp_reads_keep_groups_apart(memory: Any, seed: int) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        for turn in script(seed):
            data(await client.call_tool("remember", turn))
        await memory.drain()
        for group in GROUPS:
            where = {"group_id": group}
            hits = data(await client.call_tool("recall", {"query": EVERYTHING, "limit": 50, **where}))
            assert not leaked(hits, group), hits
            assert not leaked(data(await client.call_tool("people", where)), group)
            for who in range(len(NAMES)):
                pack = data(await client.call_tool("get_context", {"query": EVERYTHING, "asker": f"p{who}", **where}))
                assert not leaked(without_input(pack), group), pack
                result = await client.call_tool("person_profile", {"person_id": f"p{who}", "history": True, **where})
                assert result.is_error or not leaked(data(result), group)
                assert not leaked(data(await client.call_tool("agenda", {"person_id": f"p{who}", **where})), group)
