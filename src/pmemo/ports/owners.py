"""The owners port: whose rows there are, and the clock each owner's conversation runs on.

Decay, expiry and the sweeper run on an owner's conversation time (its newest turn), not the
wall clock: a chat left for a month has not aged a month. A store gives it as ``store.owners``;
it imports only the models. tests/contract/test_profile_contract.py runs it on SQLite and Postgres.

>>> store.owners.conversation_now(owner)  # doctest: +SKIP
1767225600.0
"""

from __future__ import annotations

from typing import Protocol

from ..models import Scope


class OwnerPort(Protocol):
    def conversation_now(self, scope: Scope) -> float | None:
        """The newest turn's time in ``scope``'s owner scope (any session), epoch seconds; None
        before its first turn."""
        ...

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        """Every owner with turns, episodes or facts (of ``tenant``, if given), sorted."""
        ...
