"""A context is one read (issue 17, groundwork): the query is embedded once, and cluster hits
and episode accesses are counted by a job the read queues, not by the read."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta

import numpy as np

from pmemo import Memory, SyncMemory
from pmemo.embedders.hashing import HashingEmbedder

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return super().embed_query(text)


def test_context_embeds_the_query_once_and_counts_hits_in_a_job(tmp_path) -> None:
    embedder = Counting()
    with SyncMemory.open(tmp_path, embedder=embedder) as m:
        topics = ["budget for the Hangzhou trip", "the dog cannot eat grapes", "launch on Monday"]
        m.add_many([{"user_id": "u", "session_id": "s", "content": f"{topics[i % 3]}, note {i}",
                     "timestamp": T0 + timedelta(minutes=i)} for i in range(60)])
        m.end_session("s", user_id="u")  # an episode for the episodic tier
        m.add(user_id="u", session_id="s2", content="hello again", timestamp=T0 + timedelta(hours=2))
        m.drain()
        before = {c.id: c.hits for c in m.clusters(user_id="u")}
        embedder.queries.clear()
        pack = m.context("what about the Hangzhou budget?", user_id="u", session_id="s2")
        assert embedder.queries == ["what about the Hangzhou budget?"]  # one embedding for every tier
        assert any(h.tier == "mid_term" for h in pack.items)
        m.drain()  # the hits are counted by a job the read queued (it may already have run)
        after = {c.id: c.hits for c in m.clusters(user_id="u")}
        assert sum(after.values()) > sum(before.values())


async def test_a_search_answers_before_its_hit_counts_are_queued(tmp_path) -> None:
    """Queueing the hits job is a write: a search must not wait for it (on SQLite the one
    writer may be held by another tenant's batch). The gate holds the queueing until the
    search has answered; ``drain`` then waits for it, and the hits are counted."""
    async with await Memory.open(tmp_path, embedder=HashingEmbedder()) as m:
        await m.add_many([{"user_id": "u", "session_id": "s", "content": f"the Hangzhou budget, note {i}",
                           "timestamp": T0 + timedelta(minutes=i)} for i in range(40)])
        await m.drain()
        before = sum(c.hits for c in await m.clusters(user_id="u"))
        gate, entered = threading.Event(), threading.Event()
        enqueue = m._store.jobs.enqueue

        def held(kind: str, payload: object) -> object:
            entered.set()
            assert gate.wait(60), "the test never opened the gate"
            return enqueue(kind, payload)

        m._store.jobs.enqueue = held  # type: ignore[method-assign]
        try:
            hits = await asyncio.wait_for(m.search("Hangzhou budget", user_id="u"), 60)
            assert hits and not gate.is_set()  # answered while its hits job could not be queued
        finally:
            gate.set()
        await m.drain()
        assert entered.is_set()
        assert sum(c.hits for c in await m.clusters(user_id="u")) > before
