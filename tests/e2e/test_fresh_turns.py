"""Fresh turns first (issue 43 §2, pipelines/fresh.py): a quiet chat's new message is embedded
at the worker's next pause point while another tenant's import is still in its batch, and the
import's batch then goes on; a forgotten note is not embedded."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta

import numpy as np

from pmemo import Memory
from pmemo.embedders.hashing import HashingEmbedder

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
MARK = "IMPORT"


class Gated(HashingEmbedder):
    """Each call on the import's texts waits for a pass (``passes``); other texts never wait."""

    def __init__(self) -> None:
        super().__init__()
        self.passes = threading.Semaphore(0)
        self.waiting = threading.Event()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if any(MARK in t for t in texts):
            self.waiting.set()
            assert self.passes.acquire(timeout=120), "the test never let the import on"
            self.waiting.clear()
        return super().embed_passages(texts)


async def until(check, seconds: float = 60.0) -> bool:
    """Wait until ``check()`` (off the loop) is true, or give up after ``seconds``."""
    for _ in range(int(seconds / 0.05)):
        if await asyncio.to_thread(check):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_quiet_message_is_embedded_while_another_tenants_batch_runs(tmp_path) -> None:
    embedder = Gated()
    async with await Memory.open(tmp_path, embedder=embedder) as m:
        store = m._store
        imported = await m.add_many([{"group_id": "big", "session_id": "s", "tenant_id": "a",
                                      "timestamp": T0 + timedelta(seconds=i), "content": f"{MARK} line {i}"}
                                     for i in range(96)])  # three embedding calls of 32
        try:
            assert await asyncio.to_thread(embedder.waiting.wait, 60)  # the import's first call is held
            quiet = await m.add(group_id="quiet", session_id="live", tenant_id="b", timestamp=T0,
                                content="the badminton court moved to the gym")
            embedder.passes.release()  # the first call ends; the batch pauses before the next one
            assert await until(lambda: quiet.id in store.vectors.get_vectors("turn", [quiet.id]))
            assert await until(embedder.waiting.is_set)  # the import's next call is held again
            import_vectors = store.vectors.get_vectors("turn", [t.id for t in imported])
            assert len(import_vectors) < len(imported)  # the quiet message did not wait for the batch
        finally:
            for _ in range(10):
                embedder.passes.release()
        await m.drain()
        assert len(store.vectors.get_vectors("turn", [t.id for t in imported])) == len(imported)
        hits = await m.search("badminton court", group_id="quiet", tenant_id="b")
        assert hits and hits[0].id == f"turn:{quiet.id}" and "meaning" in hits[0].why


async def test_an_import_batch_is_not_noted_and_a_forgotten_note_is_not_embedded(tmp_path) -> None:
    async with await Memory.open(tmp_path, embedder=HashingEmbedder()) as m:
        worker, store = m._worker, m._store
        many = await m.add_many([{"user_id": "u", "session_id": "s", "content": f"line {i}"} for i in range(10)])
        assert len(worker.fresh) == 0  # an import's batch waits for its jobs
        one = await m.add(user_id="u", session_id="s", content="a message that is forgotten")
        await m.drain()
        await m.forget([one.id], user_id="u", hard=True)
        worker.fresh.note([one])  # a note outlived its turn (another process forgot it, say)
        await asyncio.to_thread(worker._embed_fresh)  # the pause point's fast path, by hand
        assert store.vectors.get_vectors("turn", [one.id]) == {}
        await m.drain()
        assert len(store.vectors.get_vectors("turn", [t.id for t in many])) == len(many)
