"""``forget_person`` over MCP (issue 44 §7), through the mcp SDK's own client against a real
memory: everywhere or in one group, a dry run, undone by ``restore``; errors name what to fix."""

from __future__ import annotations

from typing import Any

from mcp import Client

from pmemo.mcp import TOOLS, build_server

from .test_mcp import data
from .test_people_mcp import STUDY, error, seed


async def test_forget_person_is_described() -> None:
    assert "forget_person" in TOOLS
    async with Client(build_server(object(), tenant="t1")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    tool = tools["forget_person"]
    assert "restore" in (tool.description or "")
    assert {"person_id", "group_id", "user_id", "hard", "dry_run"} <= tool.input_schema["properties"].keys()
    for prop in tool.input_schema["properties"].values():
        assert prop.get("description"), prop


async def test_forget_a_person_and_restore(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        await seed(client, memory)
        before = data(await client.call_tool("person", {"person_id": "ni"}))
        dry = data(await client.call_tool("forget_person", {"person_id": "ni", "dry_run": True}))
        assert dry["dry_run"] and dry["batch"] is None and len(dry["turns"]) == 3 and dry["record"]

        here = data(await client.call_tool("forget_person", {"person_id": "ni", **STUDY}))
        assert here["mode"] == "soft" and not here["record"] and here["memberships"] == ["g:study"]
        members = data(await client.call_tool("people", STUDY))["members"]
        assert [m["person"]["id"] for m in members] == ["wt"]
        assert data(await client.call_tool("person_profile", {"person_id": "ni", **STUDY}))["facts"] == []
        data(await client.call_tool("restore", {"batch": here["batch"]}))

        gone = data(await client.call_tool("forget_person", {"person_id": "ni"}))
        assert gone["record"] and gone["batch"] and {"霓霓", "周霓"} <= set(gone["aliases"])
        error(await client.call_tool("person", {"person_id": "ni"}), "not_found", "ni")
        matches = data(await client.call_tool("resolve_people", {"text": "你认识霓霓吗？", **STUDY}))["matches"]
        assert matches == []
        restored = data(await client.call_tool("restore", {"batch": gone["batch"]}))["restored"]
        assert restored["people"] == ["ni"]
        assert data(await client.call_tool("person", {"person_id": "ni"})) == before


async def test_errors_name_what_to_fix(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        await seed(client, memory)
        error(await client.call_tool("forget_person", {"person_id": "nobody"}), "not_found", "nobody")
        error(await client.call_tool("forget_person", {"person_id": "a b"}), "invalid_input", "person_id")
        both = {"person_id": "ni", "user_id": "ni", **STUDY}
        error(await client.call_tool("forget_person", both), "invalid_input", "user_id or group_id")
    async with Client(build_server(memory, tenant="t2")) as other:  # another tenant's person is not found
        error(await other.call_tool("forget_person", {"person_id": "ni"}), "not_found", "ni")
    async with Client(build_server(memory, tenant="t1")) as client:
        assert data(await client.call_tool("person", {"person_id": "ni"}))["name"] == "周霓"
