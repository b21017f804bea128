"""Core memory over MCP, in the spirit of MemGPT's: ``core_memory_append`` and
``core_memory_replace`` edit the key lines (or an editable memory block) always in context."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from .. import errors
from ..api import MemoryAPI
from ..models import KeyLine
from ..schemas import MAX_ID, KeyLineOut
from . import blocks_tools
from .common import AgentId, GroupId, Tools, UserId, _dump, _mapped

REPLACE_TRIES = 8  # compare-and-swap rounds of core_memory_replace under concurrent writers

OldText = Annotated[str, Field(
    description="Text of the key-memory line to change (a unique part of it is enough).")]
Version = Annotated[int | None, Field(
    description="The line's (or block's) version as you read it: if it changed since, nothing is"
    " changed and the error says the current version. Without it the replacement is"
    " made on the line's latest text.", ge=1, le=MAX_ID, strict=True)]


class CoreTools(Tools):
    NAMES = ("core_memory_append", "core_memory_replace")

    async def core_memory_append(
        self, ctx: Context,
        text: Annotated[str, Field(description="A short line to keep always in context.")],
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
        label: blocks_tools.Label = None,
    ) -> dict[str, Any]:
        """Add a line to key (core) memory: it is put first in every context. With a `label`:
        add it to the end of that memory block instead."""
        with _mapped():
            sc = await self.scope(ctx, user_id, group_id, agent_id)
            if label is not None:
                return await blocks_tools.append(self.memory, label, text, sc)
            return _dump(KeyLineOut.of(await self.memory.add_key(text, **sc)))

    async def core_memory_replace(
        self, ctx: Context,
        old_text: OldText,
        new_text: Annotated[str, Field(description="What that line should say instead.")],
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
        version: Version = None,
        label: blocks_tools.Label = None,
    ) -> dict[str, Any]:
        """Replace `old_text` with `new_text` in the one key-memory line that contains it. With a
        `label`: in that memory block, where `old_text` must occur exactly once."""
        with _mapped():
            sc = await self.scope(ctx, user_id, group_id, agent_id)
            if label is not None:
                return await blocks_tools.replace(self.memory, label, old_text, new_text, version, sc)
            return _dump(KeyLineOut.of(await _replace_in_line(self.memory, old_text, new_text, version, sc)))


async def _replace_in_line(memory: MemoryAPI, old_text: str, new_text: str, version: int | None,
                           sc: dict[str, Any]) -> KeyLine:
    """The one key line holding ``old_text``, with it replaced: at ``version`` when given, else
    on the line's latest text (read again after a concurrent write, up to REPLACE_TRIES times)."""
    for _ in range(REPLACE_TRIES):
        lines = [k for k in await memory.key_memory(**sc) if old_text in k.text]
        if len(lines) != 1:
            what = "no" if not lines else f"{len(lines)}"
            raise errors.InvalidInput(f"{what} key-memory lines contain {old_text[:60]!r}; quote one line exactly")
        line = lines[0]
        try:
            return await memory.update_key(line.id, line.text.replace(old_text, new_text),
                                           version=version or line.version, tenant_id=sc["tenant_id"])
        except errors.Conflict:
            if version is not None:
                raise
            # changed between the read and the write: apply it to the new text
    raise errors.Conflict("the line kept changing while it was being replaced; try again")
