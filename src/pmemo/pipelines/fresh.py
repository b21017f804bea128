"""Fresh turns first: a chat's new message is searchable by meaning within seconds, whatever
batch the worker is in (issue 43 §2).

Fair claims (``stores/fair_share.py``) bound how long a quiet chat's job waits for a claim: the
batch running when it came, then its own. But a batch lasts as long as the work it holds, and
while reads come without pause the background runs a fraction of the time (``reads_first``):
a batch of another tenant's import took tens of seconds, and a quiet chat's message waited for
all of it before its vector was stored (p50 30-46 s in ``bench/neighbours.py``'s import).

So a small write (at most ``SMALL`` turns: a bot's message, not an import's batch) is noted
here too, in this process, and the worker embeds the noted turns at its next pause point
(``Worker._between``), at most ``TAKE`` at a time, before its batch goes on. Only their vectors
are written, under a shared hold of their owners as a batch takes (``job_owners.py``); people,
facts, clusters and the rest wait for the turn's own job, which then finds the vector in the
embedding cache. The job stays the truth: a note this process never gets to (another process's
worker takes the job, a restart, more notes than ``KEPT``) only means the turn waits for its
job, as before.

>>> fresh = Fresh()
>>> fresh.note(["one", "two"]); fresh.note(["a", "b"] * 40)  # an import's batch is not noted
>>> fresh.drop(lambda t: t == "two")  # a batch took its job: it embeds it
>>> fresh.take(8), fresh.take(8)
(['one'], [])
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

SMALL = 4  # turns a write may hold to be noted: a chat's message (or a few), not an import
KEPT = 256  # notes kept at most; older ones are left to their jobs
TAKE = 8  # turns embedded at one pause point: a short step (~0.1-0.3 s on one core)

T = TypeVar("T")


class Fresh(Generic[T]):
    """The turns of small writes not yet embedded by this process's fast path, oldest first."""

    def __init__(self) -> None:
        self._noted: collections.deque[T] = collections.deque(maxlen=KEPT)
        self._lock = threading.Lock()

    def note(self, turns: Sequence[T]) -> None:
        """Note a write's turns (called by the writer; a write of more than ``SMALL`` is not)."""
        if 0 < len(turns) <= SMALL:
            with self._lock:
                self._noted.extend(turns)

    def drop(self, taken: Callable[[T], bool]) -> None:
        """Forget the notes a batch is about to embed itself (``taken``)."""
        with self._lock:
            if self._noted:
                self._noted = collections.deque((t for t in self._noted if not taken(t)), maxlen=KEPT)

    def take(self, n: int = TAKE) -> list[T]:
        """The ``n`` oldest notes, forgotten here."""
        with self._lock:
            return [self._noted.popleft() for _ in range(min(n, len(self._noted)))]

    def __len__(self) -> int:
        return len(self._noted)
