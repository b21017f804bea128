"""Issue 18 §7: /v1/stats counts a tenant's own background jobs, never another tenant's.

The jobs are real: turns posted over HTTP, embedded by the real worker with an embedder
that fails on one word (the job is parked as failed after its retries) and waits on
another (the job stays running until the test lets it go).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from pmemo import Memory
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.models import Scope
from pmemo.server import SQLiteKeyStore, create_app
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.schema import MIGRATIONS
from pmemo.stores.sqlite.store import DB_NAME, SQLiteStore
from pmemo.text.segment import segment

from .conftest import BASE


class GatedEmbedder(HashingEmbedder):
    """Raises on a text with "poison"; waits for ``release`` on a text with "slow"."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.waiting = threading.Event()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if any("poison" in t for t in texts):
            raise RuntimeError("poisoned text")
        if any("slow" in t for t in texts):
            self.waiting.set()
            self.release.wait(30)
        return super().embed_passages(texts)


async def jobs(c: httpx.AsyncClient, **query: str) -> tuple[int, int]:
    r = await c.get("/v1/stats", params=query)
    assert r.status_code == 200, r.text
    stats = r.json()["stats"]
    return stats["pending_jobs"], stats["failed_jobs"]


async def until(check: Any, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < end, "the worker did not get there in time"
        await asyncio.sleep(0.02)


async def test_stats_count_only_the_tenants_own_jobs(tmp_path: Path) -> None:
    embedder = GatedEmbedder()
    memory = await Memory.open(str(tmp_path / "memory"), embedder=embedder)
    keys = SQLiteKeyStore.in_dir(tmp_path)
    app = create_app(memory, keys)

    def client(tenant: str) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {keys.create_key(tenant)}"}
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, headers=headers)

    try:
        async with client("ta") as a, client("tb") as b:
            turn = {"user_id": "alice", "session_id": "s1"}
            # tenant A: one job that fails for good, then one that the worker is busy with
            r = await a.post("/v1/turns", json={**turn, "content": "a poison pill"})
            assert r.status_code == 201, r.text

            async def failed() -> bool:
                return await jobs(a) == (0, 1)

            await until(failed)
            r = await a.post("/v1/turns", json={**turn, "content": "a slow one"})
            assert r.status_code == 201, r.text
            await until(lambda: asyncio.to_thread(embedder.waiting.wait, 0.05))
            # tenant B queues one behind it: B counts its own job, A does not
            r = await b.post("/v1/turns", json={**turn, "content": "B's turn"})
            assert r.status_code == 201, r.text

            assert await jobs(a) == (1, 1)
            assert await jobs(b) == (1, 0)
            # per scope: the owner and the agent narrow the count; another owner has none
            assert await jobs(a, user_id="alice") == (1, 1)
            assert await jobs(a, user_id="alice", agent_id="default") == (1, 1)
            assert await jobs(a, user_id="bob") == (0, 0)
            assert await jobs(a, group_id="alice") == (0, 0)
            assert await jobs(a, agent_id="other") == (0, 0)
            assert await jobs(b, user_id="alice") == (1, 0)
            r = await a.get("/v1/stats", params={"user_id": "alice", "group_id": "g"})
            assert r.status_code == 422, r.text
            # the library: the whole store, or one tenant
            assert (await memory.stats())["pending_jobs"] == 2
            assert (await memory.stats(tenant_id="tb"))["failed_jobs"] == 0

            embedder.release.set()
            await memory.drain(20)
            assert await jobs(a) == (0, 1)
            assert await jobs(b) == (0, 0)
    finally:
        embedder.release.set()
        await memory.close()
        keys.close()


async def test_jobs_queued_before_the_upgrade_are_counted_per_tenant(tmp_path: Path) -> None:
    """A store made before jobs were attributed: the migration attributes the queued ones."""
    before = next(n for n, sql in enumerate(MIGRATIONS) if "job_scopes" in sql)
    (tmp_path / "memory").mkdir()
    conn = sqlite3.connect(tmp_path / "memory" / DB_NAME)
    for number in range(before):
        conn.executescript("BEGIN;" + MIGRATIONS[number] + f"; PRAGMA user_version={number + 1}; COMMIT;")
    turn = conn.execute(
        "INSERT INTO turns(scope_key, tenant, agent, owner, session, step, role, content, ts, created)"
        " VALUES('ta|default|u:u', 'ta', 'default', 'u:u', 's', 1, 'user', 'hello', 0, 0)"
    ).lastrowid
    conn.execute(
        "INSERT INTO jobs(kind, payload, status, created, updated) VALUES('turns', ?, 'failed', 0, 0)", (f"[{turn}]",)
    )
    conn.execute(
        "INSERT INTO jobs(kind, payload, status, created, updated) VALUES('reindex', ?, 'failed', 0, 0)",
        ('{"recluster": []}',),
    )
    conn.commit()
    conn.close()
    memory = await Memory.open(str(tmp_path / "memory"), embedder="hashing")
    try:
        assert (await memory.stats())["failed_jobs"] == 2
        assert (await memory.stats(tenant_id="ta"))["failed_jobs"] == 1  # a reindex is nobody's
        assert (await memory.stats(tenant_id="tb"))["failed_jobs"] == 0
        assert (await memory.stats(tenant_id="ta", user_id="u"))["failed_jobs"] == 1
        assert (await memory.stats(tenant_id="ta", user_id="v"))["failed_jobs"] == 0
    finally:
        await memory.close()


def test_every_kind_of_job_is_counted_for_the_owners_it_is_about(tmp_path: Path) -> None:
    """The store attributes each job kind by the rows its payload names; a store-wide job
    (reindex) is nobody's, and a finished job leaves nothing behind."""

    def new(scope: Scope, text: str) -> NewTurn:
        return NewTurn(scope, "user", text, None, datetime.now(UTC), {}, segment(text))

    a = Scope.of(user_id="alice", session_id="s", tenant_id="ta")
    b = Scope.of(group_id="team", session_id="s", tenant_id="tb", agent_id="bot")
    store = SQLiteStore.open(tmp_path / "memory")
    try:
        first, _ = store.turns.add_turns([new(a, "one"), new(b, "two")])  # one job about both tenants
        cluster = store.clusters.add_cluster(a.owner_scope(), np.ones(4, dtype=np.float32), [first.id], "c")
        episode = store.episodes.add_episode(a, "session", {"summary": "e", "started": 0.0, "ended": 0.0}, [first.id])
        ids = [
            store.jobs.enqueue("promote", {"cluster_id": cluster}),
            store.jobs.enqueue("hits", {"clusters": [cluster], "at": 0}),
            store.jobs.enqueue("touch", {"episodes": [episode.id], "at": 0}),
            store.jobs.enqueue("embed", [first.id]),
            store.jobs.enqueue("reindex", {"recluster": [first.id]}),
        ]
        assert store.stats()["pending_jobs"] == 6
        assert store.stats("ta")["pending_jobs"] == 5  # the shared batch and its four
        assert store.stats("tb")["pending_jobs"] == 1  # the shared batch only
        assert store.stats("tb", agent_id="bot", owner="g:team")["pending_jobs"] == 1
        assert store.stats("tb", owner="u:alice")["pending_jobs"] == 0
        assert store.stats("tc")["pending_jobs"] == 0
        for job in store.jobs.claim(100):
            if job.id in ids[:2]:
                store.jobs.fail(job.id, "boom", retry=False)
            else:
                store.jobs.finish(job.id)
        assert (store.stats("ta")["pending_jobs"], store.stats("ta")["failed_jobs"]) == (0, 2)
        assert (store.stats("tb")["pending_jobs"], store.stats("tb")["failed_jobs"]) == (0, 0)
    finally:
        store.close()
    conn = sqlite3.connect(tmp_path / "memory" / DB_NAME)
    assert conn.execute("SELECT COUNT(*) FROM job_scopes").fetchone()[0] == 2  # the failed two
    conn.close()
