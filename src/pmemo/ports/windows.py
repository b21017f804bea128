"""The windows port: L2 windows, runs of consecutive turns of one user or group embedded as one
unit. A window's members are not stored: they are the owner's turns with an id in its range, so
a deleted turn leaves it at once; its vector is kind 'window'.

A store gives it as ``store.l2`` (``store.windows`` is the store's old method listing them: it
keeps working, with the port's other old names, each the port's call). It imports only the
models. One contract suite (tests/contract/test_windows_contract.py) runs it on SQLite
and Postgres.

>>> store.l2.windows(scope, last=3)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..models import Scope, Turn, Window


class WindowPort(Protocol):
    def save_window(self, scope: Scope, turn_from: int, turn_to: int, is_open: bool, text_hash: str = "",
                    window_id: int | None = None) -> Window:
        """Add a window of the owner ``scope``, or change window ``window_id``."""
        ...

    def windows(self, scope: Scope, session_id: str | None = None, last: int | None = None) -> list[Window]:
        """Oldest first; ``session_id``: those holding a turn of it; ``last``: the latest that many."""
        ...

    def get_windows(self, ids: Iterable[int]) -> dict[int, Window]:
        """The windows with these ids that exist."""
        ...

    def open_windows(self, quiet_since: float | None = None) -> list[Window]:
        """Open windows (``quiet_since``: only those unchanged since then, epoch seconds)."""
        ...

    def windows_with(self, turn_ids: list[int]) -> list[Window]:
        """The windows holding any of these turns (read before they are deleted), by id."""
        ...

    def window_turns(self, window: Window) -> list[Turn]:
        """The window's members, oldest first."""
        ...

    def window_members(self, ids: Iterable[int]) -> dict[int, list[int]]:
        """Each window's member turn ids, oldest first (one read for all)."""
        ...

    def delete_window(self, window_id: int) -> None:
        """The window and its vector."""
        ...
