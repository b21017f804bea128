"""The pinned routes: add turns, search, packed context."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from .deps import Mem, Tenant
from .schemas import (
    ContextIn,
    ContextOut,
    HitOut,
    HitsOut,
    SearchIn,
    TurnBatch,
    TurnIn,
    TurnOut,
    TurnsOut,
)

router = APIRouter(prefix="/v1", tags=["memory"])


@router.post("/turns", status_code=201, response_model=TurnOut | TurnsOut)
async def add_turns(
    body: Annotated[TurnIn | TurnBatch, Body()], memory: Mem, tenant: Tenant
) -> TurnOut | TurnsOut:
    """Store one turn (`Memory.add`) or a batch `{"turns": [...]}` (`Memory.add_many`).

    Each turn is durable when this returns; embedding and summaries follow in the background.
    """
    if isinstance(body, TurnBatch):
        turns = await memory.add_many([t.args(tenant) for t in body.turns])
        return TurnsOut(turns=[TurnOut.of(t) for t in turns])
    return TurnOut.of(await memory.add(**body.args(tenant)))


@router.post("/search", response_model=HitsOut)
async def search(body: SearchIn, memory: Mem, tenant: Tenant) -> HitsOut:
    """Ranked items from every tier, best first (`Memory.search`), without packing."""
    hits = await memory.search(
        body.query, limit=body.limit, session_id=body.session_id, at=body.at, tenant_id=tenant,
        **body.scope(),
    )
    return HitsOut(hits=[HitOut.of(h) for h in hits])


@router.post("/context", response_model=ContextOut)
async def context(body: ContextIn, memory: Mem, tenant: Tenant) -> ContextOut:
    """The packed context for a message within a token budget (`Memory.context`).

    `text` is ready for a prompt; each item says its tier, score and why it was chosen.
    In a group, `asker` (a person id) and `recent` (the last messages) bring in the people
    sections: who asks and who is named, with what was learned about them here, and their
    plans near `at`.
    """
    pack = await memory.context(
        body.query,
        session_id=body.session_id,
        budget_tokens=body.budget_tokens,
        at=body.at,
        asker=body.asker,
        recent=body.recent,
        tenant_id=tenant,
        **body.scope(),
    )
    return ContextOut.of(pack)
