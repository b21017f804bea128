"""Background jobs of the key's tenant that failed every try (the dead-letter list), and
retrying them once what made them fail is fixed (an embedding service back up, an LLM key set)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ..schemas import ID
from ..schemas.jobs import FailedJobOut, FailedJobsOut, RetriedOut, RetryIn
from .deps import Mem, Tenant

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])


@router.get("/failed", response_model=FailedJobsOut)
async def failed_jobs(
    memory: Mem, tenant: Tenant,
    agent_id: Annotated[str | None, Query(pattern=ID, max_length=128, description="Only this agent's.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> FailedJobsOut:
    """Background jobs about this tenant's memory that failed every try, newest first
    (`Memory.failed_jobs`), with the error of the last try. A failing job is tried three
    times (1 s, then 2 s apart) before it lands here; its turns are stored and searchable by
    text meanwhile. `POST /v1/jobs/retry` queues them again.

    `GET /v1/jobs/failed?limit=20`
    """
    rows = await memory.failed_jobs(tenant_id=tenant, agent_id=agent_id, limit=limit)
    return FailedJobsOut(jobs=[FailedJobOut.of(r) for r in rows])


@router.post("/retry", response_model=RetriedOut)
async def retry_jobs(memory: Mem, tenant: Tenant, body: RetryIn | None = None) -> RetriedOut:
    """Queue failed jobs again, their tries counted from zero (`Memory.retry_jobs`): those of
    `job_ids`, or with no body every failed job of this tenant. Ids of another tenant's jobs
    are left alone.

    `POST /v1/jobs/retry {"job_ids": [41, 42]}`
    """
    ids = None if body is None or body.job_ids is None else sorted(set(body.job_ids))
    return RetriedOut(retried=await memory.retry_jobs(ids, tenant_id=tenant))
