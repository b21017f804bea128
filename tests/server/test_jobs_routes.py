"""The dead-letter list over REST (httpx against the real app): a tenant lists the background
jobs about its memory that failed every try, with their errors, and queues them again once the
cause is fixed; it never sees or retries another tenant's; bad input is 422."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pmemo import Settings
from pmemo.embedders.hashing import HashingEmbedder

from .live import open_memory


class Outage(HashingEmbedder):
    """An embedding service that is down until the test brings it back."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True

    def embed_passages(self, texts: list[str]) -> Any:
        if self.down:
            raise ConnectionError("embedding service down")
        return super().embed_passages(texts)


@pytest.fixture
def outage() -> Outage:
    return Outage()


@pytest.fixture
async def memory(tmp_path: Path, outage: Outage) -> AsyncIterator[Any]:
    # no diary: past its hour (23:55 UTC) the day's entry would be one more job the outage fails
    m = await open_memory(tmp_path / "memory", embedder=outage,  # type: ignore[arg-type]
                          settings=Settings(diary_enabled=False))
    yield m
    await m.close()


async def test_failed_jobs_are_listed_and_retried_per_tenant(memory: Any, client: httpx.AsyncClient,
                                                             other_key: str, outage: Outage) -> None:
    mine = await memory.add(tenant_id="t1", user_id="alice", session_id="s", content="the budget is 100k")
    theirs = await memory.add(tenant_id="t2", user_id="bob", session_id="s", content="t2's plans")
    await memory.drain(timeout=60)  # each job fails three times (1 s, 2 s apart), then waits
    r = await client.get("/v1/jobs/failed")
    assert r.status_code == 200, r.text
    (job,) = r.json()["jobs"]
    assert (job["kind"], job["payload"], job["attempts"]) == ("turns", [mine.id], 3)
    assert job["error"] == "ConnectionError: embedding service down" and job["updated_at"].endswith("Z")
    assert (await client.get("/v1/stats")).json()["stats"]["failed_jobs"] == 1
    assert (await client.get("/v1/jobs/failed", params={"agent_id": "bot2"})).json()["jobs"] == []
    headers = {"Authorization": f"Bearer {other_key}"}
    (their_job,) = (await client.get("/v1/jobs/failed", headers=headers)).json()["jobs"]
    assert their_job["payload"] == [theirs.id]
    # t1 cannot retry t2's job; with the service back, its own goes through
    outage.down = False
    r = await client.post("/v1/jobs/retry", json={"job_ids": [their_job["id"]]})
    assert r.status_code == 200 and r.json() == {"retried": 0}
    r = await client.post("/v1/jobs/retry")  # no body: all of this tenant's
    assert r.json() == {"retried": 1}
    await memory.drain(timeout=60, tenant_id="t1")
    assert (await client.get("/v1/jobs/failed")).json()["jobs"] == []
    assert mine.id in memory._store.vectors.get_vectors("turn", [mine.id])
    r = await client.post("/v1/jobs/retry", json={"job_ids": [their_job["id"]]}, headers=headers)
    assert r.json() == {"retried": 1}


@pytest.mark.parametrize(("call", "name"), [
    (lambda c: c.get("/v1/jobs/failed", params={"limit": 0}), "limit"),
    (lambda c: c.get("/v1/jobs/failed", params={"user_id": "alice"}), "user_id"),
    (lambda c: c.post("/v1/jobs/retry", json={"job_ids": []}), "job_ids"),
    (lambda c: c.post("/v1/jobs/retry", json={"job_ids": ["7"]}), "job_ids"),
    (lambda c: c.post("/v1/jobs/retry", json={"job_ids": [0]}), "job_ids"),
    (lambda c: c.post("/v1/jobs/retry", json={"ids": [7]}), "ids"),
])
async def test_bad_input_is_422_naming_the_field(client: httpx.AsyncClient, call: Any, name: str) -> None:
    r = await call(client)
    assert r.status_code == 422 and name in r.text, r.text


async def test_an_admin_key_reads_no_tenants_jobs(app: Any, admin_key: str) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8765",
                                 headers={"Authorization": f"Bearer {admin_key}"}) as admin:
        assert (await admin.get("/v1/jobs/failed")).status_code == 403
        assert (await admin.post("/v1/jobs/retry")).status_code == 403
