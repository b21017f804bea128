"""The key-lines port: short lines always in an owner's context, written by hand ("user") or
promoted from a hot cluster ("promoted"), each with the turns it came from.

A store gives it as ``store.key_lines``. It imports only the models. One contract suite
(tests/contract/test_store_contract.py, the key lines) runs it on SQLite and Postgres.

>>> store.key_lines.add_key(scope, "预算上限13万元", "user", [])  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Protocol

from ..models import KeyLine, Scope


class KeyLinePort(Protocol):
    def add_key(self, scope: Scope, text: str, origin: str, source_ids: list[int]) -> KeyLine:
        """A line of the owner ``scope``, with its source turns, in one transaction."""
        ...

    def keys(self, scope: Scope, sources: bool = True) -> list[KeyLine]:
        """User lines first, then by id. ``sources=False`` leaves ``source_ids`` empty: a promoted
        line comes from a whole cluster, and ranking needs only the text."""
        ...

    def get_key(self, key_id: int) -> KeyLine | None: ...

    def update_key(self, key_id: int, text: str, version: int | None = None) -> KeyLine:
        """Set a line's text (it is the user's now); with ``version``, only if it is still that one
        (else Conflict); NotFound for no such line."""
        ...

    def delete_key(self, key_id: int) -> None: ...

    def keys_with(self, turn_ids: list[int]) -> list[KeyLine]:
        """The lines one of ``turn_ids`` is a source of, by id."""
        ...
