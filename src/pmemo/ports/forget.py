"""The forget port: what a forget holds while it can be undone, and the soft deletes of fading.

A soft forget snapshots every row it is about to delete or rebuild into its batch's tombstones
(``snapshot``: the row, its provenance, its vector, a cluster's members, an entity's names), then
runs the ordinary delete; ``restore_snapshot`` puts them back under their own ids, ``purge_batch``
drops them and what the batch soft-deleted. The sweeper fades rows by a column
(``soft_delete``, ``undelete``); ``secure_delete`` and ``scrub`` clear a hard delete's text away.
The batches and their log are ``ports.batches``. A store gives it as ``store.forget``; it imports
only the standard library. tests/contract/test_forget_contract.py runs it on SQLite and Postgres.

>>> store.forget.snapshot(batch, "turn", [turn.id])  # doctest: +SKIP
1
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

# a restored row: (kind, ref, scope key, its vector as numpy gives it or None); the port names no numpy type
Restored = tuple[str, int, str, Any]


class ForgetPort(Protocol):
    def snapshot(self, batch: int, kind: str, refs: Iterable[int]) -> int:
        """Copy the rows of ``kind`` with ``refs`` (with provenance and vector) into the batch's
        tombstones; returns how many (a missing row is left out)."""
        ...

    def restore_snapshot(self, batch: int) -> list[Restored]:
        """Put a batch's rows back (vectors too, so the store's search has them again), in one
        transaction; (kind, ref, scope key, vector) of each row. ``Conflict`` for a turn whose step
        a new turn took."""
        ...

    def purge_batch(self, batch: int) -> int:
        """Drop a batch's tombstones and the rows it soft-deleted: the forget becomes permanent;
        how many rows went."""
        ...

    def soft_delete(self, kind: str, ids: list[int], reason: str) -> None:
        """Mark rows of ``kind`` (fact, episode, record, task) deleted, with ``reason``."""
        ...

    def undelete(self, kind: str, ids: list[int]) -> None:
        """Bring soft-deleted rows of ``kind`` back."""
        ...

    def secure_delete(self) -> None:
        """From now on a hard delete leaves no text in freed space, where the backend can."""
        ...

    def scrub(self) -> None:
        """Clear what a hard delete left in indexes and logs (an FTS merge, a VACUUM)."""
        ...
