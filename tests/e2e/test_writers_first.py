"""Writers first: the background worker waits while add() calls keep coming, and digests
what they wrote once they pause; drain() never waits for a pause."""

import asyncio

from pmemo import Memory, Settings


def _turn(i: int) -> dict:
    return {"user_id": "u", "session_id": "s", "content": f"message number {i} about the trip"}


def test_the_worker_waits_for_a_pause_in_writes_then_digests(tmp_path):
    async def scenario():
        mem = await Memory.open(tmp_path, embedder="hashing", settings=Settings(writer_quiet_ms=1000))
        try:
            await asyncio.sleep(0.2)  # the idle worker waits to be woken
            for i in range(20):  # a write every 20 ms: never a 1 s pause
                await mem.add(**_turn(i))
                await asyncio.sleep(0.02)
            backlog = await mem.pending()
            async with asyncio.timeout(30):  # the pause comes: the worker digests on its own
                while await mem.pending():
                    await asyncio.sleep(0.05)
            return backlog, await mem.stats()
        finally:
            await mem.close()

    backlog, stats = asyncio.run(scenario())
    assert backlog == 20  # nothing was claimed while the writes kept coming
    assert stats["turns"] == 20 and stats["failed_jobs"] == 0


def test_drain_does_not_wait_for_a_pause(tmp_path):
    async def scenario():
        mem = await Memory.open(tmp_path, embedder="hashing", settings=Settings(writer_quiet_ms=60_000))
        try:
            await mem.add_many([_turn(i) for i in range(5)])
            async with asyncio.timeout(30):
                await mem.drain()
            return await mem.pending(), await mem.search("trip", user_id="u")
        finally:
            await mem.close()

    pending, hits = asyncio.run(scenario())
    assert pending == 0 and hits
