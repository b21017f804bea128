"""The MCP tools, in the spirit of MemGPT's memory functions, over the public Memory API.

Over stdio the server speaks for one tenant (chosen when it starts). Over HTTP the
caller's ``Authorization: Bearer <key>`` picks the tenant on every call. pmemo errors
come back as MCP tool errors (``is_error``) whose text starts with the error code.
"""

from __future__ import annotations

import asyncio

from mcp.server.mcpserver import Context, MCPServer

from .. import errors
from ..api import MemoryAPI
from ..stores.api_keys import KeyStore
from .blocks_tools import BlocksTools
from .common import Tools
from .core_tools import CoreTools
from .diary_tools import DiaryTools
from .forget_tools import ForgetTools
from .graph_tools import GraphTools
from .memory_tools import MemoryTools
from .person_tools import PersonTools

# Each class's tools, registered in this order (the order clients list them in)
TOOL_CLASSES: tuple[type[Tools], ...] = (
    MemoryTools, CoreTools, ForgetTools, BlocksTools, GraphTools, DiaryTools, PersonTools,
)

TOOLS = (
    "remember",
    "recall",
    "get_context",
    "core_memory_append",
    "core_memory_replace",
    "conversation_search",
    "forget",
    "restore",
    "profile",
    "add_person",
    "person",
    "people",
    "remove_alias",
    "forget_person",
    "resolve_people",
    "person_profile",
    "agenda",
    "blocks",
    "graph",
    "triples",
    "diary",
)

INSTRUCTIONS = (
    "pmemo keeps what was said across sessions. Call `remember` with each message, "
    "`get_context` before answering, `recall` or `conversation_search` to look things up, "
    "`core_memory_append`/`core_memory_replace` for facts that must always be in context, "
    "`profile` for what is known about the person, `forget` when the user asks to delete "
    "something, and `restore` to undo a forget. In a group chat, pass each speaker's stable "
    "`actor_id`, and `asker`/`recent` to `get_context`; `people`, `person`, `resolve_people`, "
    "`person_profile` and `agenda` tell who is who, what was learned about them in this group "
    "and their dated plans; `add_person`/`remove_alias` fix the names people go by, and "
    "`forget_person` forgets someone who asks to be forgotten (here or everywhere). `blocks` lists "
    "the memory blocks always in your context; give `core_memory_append`/`core_memory_replace` a "
    "block's `label` to edit an editable one. `graph` and `triples` tell who and what people are "
    "linked to (employers, homes, friends, pets) and how that changed over time. `diary` reads "
    "your diary of a chat: one entry per day, by date or a range of dates."
)


def build_server(
    memory: MemoryAPI, *, tenant: str | None = "default", keys: KeyStore | None = None
) -> MCPServer:
    """An MCPServer whose tools call ``memory``.

    ``tenant`` is used when the transport has no headers (stdio); over HTTP, ``keys``
    resolves the caller's bearer key to its tenant on each call.
    """
    server = MCPServer("pmemo", instructions=INSTRUCTIONS, log_level="WARNING")

    async def tenant_of(ctx: Context | None) -> str:
        """The caller's tenant. Checked again at each tool call, not only by the HTTP guard: a
        key revoked since the request arrived is refused. The check is a query on PostgreSQL,
        so it runs off the event loop, which every other request shares."""
        headers = ctx.headers if ctx is not None else None
        if headers is None:
            if tenant is None:
                raise errors.AuthError("this MCP server needs an API key")
            return tenant
        if keys is None:
            raise errors.AuthError("this MCP server has no key store")
        auth = headers.get("authorization") or ""
        scheme, _, key = auth.partition(" ")
        info = await asyncio.to_thread(keys.verify, key.strip() if scheme.lower() == "bearer" else None)
        if info.tenant is None:
            raise errors.Forbidden("admin keys cannot read memory; use a tenant key")
        return info.tenant

    for tools in TOOL_CLASSES:
        tools.register(server, memory, tenant_of)
    return server
