"""The lock port on SQLite (``store.locks``; ``stores/locks.py`` is the rest): readers-writer
locks by name, in the one process the data directory admits.

The directory lock (``.lock``, taken at open) keeps every other process out of the store for
as long as it is open, so a lock that excludes the threads of this process excludes every
other user of the file too: a second process cannot open the directory, let alone forget in
it (tests/e2e/test_forget_exclusion.py). Within the process, a forget (exclusive) waits for
the background batches reading its owner (shared), and they wait for it.

A hold takes all its names at once or none, under one condition variable, so two holds of
overlapping names never wait for each other crosswise; a waiting exclusive hold stops new
shared ones of its names from starting, so a stream of batches cannot starve a forget.

>>> locks = NamedLocks()
>>> with locks.hold(["acme|bot|u:ann"]):
...     with locks.hold(["acme|bot|u:bob"], wait_s=0):  # another owner: free
...         "both held"
'both held'
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from ..locks import Locks, locked


class NamedLocks(Locks):
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._readers: Counter[str] = Counter()  # name → shared holds
        self._writers: set[str] = set()  # names held exclusively
        self._queued: Counter[str] = Counter()  # name → exclusive holds waiting for it

    @contextmanager
    def _held(self, names: list[str], shared: bool, wait_s: float) -> Iterator[None]:
        self._take(names, shared, wait_s)
        try:
            yield
        finally:
            with self._changed:
                if shared:
                    self._readers.subtract(names)
                    self._readers = +self._readers  # drop the names no one holds any more
                else:
                    self._writers.difference_update(names)
                self._changed.notify_all()

    def _take(self, names: list[str], shared: bool, wait_s: float) -> None:
        deadline = time.monotonic() + wait_s
        with self._changed:
            if not shared:
                self._queued.update(names)
            try:
                while not self._free(names, shared):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise locked(names, wait_s, "another operation")
                    self._changed.wait(left)
            finally:
                if not shared:  # no longer waiting: shared holds it held back may start (if it gave up)
                    self._queued.subtract(names)
                    self._queued = +self._queued
                    self._changed.notify_all()
            if shared:
                self._readers.update(names)
            else:
                self._writers.update(names)

    def _free(self, names: list[str], shared: bool) -> bool:
        if shared:  # no writer holds them, and none waits for them (writers first)
            return not any(n in self._writers or self._queued[n] for n in names)
        return not any(n in self._writers or self._readers[n] for n in names)
