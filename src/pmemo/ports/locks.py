"""The lock port: named locks every process on the store shares.

They keep a forget, restore or purge of an owner from interleaving with another one, or with a
background rebuild of that owner's derived rows (each is many transactions, so the database's
own locks cannot). A store gives it as ``store.locks``: on SQLite, readers-writer locks in the
one process the data directory admits; on PostgreSQL, advisory locks. It imports only the
standard library. tests/contract/test_locks_contract.py runs it on SQLite and Postgres.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Protocol

OWNER_WAIT_S = 60.0  # the longest ``hold`` waits for a name another process holds, then StoreLocked


class LockPort(Protocol):
    def hold(self, names: Iterable[str], *, shared: bool = False,
             wait_s: float = OWNER_WAIT_S) -> AbstractContextManager[None]:
        """Hold the locks ``names`` (owner scope keys, ``Scope.key``; or another name, such as a
        forget batch's) for the ``with`` block, in every process on this store: ``shared`` ones
        (the background reading an owner's turns) admit each other, an exclusive one (a forget)
        admits no other. All of them or none, taken in one order, so two holds of overlapping
        names never wait for each other crosswise. Waits up to ``wait_s`` seconds (0: not at
        all), then ``StoreLocked``. Not re-entrant: a block that holds a name never asks for it
        again.

        >>> with store.locks.hold(["acme|bot|u:ann"]):  # doctest: +SKIP
        ...     forget_turns(store, ids)
        """
        ...
