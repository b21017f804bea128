"""Reads a thread keeps for the length of one background batch.

A batch of turns of one chat reads the same things for every turn (the people registry's alias
version and members, the scope's cluster centroids); inside ``with held.batch():`` the first read
of each is kept and used again by this thread, and a search on another thread still reads fresh.
Outside a batch every read is made.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import TypeVar

T = TypeVar("T")


class Held:
    def __init__(self) -> None:
        self._local = threading.local()  # .reads: this thread's batch's reads by key, or None

    @contextlib.contextmanager
    def batch(self, known: Mapping[Hashable, object] | None = None) -> Iterator[None]:
        """Within it, this thread keeps each read; ``known``: reads the caller made already."""
        self._local.reads = dict(known or {})
        try:
            yield
        finally:
            self._local.reads = None

    def get(self, key: Hashable, read: Callable[[], T]) -> T:
        reads = getattr(self._local, "reads", None)
        if reads is None:
            return read()
        if key not in reads:
            reads[key] = read()
        return reads[key]  # type: ignore[no-any-return]

    def drop(self, key: Hashable) -> None:
        """Read ``key`` again next time (what was kept is known to be stale)."""
        if reads := getattr(self._local, "reads", None):
            reads.pop(key, None)
