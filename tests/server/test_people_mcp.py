"""The people MCP tools (issue 17) through the mcp SDK's own client: in-process, and over HTTP
(/mcp) where the bearer key's tenant confines every call."""

from __future__ import annotations

import re
from typing import Any

import httpx
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pmemo.mcp import TOOLS, build_server
from pmemo.server import create_app

from .conftest import BASE
from .test_mcp import data

STUDY = {"group_id": "study"}
PEOPLE_TOOLS = ("add_person", "person", "people", "remove_alias", "resolve_people", "person_profile", "agenda")


def error(result: Any, code: str, *words: str) -> str:
    assert result.is_error, result.content
    text: str = result.content[0].text
    assert f"{code}: " in text, text
    assert all(w in text for w in words), text
    return text


async def seed(client: Client, memory: Any) -> None:
    """周霓 (ni) and 许文涛 (wt) in the study group; ni also in the work group."""
    for group, who, name, text in [
        ("study", "ni", "周霓", "大家好，叫我霓霓就行。我对花生过敏。"),
        ("work", "ni", "周霓", "我在腾讯工作"),
        ("study", "wt", "许文涛", "我不吃香菜"),
        ("study", "ni", "周霓", "12月23日考研，最近压力好大"),
    ]:
        turn = data(
            await client.call_tool(
                "remember",
                {"group_id": group, "session_id": f"{group}-chat", "content": text, "actor": name, "actor_id": who},
            )
        )
        assert turn["actor_id"] == who
    await memory.drain()


async def test_people_tools_are_described() -> None:
    assert set(PEOPLE_TOOLS) <= set(TOOLS)
    async with Client(build_server(object(), tenant="t1")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in PEOPLE_TOOLS:
        assert tools[name].description
        for prop in tools[name].input_schema["properties"].values():
            assert prop.get("description"), (name, prop)
    assert {"asker", "recent"} <= tools["get_context"].input_schema["properties"].keys()
    assert "actor_id" in tools["remember"].input_schema["properties"]


async def test_people_tools(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        await seed(client, memory)
        members = data(await client.call_tool("people", STUDY))["members"]
        assert [m["person"]["id"] for m in members] == ["ni", "wt"] and members[0]["messages"] == 2
        ni = data(await client.call_tool("person", {"person_id": "ni"}))
        assert ni["name"] == "周霓" and {"alias": "霓霓", "source": "learned"}.items() <= next(
            a for a in ni["aliases"] if a["alias"] == "霓霓"
        ).items()

        # register, merge, remove
        quiet = data(await client.call_tool("add_person", {"person_id": "quiet", "name": "Quinn", **STUDY}))
        assert quiet["messages"] == 0
        ni = data(await client.call_tool("add_person", {"person_id": "ni", "aliases": ["Neko"]}))
        assert {"Neko", "霓霓", "周霓"} <= {a["alias"] for a in ni["aliases"]}
        ni = data(await client.call_tool("remove_alias", {"person_id": "ni", "alias": "Neko"}))
        assert "Neko" not in {a["alias"] for a in ni["aliases"]}
        members = data(await client.call_tool("people", STUDY))["members"]
        assert {m["person"]["id"] for m in members} == {"ni", "wt", "quiet"}

        # names, profiles per group, the agenda, the context
        (match,) = data(await client.call_tool("resolve_people", {"text": "你认识霓霓吗？", **STUDY}))["matches"]
        assert match["person_ids"] == ["ni"] and match["source"] == "learned" and not match["ambiguous"]
        study = data(await client.call_tool("person_profile", {"person_id": "ni", **STUDY}))["facts"]
        # the plan is a fact too (event:考研 = its day), said last, so listed first; 叫我霓霓 is one too
        said = [re.sub(r"\d{4}年", "", f["sentence"]) for f in study]
        assert said == ["周霓 12月23日有考研", "周霓对花生过敏", "周霓希望被叫作霓霓"]
        assert {f["learned_in"] for f in study} == {"g:study"}
        everywhere = data(await client.call_tool("person_profile", {"person_id": "ni"}))["facts"]
        assert {re.sub(r"\d{4}年", "", f["sentence"]) for f in everywhere} == {
            "周霓对花生过敏", "周霓在腾讯工作", "周霓 12月23日有考研", "周霓希望被叫作霓霓"}
        assert data(await client.call_tool("person_profile", {"person_id": "ni", "history": True, **STUDY}))
        (item,) = data(await client.call_tool("agenda", {"person_id": "ni", **STUDY}))["items"]
        assert item["what"] == "考研" and item["day"].endswith("-12-23") and item["status"] == "open"
        assert data(await client.call_tool("agenda", {"person_id": "wt", **STUDY}))["items"] == []
        near = data(await client.call_tool("agenda", {"at": item["day"], **STUDY}))["items"]
        assert [i["id"] for i in near] == [item["id"]]
        # no chat named: every chat's plans, each with its own
        (every,) = data(await client.call_tool("agenda", {"at": item["day"]}))["items"]
        assert (every["id"], every["group_id"], every["user_id"]) == (item["id"], "study", None)
        pack = data(
            await client.call_tool(
                "get_context",
                {"query": "好的", "asker": "wt", "recent": ["霓霓今天来吗"], "session_id": "study-chat", **STUDY},
            )
        )
        people = [i for i in pack["items"] if i["tier"] == "people"]
        assert people[0]["kind"] == "person" and people[0]["text"].startswith("许文涛")
        assert "周霓对花生过敏" in [i["text"] for i in people]
        assert "腾讯" not in pack["text"]

        # errors name what to fix
        error(await client.call_tool("person", {"person_id": "nobody"}), "not_found", "nobody")
        error(await client.call_tool("person_profile", {"person_id": "nobody"}), "not_found")
        error(await client.call_tool("remove_alias", {"person_id": "ni", "alias": "Neko"}), "not_found", "alias")
        bad_alias = {"person_id": "ni", "aliases": ["bad\x00"]}
        error(await client.call_tool("add_person", bad_alias), "invalid_input", "alias")
        error(await client.call_tool("add_person", {"person_id": "a b"}), "invalid_input", "person_id")
        error(await client.call_tool("people", {}), "invalid_input", "user_id or group_id")
        error(await client.call_tool("agenda", {"at": "soon", **STUDY}), "invalid_input", "soon")
        bad = {"group_id": "g", "session_id": "s", "content": "hi", "actor_id": "not valid!"}
        error(await client.call_tool("remember", bad), "invalid_input", "actor_id")
        bad = {"query": "hi", "asker": "not valid!", **STUDY}
        error(await client.call_tool("get_context", bad), "invalid_input", "asker")
        bad = {"query": "hi", "recent": ["x" * 20_000] * 3, **STUDY}
        error(await client.call_tool("get_context", bad), "invalid_input", "recent")
        too_many = await client.call_tool("get_context", {"query": "hi", "recent": ["x"] * 51, **STUDY})
        assert too_many.is_error


async def test_people_tools_over_http_are_isolated(memory: Any, keys: Any, key: str, other_key: str) -> None:
    app = create_app(memory, keys)

    def http(k: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=BASE, headers={"Authorization": f"Bearer {k}"}
        )

    async with app.router.lifespan_context(app):
        async with http(key) as h, Client(streamable_http_client(f"{BASE}/mcp", http_client=h)) as client:
            await seed(client, memory)
            assert data(await client.call_tool("person", {"person_id": "ni"}))["name"] == "周霓"
        async with http(other_key) as h, Client(streamable_http_client(f"{BASE}/mcp", http_client=h)) as client:
            error(await client.call_tool("person", {"person_id": "ni"}), "not_found")
            error(await client.call_tool("person_profile", {"person_id": "ni"}), "not_found")
            error(await client.call_tool("remove_alias", {"person_id": "ni", "alias": "霓霓"}), "not_found")
            assert data(await client.call_tool("people", STUDY))["members"] == []
            assert data(await client.call_tool("resolve_people", {"text": "霓霓", **STUDY}))["matches"] == []
            assert data(await client.call_tool("agenda", STUDY))["items"] == []
            pack = data(await client.call_tool("get_context", {"query": "霓霓", "asker": "ni", **STUDY}))
            assert "花生" not in pack["text"]
            # the same id here is another person, and leaves tenant t1's alone
            other = data(await client.call_tool("add_person", {"person_id": "ni", "name": "Other Ni"}))
            assert other["messages"] == 0
    assert (await memory.person("ni", tenant_id="t1")).name == "周霓"
