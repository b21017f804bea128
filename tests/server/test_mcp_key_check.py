"""Each MCP tool call checks the caller's key again, off the event loop.

The HTTP guard (``server/mcp_mount.py``) checks the key when a request arrives; the tools check
it once more, so a key revoked since is refused. On PostgreSQL that check is a query, so it
runs in a worker thread: a blocking call on the loop would stall every other request. Here the
MCP app is served without the guard, so what refuses a revoked key is the tool's own check.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pmemo.mcp import build_server
from pmemo.stores.api_keys import KeyInfo, KeyStore

from .conftest import BASE


class ThreadNoting:
    """The key store, noting the thread each ``verify`` ran on."""

    def __init__(self, keys: KeyStore) -> None:
        self.keys = keys
        self.threads: list[int] = []

    def verify(self, key: str | None) -> KeyInfo:
        self.threads.append(threading.get_ident())
        return self.keys.verify(key)


async def test_a_tool_checks_the_key_off_the_loop_and_refuses_a_revoked_one(memory: Any, keys: KeyStore) -> None:
    issued = keys.issue_key("t1")
    noting = ThreadNoting(keys)
    server = build_server(memory, tenant=None, keys=noting)  # type: ignore[arg-type]
    app = server.streamable_http_app(stateless_http=True, json_response=True)
    loop_thread = threading.get_ident()

    async with server.session_manager.run(), httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=BASE, headers={"Authorization": f"Bearer {issued.key}"}
    ) as http, Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client:
        done = await client.call_tool("remember", {"user_id": "alice", "session_id": "s1", "content": "hello"})
        assert not done.is_error, done.content
        assert noting.threads and loop_thread not in noting.threads  # verified, never on the loop
        assert [t.content for t in await memory.turns(tenant_id="t1", user_id="alice")] == ["hello"]

        await asyncio.to_thread(keys.revoke, issued.id)
        refused = await client.call_tool("conversation_search", {"user_id": "alice"})
        assert refused.is_error
        assert "unknown or revoked API key" in refused.content[0].text  # type: ignore[union-attr]
