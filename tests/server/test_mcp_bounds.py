"""Issue 18 §8: integers past 64 bits through the real MCP transport (streamable HTTP at /mcp)
end in a tool error that names the argument and its bounds, never an OverflowError.

Every integer argument of every tool is found in the tools' own input schemas, so a new
one is covered without touching this file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pmemo.schemas import MAX_ID
from pmemo.server import create_app

from .conftest import BASE
from .test_mcp import U, data

HUGE = 10**30
# a valid value for each required argument, so that only the huge one is wrong
FILLER = {
    "query": "x",
    "content": "x",
    "text": "x",
    "old_text": "x",
    "new_text": "y",
    "session_id": "s1",
    "person_id": "p1",
    "alias": "a",
    "id": "turn:1",
}


@asynccontextmanager
async def over_http(memory: Any, keys: Any, key: str) -> AsyncIterator[Client]:
    """An MCP client over streamable HTTP; entered and left in the test's own task, as the
    MCP session manager's task group needs."""
    app = create_app(memory, keys)
    async with app.router.lifespan_context(app):
        async with (
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app),
                base_url=BASE,
                headers={"Authorization": f"Bearer {key}"},
            ) as http,
            Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client,
        ):
            yield client


def int_args(schema: dict[str, Any]) -> dict[str, bool]:
    """The integer arguments of a tool: name → whether it is a list of integers."""
    found = {}
    for name, prop in schema.get("properties", {}).items():
        for alt in prop.get("anyOf", [prop]):
            if alt.get("type") == "integer":
                found[name] = False
            elif alt.get("type") == "array" and alt.get("items", {}).get("type") == "integer":
                found[name] = True
    return found


def refused(result: Any, *words: str) -> str:
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert result.is_error, text
    assert "OverflowError" not in text and "too large to convert" not in text, text
    for word in words:
        assert word in text, (word, text)
    return text


async def test_every_integer_argument_is_bounded(memory: Any, keys: Any, key: str) -> None:
    async with over_http(memory, keys, key) as mcp_client:
        await every_integer_argument_is_bounded(mcp_client)


async def every_integer_argument_is_bounded(mcp_client: Client) -> None:
    tools = (await mcp_client.list_tools()).tools
    tried = set()
    for tool in tools:
        required = {n: FILLER.get(n, "x") for n in tool.input_schema.get("required", [])}
        for name, is_list in int_args(tool.input_schema).items():
            args = {**U, **required, name: [HUGE] if is_list else HUGE}
            if tool.name in ("people", "resolve_people", "person_profile", "agenda", "add_person"):
                args.pop("user_id")  # these take at most one owner: keep the call valid otherwise
            result = await mcp_client.call_tool(tool.name, {k: v for k, v in args.items() if k in
                                                            tool.input_schema["properties"]})
            text = refused(result, name)
            assert "less than or equal" in text or "out of range" in text, text
            tried.add((tool.name, name))
    # the ones the issue names, and the rest that exist today
    assert {("restore", "batch"), ("restore", "turn_ids"), ("conversation_search", "page"),
            ("conversation_search", "limit"), ("recall", "limit"), ("get_context", "budget_tokens")} <= tried


@pytest.mark.parametrize("kind", ["turn:", "key:", "summary:", ""])
async def test_forget_refuses_an_id_past_64_bits(memory: Any, keys: Any, key: str, kind: str) -> None:
    async with over_http(memory, keys, key) as mcp_client:
        await forget_refuses(mcp_client, kind)


async def forget_refuses(mcp_client: Client, kind: str) -> None:
    text = refused(await mcp_client.call_tool("forget", {"id": kind + "9" * 30}), "invalid_input", "out of range")
    assert str(MAX_ID) in text
    refused(await mcp_client.call_tool("forget", {"id": kind + "9" * 5000}), "invalid_input", "out of range")
    refused(await mcp_client.call_tool("forget", {"id": kind + "0"}), "invalid_input", "out of range")
    refused(await mcp_client.call_tool("forget", {"id": kind + "²"}), "invalid_input", "not an id")


async def test_the_largest_page_is_answered_and_integers_are_strict(memory: Any, keys: Any, key: str) -> None:
    async with over_http(memory, keys, key) as mcp_client:
        await largest_page_and_strict(mcp_client)


async def largest_page_and_strict(mcp_client: Client) -> None:
    turn = data(await mcp_client.call_tool("remember", {**U, "session_id": "s1", "content": "hello"}))
    page = data(await mcp_client.call_tool("conversation_search", {**U, "page": 10**7, "limit": 100}))
    assert page["turns"] == []
    refused(await mcp_client.call_tool("conversation_search", {**U, "page": 10**7 + 1}), "page")
    # true is not 1 and "5" is not 5 (a forget batch 1 must not be restored by a boolean)
    refused(await mcp_client.call_tool("restore", {"batch": True}), "batch", "valid integer")
    refused(await mcp_client.call_tool("recall", {**U, "query": "x", "limit": "5"}), "limit", "valid integer")
    # the server still serves after all of it
    found = data(await mcp_client.call_tool("conversation_search", {**U}))["turns"]
    assert [t["id"] for t in found] == [turn["id"]]
