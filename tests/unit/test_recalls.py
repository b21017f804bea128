"""Reads' hit counts are queued together: one 'hits' job for many searches, none lost."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from pmemo import SyncMemory
from pmemo.pipelines.recalls import Recalls
from pmemo.stores.sqlite.store import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore.open(tmp_path / "data")
    yield s
    s.close()


def queued(store: SQLiteStore) -> list[tuple[str, object]]:
    return [(job.kind, job.payload) for job in store.jobs.claim(100)]


def test_many_reads_are_one_job_and_a_cluster_recalled_twice_counts_twice(store: SQLiteStore) -> None:
    woken: list[bool] = []

    async def reads() -> None:
        recalls = Recalls(store.jobs, lambda: woken.append(True), flush_s=60.0)
        recalls.add([1, 2])
        recalls.add([2, 3], episodes=[7])
        recalls.add([], episodes=[7])
        recalls.add([])  # a read that recalled nothing adds nothing
        assert store.jobs.pending() == 0  # nothing is written while the reads answer
        await recalls.settle()

    asyncio.run(reads())
    jobs = queued(store)
    assert [kind for kind, _ in jobs] == ["hits", "touch"]
    hits, touch = (payload for _, payload in jobs)
    assert isinstance(hits, dict) and isinstance(touch, dict)
    assert hits["clusters"] == [1, 2, 2, 3] and touch["episodes"] == [7, 7]
    assert woken == [True]


def test_counts_are_queued_after_the_interval_without_a_drain(store: SQLiteStore) -> None:
    async def reads() -> int:
        recalls = Recalls(store.jobs, lambda: None, flush_s=0.05)
        recalls.add([5])
        for _ in range(100):  # no settle: the timer queues them
            await asyncio.sleep(0.02)
            if store.jobs.pending():
                break
        recalls.add([6])  # a read after the flush starts a new batch
        await recalls.settle()
        return store.jobs.pending()

    assert asyncio.run(reads()) == 2
    assert [payload["clusters"] for _, payload in queued(store)] == [[5], [6]]  # type: ignore[index]


def test_searches_count_each_recalled_cluster_once_a_read_drained(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "m", embedder="hashing") as mem:
        mem.add_many([{"user_id": "u", "session_id": "s", "content": f"the Hangzhou budget, note {i}"}
                      for i in range(40)])
        mem.drain()
        before = sum(c.hits for c in mem.clusters(user_id="u"))
        mem.search("Hangzhou budget", user_id="u")
        mem.drain()
        one = sum(c.hits for c in mem.clusters(user_id="u")) - before  # the clusters one search recalls
        for _ in range(3):
            mem.search("Hangzhou budget", user_id="u")
        mem.drain()  # the three reads' counts, queued together
        three = sum(c.hits for c in mem.clusters(user_id="u")) - before - one
    assert one >= 1.0 and three == pytest.approx(3 * one, abs=1e-3)
