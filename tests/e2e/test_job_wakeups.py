"""Workers wake on new jobs (issue 21): on PostgreSQL a job queued through one process reaches
an idle worker in another by LISTEN/NOTIFY, not by its next poll; with the notifications
gone (the listening connection dropped), the worker's poll still finds every job.

The worker polls once an hour here while it listens (``job_poll_s``), so a test that finishes
was woken by a notification: none asserts a time. Two ``Memory`` objects on one database
stand for two processes: each has its own pool, and the listener its own connection."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import psycopg
import pytest

from pmemo import Memory, Settings
from pmemo.pipelines.worker import POLL_S, poll_s
from pmemo.ports.jobs import JobSignals
from pmemo.stores.postgres import listen
from pmemo.stores.postgres.jobs import PostgresJobs
from pmemo.stores.postgres.store import PostgresStore

HOUR = 3600.0
GUARD_S = 60.0  # a hang guard only: a broken wake-up fails the test here instead of hanging it
U = {"tenant_id": "t", "user_id": "u", "session_id": "s"}


def terminate(url: str, pid: int) -> None:
    """Drop the server process of another connection, as a restart or a network cut would."""
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)


def wait_for(check: Callable[[], bool]) -> None:
    for _ in range(int(GUARD_S / 0.01)):
        if check():
            return
        threading.Event().wait(0.01)
    raise AssertionError("not within the guard")


async def until(check: Callable[[], bool]) -> None:
    async with asyncio.timeout(GUARD_S):
        while not check():
            await asyncio.sleep(0.01)


@pytest.fixture
async def pair(postgres_url: str, tmp_path: Path) -> AsyncIterator[tuple[Memory, Memory]]:
    """A worker (runs jobs, polls hourly while it listens) and a server that only queues them."""
    worker = await Memory.open(postgres_url, embedder="hashing",
                               settings=Settings(data=str(tmp_path / "w"), job_poll_s=HOUR, diary_enabled=False))
    server = await Memory.open(postgres_url, embedder="hashing",
                               settings=Settings(data=str(tmp_path / "s"), run_jobs=False))
    try:
        yield worker, server
    finally:
        await server.close()
        await worker.close()


def listener_of(memory: Memory) -> listen.JobListener:
    found = memory._worker.listener
    assert isinstance(found, listen.JobListener)
    return found


def test_the_postgres_store_announces_jobs_and_the_poll_follows_the_link():
    assert issubclass(PostgresJobs, JobSignals)

    class Link:
        live = True

        def close(self) -> None: ...

    assert poll_s(Link(), HOUR) == HOUR
    Link.live = False
    assert poll_s(Link(), HOUR) == POLL_S == poll_s(None, HOUR)


def test_a_job_queued_through_one_store_wakes_a_listener_on_another_connection(postgres_url: str):
    queuer, worker = PostgresStore.open(postgres_url), PostgresStore.open(postgres_url)
    woken = threading.Event()
    listener = worker.jobs.listen_jobs(woken.set)
    try:
        assert listener.wait_live(GUARD_S)
        assert woken.wait(GUARD_S)  # once on listening: jobs queued before were announced to no one
        woken.clear()
        queuer.jobs.enqueue("reindex", {"recluster": []})
        assert woken.wait(GUARD_S) and listener.received == 1
        assert [j.kind for j in worker.jobs.claim(10, "w")] == ["reindex"]

        woken.clear()  # a job given back (requeue_running) is announced too
        assert queuer.jobs.requeue_running("w") == 1
        assert woken.wait(GUARD_S) and listener.received == 2

        # the connection drops: the listener opens another, and hears jobs on it again
        first = listener.backend_pid
        assert first is not None
        terminate(postgres_url, first)
        wait_for(lambda: listener.live and listener.backend_pid not in (None, first))
        queuer.jobs.enqueue("reindex", {"recluster": []})
        wait_for(lambda: listener.received == 3)  # not woken: the listener also wakes as it drops and rejoins
    finally:
        listener.close()
        queuer.close()
        worker.close()
    assert not listener.live


async def test_a_worker_runs_a_job_another_process_queued_when_notified(pair: tuple[Memory, Memory]):
    worker, server = pair
    listener = listener_of(worker)
    assert await asyncio.to_thread(listener.wait_live, GUARD_S)
    await server.add(content="the launch moved to Monday", role="user", **U)
    await server.drain(timeout=GUARD_S)  # waits for the other process's worker to run the jobs
    assert listener.received >= 1  # the notification woke it, not the hourly poll
    assert await server.pending() == 0


async def test_without_notifications_the_poll_still_finds_jobs(pair: tuple[Memory, Memory],
                                                               postgres_url: str,
                                                               monkeypatch: pytest.MonkeyPatch):
    worker, server = pair
    listener = listener_of(worker)
    assert await asyncio.to_thread(listener.wait_live, GUARD_S)
    monkeypatch.setattr(listen, "RETRY_S", HOUR)  # once dropped, it stays deaf for this test
    pid = listener.backend_pid
    assert pid is not None
    await asyncio.to_thread(terminate, postgres_url, pid)
    await until(lambda: not listener.live)
    await server.add(content="the launch moved to Tuesday", role="user", **U)
    await server.drain(timeout=GUARD_S)
    assert listener.received == 0 and not listener.live  # found by the poll: nothing was heard
