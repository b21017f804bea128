"""The records port: long-term records (the full envelope: type, visibility, access lists, tags,
relations …) with access control in the query, and their heat and decay for the sweeper.

Every read of a viewer takes their user id and roles, and the query itself keeps out what they may
not see: their own records, public ones, and shared ones that list them or one of their roles;
``tiers.records.can_read`` checks each row again before it leaves. A store gives it as
``store.records``. It imports only the models. tests/contract/test_profile_contract.py runs it on
SQLite and Postgres.

>>> store.records.list_records("default", "default", "alice", ("ops",))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Protocol

from ..models import Record


class RecordPort(Protocol):
    def add_record(self, tenant: str, agent: str, user_id: str, fields: dict[str, Any]) -> Record:
        """A record of ``user_id`` at version 1 with ``fields`` (the envelope's names; others are ignored)."""
        ...

    def get_record(self, record_id: int, tenant: str, viewer: str, roles: tuple[str, ...] = ()) -> Record | None:
        """The live record if it is ``tenant``'s and ``viewer`` (with ``roles``) may see it, else None."""
        ...

    def list_records(self, tenant: str, agent: str, viewer: str, roles: tuple[str, ...] = (),
                     type_: str | None = None, limit: int = 100) -> list[Record]:
        """The live records of ``tenant`` and ``agent`` that ``viewer`` may see (of ``type_``), by id."""
        ...

    def all_records(self, tenant: str | None = None) -> list[Record]:
        """Every live record (of ``tenant``), by id: the sweeper's view, no access control."""
        ...

    def update_record(self, record_id: int, version: int, changes: dict[str, Any]) -> Record:
        """Write ``changes`` if the stored version is still ``version`` (else ``pmemo.errors.Conflict``);
        the version goes up by one."""
        ...

    def touch_records(self, ids: list[int], now: float) -> None:
        """One read each at ``now`` (an id given twice was read twice)."""
        ...

    def record_heat(self, record_id: int) -> int:
        """How many times the record was read (0 for one that does not exist)."""
        ...

    def set_decay(self, scores: list[tuple[int, float]]) -> None:
        """Each (record id, decay score): the score the sweeper gave it."""
        ...

    def delete_record(self, record_id: int) -> None:
        """The record and its vector go for good."""
        ...
