"""The forget batches port: every forget or sweep is a batch (restorable while ``active``) with a
log line per thing it did, which a restore, a purge and the forget log read back.

A store gives it as ``store.batches``. What a batch holds (its tombstones: ``snapshot``,
``restore_snapshot``, ``purge_batch``) and the soft deletes are ``ports.forget``. It imports only the
models. tests/contract/test_forget_contract.py runs it on SQLite and Postgres.

>>> store.batches.forget_log(batch, tenant="acme")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

# a log line: (action, kind, ref, scope_key, reason, detail)
LogLine = tuple[str, str, int, str | None, str, dict[str, Any]]


class BatchPort(Protocol):
    def new_batch(self, action: str, mode: str, scope_key: str | None, reason: str,
                  tenant: str | None = None) -> int:
        """A forget or sweep batch; ``tenant``: whose it is (None: no one tenant's)."""
        ...

    def get_batch(self, batch: int) -> dict[str, Any]:
        """The batch's row, its ``report`` decoded (``NotFound`` for no such batch)."""
        ...

    def set_batch(self, batch: int, status: str, report: dict[str, Any] | None = None) -> None:
        """Its status, and its report when given."""
        ...

    def log_actions(self, batch: int | None, rows: Iterable[LogLine]) -> None:
        """(action, kind, ref, scope_key, reason, detail) per line."""
        ...

    def forget_log(self, batch: int | None = None, limit: int = 100,
                   tenant: str | None = None) -> list[dict[str, Any]]:
        """Log lines newest first, each with its batch's ``batch_mode`` (soft, hard) and
        ``batch_status`` (active: restorable; restored; purged); with ``tenant``, that tenant's
        batches only."""
        ...

    def batch_refs(self, batch: int, action: str) -> list[tuple[str, int]]:
        """(kind, ref) of the batch's log lines of ``action``."""
        ...

    def batch_owners(self, batch: int) -> list[str]:
        """The owner scope keys a forget or sweep batch touched (its log's and its own), sorted:
        what a restore or purge of it holds (``locks.hold``)."""
        ...

    def batches_with_turns(self, turn_ids: list[int], tenant: str | None = None) -> dict[int, int]:
        """Forgotten turn → the active batch (of ``tenant``, if given) that can restore it (the
        newest, for a turn snapshotted twice)."""
        ...

    def active_batches(self, older_than: float | None = None) -> list[int]:
        """The restorable batches (made before ``older_than``, epoch seconds), by id."""
        ...
