"""A tenant's big import does not hold up another tenant's quiet chat (issue: fair claims).

The import is queued first, the quiet chat's message after it; the worker's very first batch
digests the quiet message (its vector is stored: it is searchable by meaning) while nearly all
of the import still waits. Batches are counted, not seconds: ``run_jobs=False`` leaves the
queue to the test, which runs the worker one batch at a time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from pmemo import Memory, Settings
from pmemo.pipelines.worker import CLAIM_TURNS
from pmemo.stores.fair_share import JOB_TURNS

IMPORT = 2_000
QUIET = {"tenant_id": "quiet", "user_id": "bob", "session_id": "s1"}


@pytest.fixture(params=["sqlite", "postgres"])
async def memory(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Memory]:
    where = request.getfixturevalue("postgres_url") if request.param == "postgres" else tmp_path / "m"
    # no diary: a diary job due near midnight would make one batch more
    m = await Memory.open(where, embedder="hashing", settings=Settings(data=str(tmp_path / "d"), run_jobs=False,
                                                                            diary_enabled=False))
    yield m
    await m.close()


async def test_a_quiet_chat_is_digested_in_the_first_batch_while_an_import_waits(memory: Memory) -> None:
    for start in range(0, IMPORT, 500):  # an import, as `pmemo import` sends it
        await memory.add_many([{"tenant_id": "big", "user_id": f"u{i % 3}", "session_id": "s1",
                                "content": f"imported line {i} about the weather"}
                               for i in range(start, start + 500)])
    quiet = await memory.add(content="my cat is called Miso", **QUIET)
    batches = 0
    while await memory.pending(tenant_id="quiet"):
        assert await memory._worker.run_once(), "a batch with jobs: the quiet chat's is due"
        batches += 1
    assert batches == 1
    left = await memory.pending(tenant_id="big")  # jobs: each at most JOB_TURNS turns
    assert left * JOB_TURNS >= IMPORT - CLAIM_TURNS - JOB_TURNS  # the import barely started
    assert memory._store.vectors.get_vectors("turn", [quiet.id])  # its vector is stored: found by meaning
