"""Everything the inspector reads and edits: turns, sessions, owners, the tiers, deletes, stats."""

from __future__ import annotations

from typing import Annotated, Any, Protocol, TypeVar

from fastapi import APIRouter, Header, Path, Query, Response
from fastapi.encoders import jsonable_encoder
from pydantic.json_schema import SkipJsonSchema

from ..errors import InvalidInput
from ..schemas import (
    ID,
    MAX_ID,
    ClusterOut,
    ClustersOut,
    KeyIn,
    KeyLineOut,
    KeyLinesOut,
    KeyUpdate,
    OwnersOut,
    Problem,
    Removed,
    SessionOut,
    SessionsOut,
    StatsOut,
    SummariesOut,
    SummaryOut,
    TurnOut,
    TurnsOut,
)
from ..schemas.common import When
from .deps import IdQuery, Mem, Owner, Tenant

router = APIRouter(prefix="/v1", tags=["inspect"])

PROBLEM = {"model": Problem, "description": "no such key line in this tenant"}
CONFLICT = {"model": Problem, "description": "the line changed since the version you sent; the body has"
            " `current_version` (also the ETag)"}

RowId = Annotated[int, Path(ge=1, le=MAX_ID)]
# What etag_version reads (a version up to 10**18 - 1, or *), for the OpenAPI document only:
# etag_version itself checks it, with a message that says what to send.
ETAG = r'^(\*|(W/)?"?0*[1-9][0-9]{0,17}"?)$'
IfMatch = Annotated[
    str | SkipJsonSchema[None],  # absent, never null: a header has no null
    Header(
        description='The version you read, as its ETag: `"3"`. What changed since is left alone (409).',
        json_schema_extra={"pattern": ETAG},
    ),
]


class _Versioned(Protocol):
    @property
    def version(self) -> int: ...


V = TypeVar("V", bound=_Versioned)


def tagged(response: Response, row: V) -> V:
    """``row``, once ``response`` carries its version as its ETag (``"3"``), for a later ``If-Match``."""
    response.headers["ETag"] = f'"{row.version}"'
    return row


def _removed(result: Any) -> Removed:
    return Removed(removed=jsonable_encoder(result or {}))


# turns -------------------------------------------------------------------
@router.get("/turns", response_model=TurnsOut)
async def list_turns(
    memory: Mem, tenant: Tenant, owner: Owner,
    session_id: IdQuery = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    since: When | None = None,  # ISO 8601: a number is no time (seconds since 1970 were read from "-138757")
    until: When | None = None,
    text: Annotated[str | None, Query(min_length=1, max_length=500)] = None,
    actor_id: Annotated[
        str | None, Query(pattern=ID, max_length=128, description="Only what this person id said.")
    ] = None,
    actor: Annotated[
        str | None,
        Query(min_length=1, max_length=128, pattern=r"\S", description="Only what was said under this display name."),
    ] = None,
) -> TurnsOut:
    """Raw turns, oldest first, filtered by session, time range, text and speaker; page with
    `limit` and `offset`."""
    turns = await memory.turns(
        session_id=session_id,
        limit=limit,
        offset=offset,
        since=since,
        until=until,
        text=text,
        actor_id=actor_id,
        actor=actor,
        tenant_id=tenant,
        **owner,
    )
    return TurnsOut(turns=[TurnOut.of(t) for t in turns])


@router.get("/turns/{turn_id}", response_model=TurnOut)
async def get_turn(turn_id: RowId, memory: Mem, tenant: Tenant) -> TurnOut:
    """One turn by id (404 if it is not in this key's tenant)."""
    return TurnOut.of(await memory.get_turn(turn_id, tenant_id=tenant))


@router.delete("/turns/{turn_id}", response_model=Removed)
async def delete_turn(turn_id: RowId, memory: Mem, tenant: Tenant) -> Removed:
    """Forget one turn and everything derived from it; returns what was removed or rebuilt."""
    return _removed(await memory.delete_turn(turn_id, tenant_id=tenant))


# sessions and owners -----------------------------------------------------
@router.get("/sessions", response_model=SessionsOut)
async def list_sessions(memory: Mem, tenant: Tenant, owner: Owner) -> SessionsOut:
    """The sessions of one user or group, with turn counts and first/last times."""
    rows = await memory.sessions(tenant_id=tenant, **owner)
    return SessionsOut(sessions=[SessionOut(**r) for r in rows])


@router.delete("/sessions/{session_id}", response_model=Removed)
async def delete_session(
    session_id: Annotated[str, Path(pattern=ID, max_length=128)],
    memory: Mem, tenant: Tenant, owner: Owner,
) -> Removed:
    """Forget one session of a user or group and what was derived from it."""
    return _removed(await memory.delete_session(session_id, tenant_id=tenant, **owner))


@router.get("/owners", response_model=OwnersOut)
async def list_owners(
    memory: Mem, tenant: Tenant,
    agent_id: Annotated[str, Query(pattern=ID, max_length=128)] = "default",
) -> OwnersOut:
    """Users (`u:<id>`) and groups (`g:<id>`) that have memory under this agent."""
    return OwnersOut(owners=await memory.owners(tenant_id=tenant, agent_id=agent_id))


@router.delete("/owners", response_model=Removed)
async def delete_owner(memory: Mem, tenant: Tenant, owner: Owner) -> Removed:
    """Everything of one user (or group): turns, tiers, key memory."""
    return _removed(await memory.delete_owner(tenant_id=tenant, **owner))


# key memory --------------------------------------------------------------
@router.get("/key", response_model=KeyLinesOut)
async def list_key(memory: Mem, tenant: Tenant, owner: Owner) -> KeyLinesOut:
    """Key memory: always-in-context lines, user lines first."""
    lines = await memory.key_memory(tenant_id=tenant, **owner)
    return KeyLinesOut(lines=[KeyLineOut.of(k) for k in lines])


@router.post("/key", status_code=201, response_model=KeyLineOut)
async def add_key(body: KeyIn, memory: Mem, tenant: Tenant) -> KeyLineOut:
    """Add a user-set key-memory line (it outranks promoted ones)."""
    return KeyLineOut.of(await memory.add_key(body.text, tenant_id=tenant, **body.scope()))


@router.get("/key/{key_id}", response_model=KeyLineOut, responses={404: PROBLEM})
async def get_key(key_id: RowId, memory: Mem, tenant: Tenant, response: Response) -> KeyLineOut:
    """One key-memory line; its `ETag` is its version, for `If-Match` on update."""
    return KeyLineOut.of(tagged(response, await memory.key_line(key_id, tenant_id=tenant)))


@router.put("/key/{key_id}", response_model=KeyLineOut, responses={404: PROBLEM, 409: CONFLICT})
async def update_key(key_id: RowId, body: KeyUpdate, memory: Mem, tenant: Tenant, response: Response,
                     if_match: IfMatch = None) -> KeyLineOut:
    """Change the text of one key-memory line. With the version you read (`version` in the
    body or `If-Match`), a line someone changed since is left alone: 409 with the current
    version, so concurrent read-modify-writes never lose an update."""
    version = sent_version(body.version, if_match)
    return KeyLineOut.of(tagged(response, await memory.update_key(key_id, body.text, version=version,
                                                                  tenant_id=tenant)))


def sent_version(in_body: int | None, if_match: str | None) -> int | None:
    """The version a write names: ``version`` in its body, else its ``If-Match``."""
    return in_body if in_body is not None else etag_version(if_match)


def etag_version(if_match: str | None) -> int | None:
    """The version an ``If-Match`` names (``"3"``, ``W/"3"``); ``*`` or none: any version."""
    if if_match is None or if_match.strip() == "*":
        return None
    tag = if_match.strip().removeprefix("W/").strip('"')
    if not tag.isdigit() or not 1 <= int(tag) <= MAX_ID:
        raise InvalidInput(f'If-Match must be the version you read as an ETag, like "3"; got {if_match[:40]!r}')
    return int(tag)


@router.delete("/key/{key_id}", status_code=204)
async def delete_key(key_id: RowId, memory: Mem, tenant: Tenant) -> Response:
    """Delete one key-memory line."""
    await memory.delete_key(key_id, tenant_id=tenant)
    return Response(status_code=204)


# summaries and clusters --------------------------------------------------
@router.get("/summaries", response_model=SummariesOut)
async def list_summaries(
    memory: Mem, tenant: Tenant, owner: Owner, session_id: IdQuery = None
) -> SummariesOut:
    """Long-term summaries with the step range each covers."""
    rows = await memory.summaries(session_id=session_id, tenant_id=tenant, **owner)
    return SummariesOut(summaries=[SummaryOut.of(s) for s in rows])


@router.delete("/summaries/{summary_id}", status_code=204)
async def delete_summary(summary_id: RowId, memory: Mem, tenant: Tenant) -> Response:
    """Delete one long-term summary (its turns stay)."""
    await memory.delete_summary(summary_id, tenant_id=tenant)
    return Response(status_code=204)


@router.get("/clusters", response_model=ClustersOut)
async def list_clusters(memory: Mem, tenant: Tenant, owner: Owner) -> ClustersOut:
    """Mid-term clusters with their hit counts and member turns."""
    rows = await memory.clusters(tenant_id=tenant, **owner)
    return ClustersOut(clusters=[ClusterOut.of(c) for c in rows])


@router.get("/stats", response_model=StatsOut)
async def stats(
    memory: Mem, tenant: Tenant,
    user_id: IdQuery = None,
    group_id: IdQuery = None,
    agent_id: IdQuery = None,
) -> StatsOut:
    """Counts per tier and of background jobs (pending, failed) for this tenant; narrowed to
    one agent and/or one owner (``user_id`` or ``group_id``) when given."""
    counts = await memory.stats(
        tenant_id=tenant, agent_id=agent_id, user_id=user_id, group_id=group_id
    )
    return StatsOut(tenant=tenant, stats=jsonable_encoder(counts))
