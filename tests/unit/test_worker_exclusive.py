"""``Worker.exclusive()``: the public way to hold the background jobs off (forget, restore, purge, sweep)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pmemo import Memory, Settings


def test_no_batch_runs_while_the_worker_is_held_and_it_runs_after(tmp_path: Path):
    async def run() -> None:
        mem = await Memory.open(tmp_path, settings=Settings(run_jobs=False), embedder="hashing")
        try:
            await mem.add(user_id="u", session_id="s", content="a turn to embed")
            worker = mem._worker
            async with worker.exclusive():
                batch = asyncio.create_task(worker.run_once())
                for _ in range(20):  # every chance to run: it waits on the lock, not on time
                    await asyncio.sleep(0)
                assert not batch.done() and await mem.pending() == 1
            assert await batch == 1 and await mem.pending() == 0
        finally:
            await mem.close()

    asyncio.run(run())


def test_a_forget_waits_for_the_batch_in_progress(tmp_path: Path):
    async def run() -> None:
        mem = await Memory.open(tmp_path, settings=Settings(run_jobs=False), embedder="hashing")
        try:
            turn = await mem.add(user_id="u", session_id="s", content="forget me")
            worker = mem._worker
            async with worker.exclusive():  # stands in for a batch in progress
                forget = asyncio.create_task(mem.forget([turn.id]))
                await asyncio.sleep(0.2)  # time to reach the lock (a wait, not a timing assert)
                assert not forget.done() and (await mem.get_turn(turn.id)).content == "forget me"
            report = await forget
            assert report["mode"] == "soft" and report["batch"] is not None
            assert await mem.turns(user_id="u") == []
        finally:
            await mem.close()

    asyncio.run(run())
