"""``Worker.exclusive()``: the public way to hold the background jobs off (forget, restore, purge, sweep)."""

from __future__ import annotations

import asyncio
import threading
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


def test_closing_a_session_waits_for_a_forget_of_its_owner(tmp_path: Path):
    """end_session reads the session's turns as a batch does (a shared hold): while a forget
    holds the owner, no episode is built from turns it may be deleting."""

    async def run() -> None:
        mem = await Memory.open(tmp_path, embedder="hashing")
        try:
            for i in range(3):
                await mem.add(user_id="u", session_id="s", content=f"we planned the trip, part {i}")
            await mem.drain()
            held, release = threading.Event(), threading.Event()

            def forget_in_progress() -> None:  # a forget holding the owner, on a thread of its own
                with mem._store.locks.hold(["default|default|u:u"]):
                    held.set()
                    release.wait()

            holder = threading.Thread(target=forget_in_progress)
            holder.start()
            held.wait()
            order: list[str] = []
            closing = asyncio.create_task(mem.end_session("s", user_id="u"))
            await asyncio.sleep(0.2)  # time to reach the lock (a wait, not a timing assert)
            order.append("forget done" if not closing.done() else "closed first")
            release.set()
            episode = await closing
            holder.join()
            order.append("closed")
            assert order == ["forget done", "closed"] and episode is not None
        finally:
            await mem.close()

    asyncio.run(run())


def test_a_sweep_waits_for_the_owners_it_deletes_from(tmp_path: Path):
    """The sweeper's deletions hold their owners as a forget does."""
    settings = Settings(decay_half_life_days=10, decay_floor=0.0, max_episodes_per_scope=100)

    async def run() -> None:
        mem = await Memory.open(tmp_path, settings=settings, embedder="hashing")
        try:
            await mem.add(user_id="u", session_id="old", content="small talk about nothing",
                          timestamp="2023-01-01T10:00:00")
            await mem.add(user_id="u", session_id="new", content="hello again", timestamp="2024-06-01T10:00:00")
            await mem.drain()
            held, release = threading.Event(), threading.Event()

            def batch_in_progress() -> None:  # a background batch reading the owner
                with mem._store.locks.hold(["default|default|u:u"], shared=True):
                    held.set()
                    release.wait()

            holder = threading.Thread(target=batch_in_progress)
            holder.start()
            held.wait()
            sweeping = asyncio.create_task(mem.sweep(dry_run=False))
            await asyncio.sleep(0.2)  # time to reach the lock (a wait, not a timing assert)
            waited = not sweeping.done() and len(await mem.episodes(user_id="u")) == 1
            release.set()
            done = await sweeping
            holder.join()
            assert waited and done["batch"] and await mem.episodes(user_id="u") == []
        finally:
            await mem.close()

    asyncio.run(run())
