"""Core memory over MCP, in the spirit of MemGPT's: ``core_memory_append`` and
``core_memory_replace`` edit the key lines (or an editable memory block) always in context."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from .. import errors
from ..api import MemoryAPI
from ..schemas import (
    MAX_ID,
    KeyLineOut,
)
from . import blocks_tools
from .common import (
    AgentId,
    GroupId,
    UserId,
    _dump,
    _mapped,
    scoped,
)

REPLACE_TRIES = 8  # compare-and-swap rounds of core_memory_replace under concurrent writers


def register(server: MCPServer, memory: MemoryAPI, tenant_of: Any) -> None:
    scope = scoped(tenant_of)

    @server.tool()
    async def core_memory_append(
        ctx: Context,
        text: Annotated[str, Field(description="A short line to keep always in context.")],
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        label: blocks_tools.Label = None,
    ) -> dict[str, Any]:
        """Add a line to key (core) memory: it is put first in every context. With a `label`:
        add it to the end of that memory block instead."""
        with _mapped():
            if label is not None:
                return await blocks_tools.append(memory, label, text, await scope(ctx, user_id, group_id, agent_id))
            line = await memory.add_key(text, **await scope(ctx, user_id, group_id, agent_id))
            return _dump(KeyLineOut.of(line))

    @server.tool()
    async def core_memory_replace(
        ctx: Context,
        old_text: Annotated[
            str,
            Field(
                description="Text of the key-memory line to change (a unique part of it is enough)."
            ),
        ],
        new_text: Annotated[str, Field(description="What that line should say instead.")],
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        version: Annotated[
            int | None,
            Field(
                description="The line's (or block's) version as you read it: if it changed since, nothing is"
                " changed and the error says the current version. Without it the replacement is"
                " made on the line's latest text.",
                ge=1,
                le=MAX_ID,
                strict=True,
            ),
        ] = None,
        label: blocks_tools.Label = None,
    ) -> dict[str, Any]:
        """Replace `old_text` with `new_text` in the one key-memory line that contains it. With a
        `label`: in that memory block, where `old_text` must occur exactly once."""
        with _mapped():
            sc = await scope(ctx, user_id, group_id, agent_id)
            if label is not None:
                return await blocks_tools.replace(memory, label, old_text, new_text, version, sc)
            for _ in range(REPLACE_TRIES):
                lines = [k for k in await memory.key_memory(**sc) if old_text in k.text]
                if len(lines) != 1:
                    what = "no" if not lines else f"{len(lines)}"
                    raise errors.InvalidInput(
                        f"{what} key-memory lines contain {old_text[:60]!r}; quote one line exactly"
                    )
                line = lines[0]
                try:
                    updated = await memory.update_key(
                        line.id,
                        line.text.replace(old_text, new_text),
                        version=version or line.version,
                        tenant_id=sc["tenant_id"],
                    )
                except errors.Conflict:
                    if version is not None:
                        raise
                    continue  # changed between the read and the write: apply it to the new text
                return _dump(KeyLineOut.of(updated))
            raise errors.Conflict("the line kept changing while it was being replaced; try again")
