"""``SyncMemory``: the blocking face of ``Memory`` for plain scripts.

It runs one event loop in a background thread and forwards every call to the async
core, so there is no second copy of any logic.

>>> import tempfile
>>> mem = SyncMemory.open(tempfile.mkdtemp(), embedder="hashing")
>>> mem.add(user_id="u1", session_id="s1", content="hello").step
1
>>> mem.close()
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from typing import Any

from .memory import Memory


class SyncMemory:
    def __init__(self, memory: Memory, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        self._memory = memory
        self._loop = loop
        self._thread = thread

    @classmethod
    def open(cls, path: Any = None, **kwargs: Any) -> SyncMemory:
        """Open like ``Memory.open``; every method of ``Memory`` is then available, blocking."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="pmemo-loop", daemon=True)
        thread.start()
        try:
            memory = asyncio.run_coroutine_threadsafe(Memory.open(path, **kwargs), loop).result()
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(memory, loop, thread)

    @property
    def settings(self) -> Any:
        return self._memory.settings

    def __getattr__(self, name: str) -> Callable[..., Any]:
        target = getattr(self._memory, name)
        if not asyncio.iscoroutinefunction(target):
            return target

        @functools.wraps(target)
        def call(*args: Any, **kwargs: Any) -> Any:
            return asyncio.run_coroutine_threadsafe(target(*args, **kwargs), self._loop).result()

        return call

    def close(self) -> None:
        if self._loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self._memory.close(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> SyncMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
