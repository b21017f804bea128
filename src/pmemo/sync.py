"""``SyncMemory``: the blocking face of ``Memory`` for plain scripts.

It runs one event loop in a background thread and forwards every call to the async
core, so there is no second copy of any logic.

>>> import tempfile
>>> mem = SyncMemory.open(tempfile.mkdtemp(), embedder="hashing")
>>> mem.add(user_id="u1", session_id="s1", content="hello").step
1
>>> [t.content for t in mem.entries.turns(user_id="u1")]  # a namespace of Memory, blocking too
['hello']
>>> mem.close()
"""

from __future__ import annotations

import asyncio
import functools
import threading
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

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._memory, name)
        if name in Memory.NAMESPACES:  # mem.registry, mem.journal, ...: their calls block too
            return Blocking(target, self._loop)
        return blocking(target, self._loop)

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


class Blocking:
    """A namespace of ``Memory`` (a service) whose coroutine methods run on the loop, blocking."""

    def __init__(self, service: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._service = service
        self._loop = loop

    def __getattr__(self, name: str) -> Any:
        return blocking(getattr(self._service, name), self._loop)

    def __dir__(self) -> list[str]:
        return [n for n in dir(self._service) if not n.startswith("_")]


def blocking(target: Any, loop: asyncio.AbstractEventLoop) -> Any:
    """``target`` itself, or if it is a coroutine function, a blocking call of it on ``loop``."""
    if not asyncio.iscoroutinefunction(target):
        return target

    @functools.wraps(target)
    def call(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(target(*args, **kwargs), loop).result()

    return call
