"""What pmemo knows about a person and how it forgets: profile, episodes, tasks, forget,
restore, the forgetting log and the sweeper (issue 5), for the key's tenant only: the
library scopes forget batches and their log by tenant in the store query, so another
tenant's batch is not found.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response
from fastapi.encoders import jsonable_encoder

from ..api import MemoryAPI
from ..errors import NotFound
from ..schemas import (
    MAX_ID,
    EpisodeOut,
    EpisodesOut,
    FactOut,
    FactsOut,
    FactUpdate,
    ForgetIn,
    ForgetLogOut,
    ForgetOut,
    Problem,
    PurgedOut,
    PurgeIn,
    RestoredOut,
    RestoreIn,
    SweepIn,
    SweepOut,
    TaskOut,
    TasksOut,
)
from .deps import IdQuery, Mem, Owner, Tenant
from .routes_inspect import IfMatch, RowId, sent_version, tagged

router = APIRouter(prefix="/v1", tags=["person"])



# profile, episodes, tasks -----------------------------------------------------
@router.get("/profile", response_model=FactsOut)
async def profile(
    memory: Mem, tenant: Tenant, owner: Owner,
    history: bool = False,
) -> FactsOut:
    """Current facts about a user or group (`Memory.profile`); `history=true` adds
    superseded, conflicting and expired ones. Each `sentence` names the person by their
    display name when they are a known person."""
    facts = await memory.profile(history=history, tenant_id=tenant, **owner)
    names = await _names(memory, tenant, {f.subject_id for f in facts if f.subject_id})
    return FactsOut(facts=[FactOut.of(f, names.get(f.subject_id or "")) for f in facts])


async def _names(memory: MemoryAPI, tenant: str, people: set[str]) -> dict[str, str]:
    out = {}
    for pid in people:
        try:
            person = await memory.person(pid, tenant_id=tenant)
        except NotFound:
            continue
        if person.name:
            out[pid] = person.name
    return out


# one fact: read, corrected by hand, deleted ------------------------------------
NO_FACT = {"model": Problem, "description": "no such fact in this tenant"}


@router.get("/facts/{fact_id}", response_model=FactOut, responses={404: NO_FACT})
async def get_fact(fact_id: RowId, memory: Mem, tenant: Tenant, response: Response) -> FactOut:
    """One fact, current or history (`Memory.fact`); its `ETag` is its version, for `If-Match`."""
    return FactOut.of(tagged(response, await memory.fact(fact_id, tenant_id=tenant)))


@router.put(
    "/facts/{fact_id}",
    response_model=FactOut,
    responses={
        404: NO_FACT,
        409: {"model": Problem, "description": "the fact changed since the version you sent; the body has"
              " `current_version` (also the ETag)"},
    },
)
async def update_fact(
    fact_id: RowId,
    body: FactUpdate,
    memory: Mem, tenant: Tenant,
    response: Response,
    if_match: IfMatch = None,
) -> FactOut:
    """Correct the value of a current fact by hand (`Memory.update_fact`): it keeps its id,
    its source becomes `edited` and the old value stays in its history (`/v1/profile?history=true`).
    With the version you read (`version` in the body or `If-Match`), a fact someone changed
    since is left alone: 409 with the current version. A fact that is history: 422."""
    version = sent_version(body.version, if_match)
    return FactOut.of(tagged(response, await memory.update_fact(fact_id, body.value, version=version,
                                                                tenant_id=tenant)))


@router.delete("/facts/{fact_id}", response_model=ForgetOut, responses={404: NO_FACT})
async def delete_fact(
    fact_id: RowId,
    memory: Mem, tenant: Tenant,
    hard: Annotated[bool, Query(description="Erase at once (not restorable).")] = False,
) -> ForgetOut:
    """Delete one fact (`Memory.delete_fact`); the turns it came from and its history stay.
    Soft by default: the returned `batch` can be given to `/v1/restore`."""
    report = await memory.delete_fact(fact_id, hard=hard, tenant_id=tenant)
    return ForgetOut(
        batch=None if hard else report["batch"],
        mode=report["mode"],
        turns=[],
        removed=jsonable_encoder(report),
    )


@router.get("/episodes", response_model=EpisodesOut)
async def episodes(
    memory: Mem, tenant: Tenant, owner: Owner,
    session_id: IdQuery = None,
    query: Annotated[str | None, Query(min_length=1, max_length=4_000)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 20,
) -> EpisodesOut:
    """Episodes (sessions, compactions, finished tasks) oldest first, or the best `limit`
    for `query` (`Memory.episodes`)."""
    rows = await memory.episodes(
        query, session_id=session_id, limit=limit, tenant_id=tenant, **owner
    )
    return EpisodesOut(episodes=[EpisodeOut.of(e) for e in rows])


@router.get("/tasks", response_model=TasksOut)
async def tasks(
    memory: Mem, tenant: Tenant, owner: Owner,
    status: Annotated[str | None, Query(pattern=r"^(running|done|failed)$")] = None,
) -> TasksOut:
    """Tasks' working memory (goal, steps, scratchpad), optionally by status (`Memory.tasks`)."""
    rows = await memory.tasks(status=status, tenant_id=tenant, **owner)
    return TasksOut(tasks=[TaskOut.of(t) for t in rows])


# forgetting -------------------------------------------------------------------
@router.post("/forget", response_model=ForgetOut, responses={404: {"description": "a turn id is not in this tenant"}})
async def forget(body: ForgetIn, memory: Mem, tenant: Tenant) -> ForgetOut:
    """Forget turns and everything derived from them (`Memory.forget`): by `turn_ids`, or
    by `query` within one user's or group's memory ("forget what I said about X").

    Soft by default: the returned `batch` can be given to `/v1/restore`. `hard: true`
    erases at once.
    """
    report = await memory.forget(
        body.turn_ids,
        query=body.query,
        hard=body.hard,
        reason=body.reason,
        tenant_id=tenant,
        **body.scope(),
    )
    turns = report.get("turns") or []
    if isinstance(turns, dict):
        turns = list(turns)
    return ForgetOut(
        batch=report.get("batch") if not body.hard else None,
        mode=str(report.get("mode", "hard" if body.hard else "soft")),
        turns=sorted(int(t) for t in turns),
        removed=jsonable_encoder(report),
    )


@router.post(
    "/restore",
    response_model=RestoredOut,
    responses={404: {"description": "no such forget in this tenant"}, 409: {"description": "already restored"}},
)
async def restore(body: RestoreIn, memory: Mem, tenant: Tenant) -> RestoredOut:
    """Undo a soft forget or a sweep, by its `batch` or by the forgotten `turn_ids`."""
    turn_ids = None if body.turn_ids is None else sorted(set(body.turn_ids))
    out = await memory.restore(body.batch, turn_ids=turn_ids, tenant_id=tenant)
    batches = list(out.get("batches") or [])
    restored = {k: v for k, v in out.items() if k != "batches"}
    return RestoredOut(batches=batches, restored=jsonable_encoder(restored))


@router.post(
    "/purge",
    response_model=PurgedOut,
    responses={
        404: {"description": "no such forget in this tenant"},
        409: {"description": "restored or purged already"},
    },
)
async def purge(body: PurgeIn, memory: Mem, tenant: Tenant) -> PurgedOut:
    """Make a soft forget or sweep permanent (`Memory.purge`): its snapshots and soft-deleted
    rows are erased, and it can no longer be restored."""
    out = await memory.purge(body.batch, tenant_id=tenant)
    return PurgedOut(batch=out["batch"], purged_rows=out["purged_rows"])


@router.get("/forget-log", response_model=ForgetLogOut, responses={404: {"description": "no such batch here"}})
async def forget_log(
    memory: Mem, tenant: Tenant,
    batch: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> ForgetLogOut:
    """The forgetting log, newest first: every forget, sweep, restore and purge of this tenant.
    Each line has its `batch`, with `batch_mode` (soft, hard) and `batch_status` (active: it
    can be restored or purged; restored; purged)."""
    rows = await memory.forget_log(batch=batch, limit=limit, tenant_id=tenant)
    return ForgetLogOut(entries=jsonable_encoder(rows))


@router.post("/sweep", response_model=SweepOut)
async def sweep(memory: Mem, tenant: Tenant, body: SweepIn | None = None) -> SweepOut:
    """Fade out this tenant's weak episodes and records, enforce capacity, expire facts.

    `dry_run` (the default) only lists what would go; otherwise the result's `batch`
    can be restored.
    """
    dry_run = True if body is None else body.dry_run
    report = await memory.sweep(dry_run=dry_run, tenant_id=tenant)
    return SweepOut(
        dry_run=bool(report.get("dry_run", dry_run)),
        batch=report.get("batch"),
        actions=jsonable_encoder(report.get("actions") or []),
    )
