"""Forgetting a person over MCP (issue 44 §7): ``forget_person``, as ``DELETE /v1/people/{id}``
answers it; what it returns is undone by the ``restore`` tool with its ``batch``.

No ``from __future__ import annotations`` here: the tool's annotations use names imported from
``server`` inside ``register`` (a top-level import would be circular), and the MCP SDK reads
them from the function, so they must be evaluated where those names are in scope."""

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field
from pydantic_core import to_jsonable_python

from ..api import MemoryAPI
from ..errors import InvalidInput
from ..schemas import PersonForgetOut, owner_kw
from .common import AgentId, PersonId, _mapped


def register(server: MCPServer, memory: MemoryAPI, tenant_of: Any) -> None:
    @server.tool()
    async def forget_person(
        ctx: Context,
        person_id: PersonId,
        group_id: Annotated[str | None, Field(description="Only in this group (default: everywhere).")] = None,
        user_id: Annotated[str | None, Field(description="Or: only in this private chat.")] = None,
        hard: Annotated[bool, Field(description="Erase at once: not restorable.")] = False,
        dry_run: Annotated[bool, Field(description="Only list what would go; nothing changes.")] = False,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Forget a person: what they said, the facts about them (whoever said them), their
        triples and plans, and their record with every name. With `group_id` (or `user_id`) only
        in that chat: what is there, their membership and the nicknames learned there. Restorable
        (pass the returned `batch` to `restore`) unless `hard`; `dry_run` lists what would go."""
        with _mapped():
            if user_id is not None and group_id is not None:
                raise InvalidInput("give at most one of user_id or group_id (neither: everywhere)")
            report = await memory.forget(person_id=person_id, hard=hard, dry_run=dry_run,
                                         tenant_id=await tenant_of(ctx), **owner_kw(user_id, group_id, agent_id))
            return PersonForgetOut.of(person_id, report, to_jsonable_python(report)).model_dump(mode="json")
