"""The bookkeeping of an open unit of work (``ports.unit``), the same on every backend: which
thread holds it, and whether a step inside it failed (the unit is then rolled back whole, even
when a caller inside caught the error)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import StoreError


@dataclass
class Unit:
    reads: bool = False  # the store's reads on its thread go through it (a ``tx()`` block)
    thread: int = field(default_factory=threading.get_ident)
    failed: BaseException | None = None

    @property
    def mine(self) -> bool:
        return self.thread == threading.get_ident()

    @contextmanager
    def step(self) -> Iterator[None]:
        """A store call inside the unit: joins it; raising marks the unit failed."""
        try:
            yield
        except BaseException as exc:
            self.failed = self.failed or exc
            raise

    def check(self) -> None:
        """At the end of the unit's block: a step failed inside it, so none of it is kept."""
        if self.failed is not None:
            raise StoreError(f"the transaction was rolled back: a step in it failed ({self.failed!r})") \
                from self.failed
