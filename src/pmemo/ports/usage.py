"""The usage port: what each tenant holds, for its quotas (``pmemo.quota``).

Both stores keep a tenant's row (``tenant_usage``) with triggers on ``turns``, so every path
that writes or deletes a turn keeps it right in its own transaction, and a quota check reads
one row. A store gives it as ``store.quotas``. It imports only the standard library.
tests/contract/test_usage_contract.py runs it on SQLite and Postgres.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol


class Usage(NamedTuple):
    """What a tenant holds, for its quotas (pmemo.quota): turns, UTF-8 bytes of their content
    and metadata, owner scopes (a user or group under one agent) that hold turns."""

    turns: int
    bytes: int
    scopes: int


class UsagePort(Protocol):
    def usage(self, tenant: str) -> Usage:
        """The tenant's usage; all zero for a tenant with no turns."""
        ...

    def known_scopes(self, scope_keys: Iterable[str]) -> set[str]:
        """Those of ``scope_keys`` that hold turns."""
        ...
