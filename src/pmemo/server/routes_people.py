"""People as the agent knows them (issue 17), for the key's tenant only: the registry and its
aliases, the members of a chat, finding people in a text, a person's profile per chat and the
agenda of dated plans.

A person id is unique within a tenant: another tenant's person is simply not found here.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from fastapi.encoders import jsonable_encoder

from ..errors import InvalidInput
from ..people.aliases import MAX_ALIAS_CHARS
from ..schemas import (
    ID,
    NAME_PATTERN,
    AgendaItemOut,
    AgendaOut,
    FactsOut,
    MatchesOut,
    MatchOut,
    MemberOut,
    MembersOut,
    PersonForgetOut,
    PersonIn,
    PersonOut,
    Problem,
    ResolveIn,
    owner_kw,
)
from ..schemas.common import When
from ..schemas.profile import profile_of
from .deps import IdQuery, Mem, Owner, Tenant

router = APIRouter(prefix="/v1", tags=["people"])

PersonId = Annotated[str, Path(pattern=ID, max_length=128, examples=["ni"], description="The person's id.")]
AliasPath = Annotated[str, Path(min_length=1, max_length=MAX_ALIAS_CHARS, pattern=NAME_PATTERN, examples=["霓霓"])]
AgentQuery = Annotated[str, Query(pattern=ID, max_length=128)]
AT_AGENDA = "only the open plans near this time (default: every plan, any status)"


def maybe_owner(user_id: IdQuery = None, group_id: IdQuery = None, agent_id: AgentQuery = "default") -> dict[str, Any]:
    """At most one of ``user_id`` / ``group_id`` (none: everywhere) and ``agent_id``."""
    if user_id is not None and group_id is not None:
        raise InvalidInput("give at most one of the query parameters user_id or group_id")
    return owner_kw(user_id, group_id, agent_id)


MaybeOwner = Annotated[dict[str, Any], Depends(maybe_owner)]


@router.put("/people/{person_id}", response_model=PersonOut)
async def put_person(person_id: PersonId, body: PersonIn, memory: Mem, tenant: Tenant) -> PersonOut:
    """Register a person or update them (`Memory.add_person`): idempotent, and `aliases` are
    merged into the ones they have. With `group_id` or `user_id` they also become a member
    there before they speak.

    Turns name their speaker by this id in `actor_id`.
    """
    person = await memory.add_person(
        person_id, name=body.name, aliases=body.aliases, tenant_id=tenant, **body.scope()
    )
    return PersonOut.of(person)


@router.get("/people/{person_id}", response_model=PersonOut, responses={404: {"description": "no such person"}})
async def get_person(person_id: PersonId, memory: Mem, tenant: Tenant) -> PersonOut:
    """One person with their display names (oldest first) and every alias with its source."""
    return PersonOut.of(await memory.person(person_id, tenant_id=tenant))


@router.get("/people", response_model=MembersOut)
async def list_people(memory: Mem, tenant: Tenant, owner: Owner) -> MembersOut:
    """The members of a group (`group_id`) or private chat (`user_id`), latest speaker first,
    each with when they spoke first and last here and how often (`Memory.people`)."""
    members = await memory.people(tenant_id=tenant, **owner)
    return MembersOut(members=[MemberOut.of(m) for m in members])


@router.delete(
    "/people/{person_id}",
    response_model=PersonForgetOut,
    responses={404: {"model": Problem, "description": "no such person in this tenant (the body names the id)"}},
)
async def forget_person(
    person_id: PersonId,
    memory: Mem, tenant: Tenant, where: MaybeOwner,
    hard: Annotated[bool, Query(description="Erase at once: not restorable, no row left naming them.")] = False,
    dry_run: Annotated[bool, Query(description="Only list what would go; nothing changes.")] = False,
    reason: Annotated[str, Query(max_length=500, description="Kept in the forgetting log.")] = "",
) -> PersonForgetOut:
    """Forget a person (`Memory.forget(person_id=...)`): the turns they said, the facts about them
    (whoever said them), their triples and agenda items, and the person record with every alias.
    With `group_id` (or `user_id`) only in that chat: what they said and what is about them there,
    their membership there and the nicknames learned there. Afterwards nothing of theirs is in
    search, context, others' profiles, the graph or a diary; a name of theirs names nobody.

    Soft by default: the returned `batch` can be given to `/v1/restore`, which brings all of it
    back. `dry_run=true` lists what would go. A person of another tenant is not found here.
    """
    report = await memory.forget(person_id=person_id, hard=hard, dry_run=dry_run, reason=reason,
                                 tenant_id=tenant, **where)
    return PersonForgetOut.of(person_id, report, jsonable_encoder(report))


# "{alias:path}": an alias with a "/" in it ("AC/DC") can be removed too
@router.delete(
    "/people/{person_id}/aliases/{alias:path}",
    response_model=PersonOut,
    responses={404: {"description": "no such person, or they have no such alias"}},
)
async def delete_alias(person_id: PersonId, alias: AliasPath, memory: Mem, tenant: Tenant) -> PersonOut:
    """Stop resolving `alias` to the person; it is not learned again (`Memory.remove_alias`).
    Returns the person as they are now."""
    return PersonOut.of(await memory.remove_alias(person_id, alias, tenant_id=tenant))


@router.post("/people/resolve", response_model=MatchesOut)
async def resolve(body: ResolveIn, memory: Mem, tenant: Tenant) -> MatchesOut:
    """The people a text names, by any of their names (`Memory.resolve_people`): each match
    with its span and person id(s); a name two people share is reported with both
    (`ambiguous`). Members of the chat come first."""
    matches = await memory.resolve_people(body.text, tenant_id=tenant, **body.scope())
    return MatchesOut(matches=[MatchOut.of(m) for m in matches])


@router.get(
    "/people/{person_id}/profile",
    response_model=FactsOut,
    responses={404: {"description": "nothing is known of that person id"}},
)
async def person_profile(
    person_id: PersonId,
    memory: Mem, tenant: Tenant, where: MaybeOwner,
    history: bool = False,
) -> FactsOut:
    """What is known about a person (`Memory.profile`): with `group_id` (or `user_id`) only what
    was learned in that group or private chat, never another's; without, everything. Facts
    whose subject is the person, not ones that merely mention them; `history=true` adds
    superseded and conflicting ones. Each fact comes with a `sentence` in words.

    404 when the id is neither a registered person nor the subject of any fact in this view.
    """
    return FactsOut(facts=await profile_of(memory, person_id, history, {"tenant_id": tenant, **where}))


@router.get("/agenda", response_model=AgendaOut)
async def agenda(
    memory: Mem, tenant: Tenant, where: MaybeOwner,
    person_id: IdQuery = None,
    at: Annotated[When | None, Query(description=AT_AGENDA)] = None,
) -> AgendaOut:
    """Dated plans people mentioned in a group or chat ("12月23日考研"), by day (`Memory.agenda`),
    optionally one person's. With `at`: only the open ones near that time, as `/v1/context`
    shows them. Without `group_id` or `user_id`: those of every group and private chat of the
    tenant, each with its own `group_id` / `user_id`, for an agent that brings plans up unasked
    (an exam the evening before) in the chat where they were said."""
    items = await memory.agenda(person_id, at=at, tenant_id=tenant, **where)
    return AgendaOut(items=[AgendaItemOut.of(i) for i in items])
