"""The lock port (``ports.locks.LockPort``): what every backend's named locks share, written once.

A hold asks for its names once each, sorted (one order for every hold, so two never wait for
each other crosswise); none asked is no hold at all. A backend gives ``_held``: the block in
which it holds them (``sqlite/locks.py``: a condition variable of the one process;
``postgres/locks.py``: advisory locks on one pooled session).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager

from ..errors import StoreLocked
from ..ports.locks import OWNER_WAIT_S


def locked(names: list[str], wait_s: float, by: str) -> StoreLocked:
    """The error a hold that waited ``wait_s`` in vain raises (``by``: who else holds them)."""
    return StoreLocked(f"{', '.join(names)} held by {by} for over {wait_s:g} s (a forget, restore or purge,"
                       " or a background batch): retry")


class Locks:
    """``LockPort``: the backend's ``_held`` over the names asked, sorted and once each."""

    @contextmanager
    def hold(self, names: Iterable[str], *, shared: bool = False, wait_s: float = OWNER_WAIT_S) -> Iterator[None]:
        wanted = sorted(set(names))
        if not wanted:
            yield
            return
        with self._held(wanted, shared, wait_s):
            yield

    def _held(self, names: list[str], shared: bool, wait_s: float) -> AbstractContextManager[None]:
        """Hold ``names`` (sorted, at least one) for the block; ``StoreLocked`` after ``wait_s``."""
        raise NotImplementedError
