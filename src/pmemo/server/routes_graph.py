"""The graph of people and things (issue 20), for the key's tenant and one group or private chat
at a time: an entity's neighbourhood, triples over time, and insights (inferred, never facts).

What a chat sees is what was learned in it (and, from a group, people's own private chats when
the tenant allows it): an entity only another chat knows is not found here.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..graph.read import MAX_NAME, PREDICATE
from ..schemas import ID, NAME_PATTERN
from ..schemas.common import When
from ..schemas.graph import GraphOut, InsightOut, InsightsOut, TripleOut, TriplesOut
from .deps import Mem, Owner, Tenant

router = APIRouter(prefix="/v1", tags=["graph"])

NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"description": "no person or entity of that name is known in this group or chat"}}
Name = Annotated[str, Query(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN,
                            description="A person id, or a name or alias of a person, place, organisation or thing"
                                        " (霓霓, 腾讯, 年糕).")]
Subject = Annotated[str | None, Query(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN,
                                      description="Only about this person id or entity name (default: anyone).")]
At = Annotated[When | None, Query(description="what held at this time (default: what holds now)")]


@router.get("/graph", response_model=GraphOut, responses=NOT_FOUND)
async def graph(
    entity: Name,
    memory: Mem, tenant: Tenant, owner: Owner,
    at: At = None,
    hops: Annotated[int, Query(ge=1, le=2, description="1: the triples naming the entity; 2: also those naming"
                                                       " its neighbours")] = 1,
) -> GraphOut:
    """An entity and its neighbourhood as this group or chat knows it (`Memory.graph`): the
    triples within `hops` of it that hold at `at`, and the entities they connect, the entity
    first. `GET /v1/graph?entity=霓霓&hops=2&group_id=study`."""
    return GraphOut.of(await memory.graph(entity, hops=hops, at=at, tenant_id=tenant, **owner))


@router.get("/triples", response_model=TriplesOut, responses=NOT_FOUND)
async def triples(
    memory: Mem, tenant: Tenant, owner: Owner,
    subject: Subject = None,
    predicate: Annotated[str | None, Query(pattern=PREDICATE.pattern, description="Only this predicate: works_at,"
                                                                                  " lives_in, friend_of …")] = None,
    at: At = None,
    history: Annotated[bool, Query(description="every triple ever said, closed ones with `valid_to`"
                                               "; with `at`, every one said by then")] = False,
) -> TriplesOut:
    """Triples this group or chat learned, oldest first (`Memory.triples`): what holds now, at
    `at`, or with `history=true` everything, a replaced value with the time it ended.
    `GET /v1/triples?subject=ni&predicate=works_at&history=true&group_id=study`."""
    found = await memory.triples(subject, predicate=predicate, at=at, history=history, tenant_id=tenant, **owner)
    return TriplesOut(triples=[TripleOut.of(t) for t in found])


@router.get("/insights", response_model=InsightsOut)
async def insights(
    memory: Mem, tenant: Tenant, owner: Owner,
    subject: Annotated[str, Query(pattern=ID, max_length=128, description="The person id.")],
) -> InsightsOut:
    """What a language model inferred about a person from what they said in this group or chat
    (`Memory.insights`), each with the turns it rests on; labelled `inferred`, never a fact.
    Empty without a language model."""
    found = await memory.insights(subject, tenant_id=tenant, **owner)
    return InsightsOut(insights=[InsightOut.of(i) for i in found])
