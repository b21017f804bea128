"""Closing a memory with a backlog stops between embedding chunks; nothing is lost."""

import asyncio
import sqlite3
import threading

from pmemo import Memory, Settings, SyncMemory
from pmemo.embedders.hashing import HashingEmbedder


class GatedEmbedder(HashingEmbedder):
    """Embeds one chunk, then waits until the test lets it go on."""

    def __init__(self) -> None:
        super().__init__()
        self.first_chunk = threading.Event()
        self.release = threading.Event()

    def embed_passages(self, texts):
        if self.first_chunk.is_set():
            self.release.wait(timeout=30)
        self.first_chunk.set()
        return super().embed_passages(texts)


def test_close_leaves_the_backlog_for_the_next_open(tmp_path):
    settings = Settings(embed_batch=8)
    gated = GatedEmbedder()
    mem = SyncMemory.open(tmp_path, embedder=gated, settings=settings)
    turns = mem.add_many([{"user_id": "u", "session_id": "s", "content": f"turn number {i}"}
                          for i in range(64)])
    assert gated.first_chunk.wait(timeout=30)
    closer = threading.Thread(target=mem.close)
    closer.start()
    assert mem._memory._worker.stopping.wait(timeout=30)
    gated.release.set()  # the chunk in flight finishes; the worker then stops
    closer.join(timeout=60)
    assert not closer.is_alive()
    with sqlite3.connect(tmp_path / "pmemo.db") as db:
        embedded = db.execute("SELECT COUNT(*) FROM vectors WHERE kind='turn'").fetchone()[0]
    assert embedded < 64  # it stopped between chunks instead of finishing the backlog

    with SyncMemory.open(tmp_path, embedder="hashing", settings=settings) as again:
        again.drain(timeout=60)
        stats = again.stats()
        assert stats["turns"] == 64 and stats["pending_jobs"] == 0 and stats["failed_jobs"] == 0
        hit = again.search("turn number 63", user_id="u", limit=1)[0]
        assert hit.sources[0].id == turns[-1].id


def test_close_right_after_a_wake_up_returns(tmp_path):
    """A search that queues a promotion wakes the idle worker; a close in the same moment
    must still stop it (asyncio.wait_for on 3.11 swallowed that cancel, and close hung)."""

    async def scenario():
        memory = await Memory.open(tmp_path, embedder="hashing")
        await asyncio.sleep(0.2)  # the worker has found no job and waits to be woken
        memory._worker.wake.set()
        closing = asyncio.create_task(memory.close())
        done, _ = await asyncio.wait({closing}, timeout=30)
        assert closing in done, "close() hung: the worker missed its cancel"
        await closing

    asyncio.run(scenario())
