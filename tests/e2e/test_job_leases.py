"""The worker over a job queue that other worker processes share (issue 21): it claims under its
own owner id with a lease, takes over the jobs of a worker that died once their lease ran out,
stops a batch whose lease another worker took, gives back what it holds at close, and retries a
failing job with backoff until it waits in the dead-letter list, which a tenant lists and retries.

Other workers are owner strings passed to the same store, as a second process would."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from pmemo import Memory, Settings
from pmemo.embedders.hashing import HashingEmbedder

A = {"tenant_id": "a", "user_id": "u"}


class Outage(HashingEmbedder):
    """An embedding service that is down until the test brings it back."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True

    def embed_passages(self, texts: list[str]):
        if self.down:
            raise ConnectionError("embedding service down")
        return super().embed_passages(texts)


class Gated(HashingEmbedder):
    """Embeds one chunk, then holds the next until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = threading.Event()
        self.gate = threading.Event()
        self.calls = 0

    def embed_passages(self, texts: list[str]):
        self.calls += 1
        if self.calls == 2:
            self.waiting.set()
            self.gate.wait(timeout=30)
        return super().embed_passages(texts)


async def test_a_failing_job_backs_off_then_waits_in_its_tenants_dead_letter_list(tmp_path: Path) -> None:
    embedder = Outage()
    mem = await Memory.open(tmp_path, embedder=embedder, settings=Settings(rate_limit="off", diary_enabled=False))
    try:
        turn = await mem.add(session_id="s", content="the budget is 100k", **A)
        other = await mem.add(session_id="s", content="someone else's", tenant_id="b", user_id="v")
        await mem.drain(timeout=60)  # returns: the jobs are dead after their tries (1 s, 2 s apart)
        (dead,) = await mem.failed_jobs(tenant_id="a")
        assert (dead["kind"], dead["payload"], dead["attempts"]) == ("turns", [turn.id], 3)
        assert dead["error"] == "ConnectionError: embedding service down"
        assert await mem.pending(tenant_id="a") == 0 and (await mem.stats(tenant_id="a"))["failed_jobs"] == 1
        assert [j["payload"] for j in await mem.failed_jobs(tenant_id="b")] == [[other.id]]
        assert len(await mem.failed_jobs()) == 2 and len(await mem.failed_jobs(limit=1)) == 1
        embedder.down = False  # the service is back
        assert await mem.retry_jobs([dead["id"]], tenant_id="b") == 0  # not b's job
        assert await mem.retry_jobs(tenant_id="a") == 1
        await mem.drain(timeout=60, tenant_id="a")
        assert await mem.failed_jobs(tenant_id="a") == []
        assert turn.id in mem._store.vectors.get_vectors("turn", [turn.id])  # embedded on the retry
    finally:
        await mem.close()


async def test_the_dead_letter_calls_check_their_scope(tmp_path: Path) -> None:
    from pmemo.errors import InvalidInput

    mem = await Memory.open(tmp_path, embedder="hashing")
    try:
        with pytest.raises(InvalidInput, match="tenant_id"):
            await mem.failed_jobs(user_id="u")
        with pytest.raises(InvalidInput, match="tenant_id"):
            await mem.retry_jobs(agent_id="bot")
        with pytest.raises(InvalidInput, match="job id must be an integer"):
            await mem.retry_jobs(["7"])
    finally:
        await mem.close()


async def test_a_dead_workers_job_is_taken_over_once_its_lease_runs_out(tmp_path: Path) -> None:
    mem = await Memory.open(tmp_path, embedder="hashing")
    try:
        turn = await mem.add(session_id="s", content="first words", **A)
        await mem.drain(timeout=60)
        store = mem._store
        store.vectors.delete_vectors("turn", [turn.id])
        job = store.jobs.enqueue("embed", [turn.id])
        store.jobs.claim(10, "other-host:1:live", lease_s=300)  # a live worker on another host holds it
        assert await mem._worker.run_once() == 0 and await mem.pending() == 1
        assert store.jobs.renew([job], "other-host:1:live", 300) == 1  # still its own
        store.jobs.requeue_running("other-host:1:live")  # it gives the job back and dies
        store.jobs.claim(10, "other-host:2:dead", lease_s=0)  # another takes it and dies at once
        await mem.drain(timeout=60)
        assert await mem.pending() == 0 and await mem.failed_jobs() == []
        assert turn.id in store.vectors.get_vectors("turn", [turn.id])
        assert store.jobs.renew([job], "other-host:2:dead", 300) == 0  # a late wake-up finds it done
    finally:
        await mem.close()


async def test_a_batch_whose_lease_another_worker_took_stops(tmp_path: Path) -> None:
    embedder = Gated()
    mem = await Memory.open(tmp_path, embedder=embedder,
                            settings=Settings(embed_batch=1, job_lease_s=0.05, diary_enabled=False))
    try:
        turns = await mem.add_many([{**A, "session_id": "s", "content": f"turn number {n}"} for n in range(3)])
        assert await asyncio.to_thread(embedder.waiting.wait, 30)  # one chunk done, the next held
        await asyncio.sleep(0.3)  # the worker's lease runs out meanwhile (it renews between chunks)
        store = mem._store
        (taken,) = store.jobs.claim(10, "thief", lease_s=300)  # as if the worker had died
        embedder.gate.set()
        assert await mem._worker.run_once() == 0  # waits for the batch in flight; nothing else is due
        assert store.jobs.renew([taken.id], "thief", 300) == 1  # the worker left it to the thief
        embedded = store.vectors.get_vectors("turn", [t.id for t in turns])
        assert len(embedded) < len(turns)  # it stopped at the next chunk instead of finishing
        store.jobs.requeue_running("thief")
        await mem.drain(timeout=60)
        assert set(store.vectors.get_vectors("turn", [t.id for t in turns])) == {t.id for t in turns}
    finally:
        await mem.close()


async def test_a_lease_that_ran_out_unclaimed_is_renewed_and_the_batch_goes_on(tmp_path: Path) -> None:
    embedder = Gated()
    mem = await Memory.open(tmp_path, embedder=embedder,
                            settings=Settings(embed_batch=1, job_lease_s=0.05, diary_enabled=False))
    try:
        turns = await mem.add_many([{**A, "session_id": "s", "content": f"turn number {n}"} for n in range(3)])
        assert await asyncio.to_thread(embedder.waiting.wait, 30)
        await asyncio.sleep(0.3)  # past the lease, but no other worker claimed the job
        embedder.gate.set()
        await mem.drain(timeout=60)
        assert await mem.failed_jobs() == []
        assert set(mem._store.vectors.get_vectors("turn", [t.id for t in turns])) == {t.id for t in turns}
    finally:
        await mem.close()


def test_close_gives_back_the_jobs_it_held(tmp_path: Path) -> None:
    async def scenario() -> None:
        embedder = Gated()
        mem = await Memory.open(tmp_path, embedder=embedder, settings=Settings(embed_batch=1, diary_enabled=False))
        await mem.add_many([{**A, "session_id": "s", "content": f"turn number {n}"} for n in range(3)])
        assert await asyncio.to_thread(embedder.waiting.wait, 30)
        closing = asyncio.create_task(mem.close())
        await asyncio.to_thread(mem._worker.stopping.wait, 30)
        embedder.gate.set()  # the chunk in flight ends; the worker stops at the next
        await closing

    asyncio.run(scenario())
    with sqlite3.connect(tmp_path / "pmemo.db") as db:  # read as it was left, before any reopen
        states = dict(db.execute("SELECT status, COUNT(*) FROM jobs GROUP BY status").fetchall())
        held = db.execute("SELECT COUNT(*) FROM jobs WHERE owner IS NOT NULL").fetchone()[0]
    assert states.get("running", 0) == 0 and states.get("pending", 0) >= 1 and held == 0
