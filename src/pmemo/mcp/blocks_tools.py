"""Memory blocks over MCP (issue 20): the ``blocks`` tool, and what ``core_memory_append`` and
``core_memory_replace`` do when given a ``label`` (without one they act on key lines, as before)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from ..api import MemoryAPI
from ..schemas.blocks import BlockOut
from .common import AgentId, GroupId, Tools, UserId, _mapped

Label = Annotated[
    str | None,
    Field(description="A memory block's label (see `blocks`): act on that block, if it is editable,"
          " instead of on key-memory lines.", max_length=64),
]


class BlocksTools(Tools):
    NAMES = ("blocks",)

    async def blocks(
        self, ctx: Context,
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """The memory blocks always in your context (persona, rules, notes, people): each with
        its label, description, size against its limit, whether you may edit it (`editable`:
        with `core_memory_append`/`core_memory_replace` and its `label`), and its `version`."""
        with _mapped():
            found = await self.memory.blocks(**await self.where(ctx, user_id, group_id, agent_id))
            return {"blocks": [BlockOut.of(b).model_dump(mode="json") for b in found]}


async def append(memory: MemoryAPI, label: str, text: str, scope: dict[str, Any]) -> dict[str, Any]:
    """``core_memory_append`` with a label: the block with ``text`` added as a line."""
    block = await memory.core_memory_append(label, text, **_given(scope))
    return BlockOut.of(block).model_dump(mode="json")


async def replace(memory: MemoryAPI, label: str, old: str, new: str, version: int | None,
                  scope: dict[str, Any]) -> dict[str, Any]:
    """``core_memory_replace`` with a label: ``old`` (once in the block) becomes ``new``."""
    block = await memory.core_memory_replace(label, old, new, version=version, **_given(scope))
    return BlockOut.of(block).model_dump(mode="json")


def _given(scope: dict[str, Any]) -> dict[str, Any]:
    """The tools' scope without the owner keys left None (a block may be everyone's)."""
    return {k: v for k, v in scope.items() if v is not None}
