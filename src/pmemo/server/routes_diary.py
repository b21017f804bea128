"""The daily diary (issue 20), for the key's tenant only: one entry per group or private chat and
day, read by day or by range, and written on demand (the background schedule writes each day's
once it is over)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ..schemas import DiariesOut, DiaryIn, DiaryOut, Problem
from ..schemas.diary import Day
from .deps import Mem, Owner, Tenant

router = APIRouter(prefix="/v1", tags=["diary"])

DAY = "A calendar day in the diary's time zone (`PMEMO_DIARY_TZ`), as YYYY-MM-DD."


@router.get(
    "/diary",
    response_model=DiaryOut,
    responses={404: {"model": Problem, "description": "that chat has no entry for that day (yet)"}},
)
async def diary(
    memory: Mem, tenant: Tenant, owner: Owner,
    day: Annotated[Day, Query(description=DAY)],
) -> DiaryOut:
    """The diary entry of a group (`group_id`) or private chat (`user_id`) for `day`
    (`Memory.diary`): written by the LLM in the agent's voice (`method: llm`) or, offline, a
    digest of the day (`digest`: topics, who said what, plans and dates), with the turns it
    was written from. A day's entry is written once the day is over (today's at
    `PMEMO_DIARY_TIME`), or now with `POST /v1/diary`.

    `GET /v1/diary?group_id=study&day=2024-12-20`
    """
    return DiaryOut.of(await memory.diary(day, tenant_id=tenant, **owner))


@router.get("/diaries", response_model=DiariesOut)
async def diaries(
    memory: Mem, tenant: Tenant, owner: Owner,
    start: Annotated[Day | None, Query(description="The first day (default: the first entry).")] = None,
    end: Annotated[Day | None, Query(description="The last day, included (default: the latest entry).")] = None,
) -> DiariesOut:
    """The diary entries of a group or private chat from `start` to `end`, oldest first
    (`Memory.diaries`); none when `start` is after `end`.

    `GET /v1/diaries?group_id=study&start=2024-12-01&end=2024-12-31`
    """
    found = await memory.diaries(start, end, tenant_id=tenant, **owner)
    return DiariesOut(entries=[DiaryOut.of(d) for d in found])


@router.post(
    "/diary",
    response_model=DiaryOut,
    responses={404: {"model": Problem, "description": "nobody but the assistant spoke in that chat that day"}},
)
async def write_diary(body: DiaryIn, memory: Mem, tenant: Tenant) -> DiaryOut:
    """Write (or rewrite) the entry of `day` (default: today in the diary's time zone) now
    (`Memory.write_diary`), from the day's turns as they are: with an LLM in the voice of the
    chat's `persona` block, else the digest. A rewrite keeps the entry's id.

    `POST /v1/diary {"group_id": "study", "day": "2024-12-20"}`
    """
    return DiaryOut.of(await memory.write_diary(body.day, tenant_id=tenant, **body.scope()))
