"""What the MCP tools share: their parameters' types and bounds, and pmemo errors as tool errors.

The tool modules (server.py and the *_tools.py it registers) import it; it imports none of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, time
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from .. import errors
from ..api import MemoryAPI
from ..schemas import MAX_ID, owner_kw

UserId = Annotated[str | None, Field(description="Whose memory: the user id (or give group_id).")]
GroupId = Annotated[str | None, Field(description="A group chat's id, instead of user_id.")]
AgentId = Annotated[str, Field(description="The agent whose memory this is.")]
SessionId = Annotated[str, Field(description="The conversation (session) id.")]
PersonId = Annotated[str, Field(description="A person's stable id (the `actor_id` of their turns).")]
History = Annotated[bool, Field(description="Also superseded, conflicting and expired facts.")]
Asker = Annotated[str | None, Field(description="The person id of who asks: 'I', 'my', 我 in the query mean"
                                                " them, so their own messages come first.")]

# The bounds REST has (ids up to schemas.MAX_ID, offsets up to 10**9): a larger number would
# overflow SQLite's 64-bit integers. Integers are strict: true is not 1, "5" is not 5.
MAX_OFFSET = 10**9
MAX_PAGE = MAX_OFFSET // 100  # at the largest page size
RowId = Annotated[int, Field(ge=1, le=MAX_ID, strict=True)]


@contextmanager
def _mapped() -> Iterator[None]:
    """pmemo errors → MCP tool errors the model can read and act on."""
    try:
        yield
    except errors.PMemoError as exc:
        raise ToolError(f"{exc.code}: {exc}") from exc
    except OverflowError as exc:  # a number past 64 bits that no bound above caught
        raise ToolError(f"invalid_input: a number is out of range (ids are at most {MAX_ID})") from exc


def _dt(value: str | None, *, end: bool = False) -> datetime | None:
    """ISO date or datetime; a bare date as an end bound means the end of that day (UTC)."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise errors.InvalidInput(f"{value!r} is not an ISO date like 2024-05-01") from exc
    if end and len(value) == 10:
        parsed = datetime.combine(parsed.date(), time.max)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _offset(page: int, limit: int) -> int:
    offset = page * limit
    if offset > MAX_OFFSET:
        raise errors.InvalidInput(
            f"page {page} of {limit} is past the {MAX_OFFSET:,}th message: narrow the search (query, dates) instead"
        )
    return offset


def _dump(model: Any) -> dict[str, Any]:
    return model.model_dump(mode="json")  # type: ignore[no-any-return]


TenantOf = Callable[[Context | None], Awaitable[str]]
"""The caller's tenant for a tool call (``server.build_server`` makes it)."""


class Tools:
    """A module's tools as methods over the facade; ``NAMES`` is the flat table of those to register.

    The MCP SDK reads a tool's name, docstring and parameters (their schema) from the bound method,
    which has no ``self`` to show.
    """

    NAMES: tuple[str, ...] = ()

    def __init__(self, memory: MemoryAPI, tenant_of: TenantOf) -> None:
        self.memory = memory
        self.tenant_of = tenant_of

    @classmethod
    def register(cls, server: MCPServer, memory: MemoryAPI, tenant_of: TenantOf) -> None:
        tools = cls(memory, tenant_of)
        for name in cls.NAMES:
            server.add_tool(getattr(tools, name))

    async def scope(self, ctx: Context, user_id: str | None, group_id: str | None, agent_id: str) -> dict[str, Any]:
        """The caller's tenant and the owner given (None where not given)."""
        return {"tenant_id": await self.tenant_of(ctx), "user_id": user_id, "group_id": group_id, "agent_id": agent_id}

    async def where(self, ctx: Context, user_id: str | None, group_id: str | None, agent_id: str) -> dict[str, Any]:
        """The scope with an owner only when one is given (no owner: the whole tenant)."""
        return {"tenant_id": await self.tenant_of(ctx), **owner_kw(user_id, group_id, agent_id)}
