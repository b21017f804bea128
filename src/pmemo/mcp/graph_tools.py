"""The graph over MCP (issue 20): ``graph`` (an entity and its neighbourhood) and ``triples``
(what a chat learned, over time), as the REST routes answer them."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from ..graph.read import MAX_NAME, PREDICATE
from ..schemas.graph import GraphOut, TripleOut
from .common import AgentId, GroupId, Tools, UserId, _dt, _mapped

Entity = Annotated[str, Field(description="A person id, or a name or alias of a person, place, organisation or"
                                          " thing (霓霓, 腾讯, 年糕).", min_length=1, max_length=MAX_NAME)]
At = Annotated[str | None, Field(description="ISO date/time: what held then (default: what holds now).")]


class GraphTools(Tools):
    NAMES = ("graph", "triples")

    async def graph(
        self, ctx: Context,
        entity: Entity,
        hops: Annotated[int, Field(description="1: what names the entity; 2: also what names its neighbours.",
                                   ge=1, le=2, strict=True)] = 1,
        at: At = None,
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Who or what an entity is linked to, as this group or chat knows it: the triples
        (subject, predicate, object, each with a `sentence`) within `hops` of it, and the
        entities they connect. Ask it about a person, a company, a city, a pet."""
        with _mapped():
            found = await self.memory.graph(entity, hops=hops, at=_dt(at),
                                            **await self.scope(ctx, user_id, group_id, agent_id))
            return GraphOut.of(found).model_dump(mode="json")  # type: ignore[no-any-return]

    async def triples(
        self, ctx: Context,
        subject: Annotated[str | None, Field(description="Only about this person id or entity name.",
                                             max_length=MAX_NAME)] = None,
        predicate: Annotated[str | None, Field(description="Only this predicate: works_at, lives_in, likes,"
                                                           " friend_of …", pattern=PREDICATE.pattern)] = None,
        at: At = None,
        history: Annotated[bool, Field(description="Every triple ever said, a replaced one with the time it"
                                                   " ended (`valid_to`); with `at`, every one said by then.")] = False,
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """What this group or chat learned as (subject, predicate, object) triples, oldest first:
        what holds now, at `at`, or with `history` everything (e.g. every employer someone had,
        and when each ended)."""
        with _mapped():
            found = await self.memory.triples(subject, predicate=predicate, at=_dt(at), history=history,
                                              **await self.scope(ctx, user_id, group_id, agent_id))
            return {"triples": [TripleOut.of(t).model_dump(mode="json") for t in found]}
