"""The pinned routes: add turns, search, packed context."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

from fastapi import APIRouter, Body, Header, Query
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from pydantic.json_schema import SkipJsonSchema

from ..api import MemoryAPI
from ..models import Turn
from ..schemas import (
    ContextIn,
    ContextOut,
    HitOut,
    HitsOut,
    Problem,
    SearchIn,
    TurnBatch,
    TurnOrBatch,
    TurnOut,
    TurnsOut,
)
from . import limits
from .deps import Mem, Tenant

router = APIRouter(prefix="/v1", tags=["memory"])

# Printable ASCII, as the library takes it (HTTP drops spaces at either end), for the OpenAPI
# document only: the library checks it, with a message that says what to send.
MAX_WAIT = 300  # seconds a POST /v1/turns?wait=true may hold its connection
IDEMPOTENCY_KEY = {"minLength": 1, "maxLength": 255, "pattern": r"^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$"}


@router.post(
    "/turns",
    status_code=201,
    response_model=TurnOut | TurnsOut,
    responses={404: {"model": Problem, "description": "a retried single turn was forgotten since it was stored"}},
)
async def add_turns(
    body: Annotated[TurnOrBatch, Body()],
    memory: Mem, tenant: Tenant,
    idempotency_key: Annotated[
        str | SkipJsonSchema[None],  # absent, never null: a header has no null
        Header(
            json_schema_extra=IDEMPOTENCY_KEY,
            description="Any unique string (a UUID): a retry with the same key and body stores"
            " nothing twice and returns the first reply's turns (kept 24 hours); the same key"
            " with another body is 409.",
        ),
    ] = None,
    wait: Annotated[
        bool,
        Query(description="Answer once the background work on these turns' users or groups is"
              " done (embedding, clusters, summaries, facts), so a search right after finds them."),
    ] = False,
    wait_seconds: Annotated[
        float, Query(gt=0, le=MAX_WAIT, description="How long `wait` may take; then the answer"
                     " comes anyway, with `Pmemo-Pending-Jobs` above 0.")
    ] = 30,
) -> TurnOut | TurnsOut | JSONResponse:
    """Store one turn (`Memory.add`) or a batch `{"turns": [...]}` (`Memory.add_many`).

    Each turn is durable when this returns; embedding and summaries follow in the background
    (`wait=true` waits for them). Send an `Idempotency-Key` to retry safely after a lost reply.
    """
    if isinstance(body, TurnBatch):
        limits.check_batch(len(body.turns), limits.settings_of(memory))
        turns = await memory.add_many([t.args(tenant) for t in body.turns], idempotency_key=idempotency_key)
        out: TurnOut | TurnsOut = TurnsOut(turns=[TurnOut.of(t) for t in turns])
    else:
        turns = [await memory.add(**body.args(tenant), idempotency_key=idempotency_key)]
        out = TurnOut.of(turns[0])
    if not wait:
        return out
    left = await _processed(memory, turns, wait_seconds)
    return JSONResponse(jsonable_encoder(out), status_code=201, headers={"Pmemo-Pending-Jobs": str(left)})


async def _processed(memory: MemoryAPI, turns: list[Turn], seconds: float) -> int:
    """Wait (up to ``seconds``) until the jobs of the turns' owners are done; how many are left."""
    owners = {(t.scope.tenant_id, t.scope.agent_id, t.scope.user_id, t.scope.group_id) for t in turns}
    where = [{"tenant_id": te, "agent_id": a, **({"user_id": u} if u else {"group_id": g})} for te, a, u, g in owners]
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            for scope in where:
                await memory.drain(timeout=None, **scope)  # the block's timeout bounds them all
    return sum([await memory.pending(**scope) for scope in where])


@router.post("/search", response_model=HitsOut)
async def search(body: SearchIn, memory: Mem, tenant: Tenant) -> HitsOut:
    """Ranked items from every tier, best first (`Memory.search`), without packing."""
    hits = await memory.search(
        body.query, limit=body.limit, session_id=body.session_id, at=body.at, asker=body.asker, tenant_id=tenant,
        **body.scope(),
    )
    return HitsOut(hits=[HitOut.of(h) for h in hits])


@router.post("/context", response_model=ContextOut)
async def context(body: ContextIn, memory: Mem, tenant: Tenant) -> ContextOut:
    """The packed context for a message within a token budget (`Memory.context`).

    `text` is ready for a prompt; each item says its tier, score and why it was chosen.
    In a group, `asker` (a person id) and `recent` (the last messages) bring in the people
    sections: who asks and who is named, with what was learned about them here, and their
    plans near `at`. Memory blocks come first, always whole (`format: "memgpt"` writes them in
    the MemGPT/Letta layout); if they and the key lines alone exceed the budget, `over_budget`.
    """
    pack = await memory.context(
        body.query,
        session_id=body.session_id,
        budget_tokens=body.budget_tokens,
        at=body.at,
        asker=body.asker,
        recent=body.recent,
        format=body.format,
        with_input=body.with_input,
        tenant_id=tenant,
        **body.scope(),
    )
    return ContextOut.of(pack)
