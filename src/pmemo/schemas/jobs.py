"""The dead-letter list: background jobs that failed every try, and retrying them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from .common import RowId, Strict, examples

MAX_RETRY_IDS = 1_000


class FailedJobOut(BaseModel):
    """A background job that failed its last try: what it was about (``kind``, ``payload``:
    turn ids for ``turns``/``embed``, an object for the others), how often it ran, and why it
    failed. The turns it was about are stored all the same."""

    id: int
    kind: str = Field(examples=["turns"])
    payload: Any = Field(examples=[[12, 13]])
    attempts: int = Field(description="Tries so far (three, 1 s and 2 s apart, before a job lands here).")
    error: str = Field(examples=["ConnectionError: embedding service down"])
    updated_at: datetime = Field(description="When it failed last.")

    @classmethod
    def of(cls, job: dict[str, Any]) -> FailedJobOut:
        when = datetime.fromtimestamp(job["updated"], UTC)
        return cls(**{k: v for k, v in job.items() if k != "updated"}, updated_at=when)


class FailedJobsOut(BaseModel):
    jobs: list[FailedJobOut] = Field(description="Newest first.")


class RetryIn(Strict):
    """``Memory.retry_jobs``: these failed jobs, or (no ``job_ids``) every failed job of the tenant."""

    model_config = examples({"job_ids": [41, 42]}, {})

    job_ids: list[RowId] | None = Field(None, min_length=1, max_length=MAX_RETRY_IDS)


class RetriedOut(BaseModel):
    retried: int = Field(description="How many failed jobs are queued again (another tenant's ids count none).")
