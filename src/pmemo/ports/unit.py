"""The unit of work: several port calls as one transaction.

A store gives ``tx()``; every port call made inside the block, on that thread (SQLite) or in
that context (Postgres), joins its one transaction: all of it is written, or none. A block
inside another joins the outer one. A step that raises inside it rolls the whole unit back,
even when a caller inside catches the error: a unit is never committed half done.

>>> with store.tx():  # doctest: +SKIP
...     fact = store.edit_fact(fact_id, "Alibaba", None, at)
...     store.graph.end_fact_triples(fact.id, at)
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol


class UnitOfWork(Protocol):
    def tx(self) -> AbstractContextManager[None]:
        """One transaction for every store call made in the block (re-entrant)."""
        ...
