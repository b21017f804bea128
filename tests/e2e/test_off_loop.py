"""No CPU work on the event loop: a turn is checked and segmented in a worker thread.

jieba takes ~0.5 s on a 100,000-character Chinese turn; on the loop, that is half a second in
which no other tenant's call (nor ``/healthz``) gets an answer. Each item records the thread
that reads it, so the test knows where the building of the turn ran, without a clock.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from pmemo import InvalidInput, Memory


class _Seen(dict):
    """A turn given as a dict that notes the threads its fields were read from."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.threads: set[int] = set()

    def get(self, key, default=None):  # type: ignore[override]
        self.threads.add(threading.get_ident())
        return super().get(key, default)


def test_turns_are_built_off_the_loop(tmp_path: Path):
    async def scenario() -> tuple[int, set[int], str]:
        async with await Memory.open(tmp_path / "data", embedder="hashing") as mem:
            item = _Seen(user_id="u1", session_id="s1", content="预算不能超过十万元。" * 10_000)
            turns = await mem.add_many([item])
            return threading.get_ident(), item.threads, turns[0].content

    loop_thread, threads, content = asyncio.run(scenario())
    assert threads and loop_thread not in threads
    assert len(content) == 100_000


def test_errors_from_the_thread_are_the_same(tmp_path: Path):
    async def scenario() -> list[str]:
        async with await Memory.open(tmp_path / "data", embedder="hashing") as mem:
            out = []
            for call in (mem.add(session_id="s1", user_id="u1", content=""),
                         mem.add_many([{"session_id": "s1", "user_id": "u1", "content": "ok"}, "no"]),
                         mem.add_many([{"session_id": "s1", "user_id": "u1", "content": "ok", "colour": 1}])):
                with pytest.raises(InvalidInput) as err:
                    await call
                out.append(str(err.value))
            assert await mem.turns(user_id="u1") == []
            return out

    assert asyncio.run(scenario()) == ["content is empty; give the text of the turn",
                                       "a turn must be a dict, got str", "unknown turn field(s): colour"]
