"""The unit of work: several port calls as one transaction.

A store gives ``tx()``; every port call made inside the block, on that thread (SQLite) or in
that context (Postgres), joins its one transaction: all of it is written, or none. A block
inside another joins the outer one. A step that raises inside it rolls the whole unit back,
even when a caller inside catches the error: a unit is never committed half done.

>>> with store.tx():  # doctest: +SKIP
...     fact = store.profile.edit_fact(fact_id, "Alibaba", None, at)
...     store.graph.end_fact_triples(fact.id, at)
"""

from __future__ import annotations

import contextlib
from contextlib import AbstractContextManager
from typing import Protocol


class UnitOfWork(Protocol):
    def tx(self) -> AbstractContextManager[None]:
        """One transaction for every store call made in the block (re-entrant)."""
        ...


def unit_of(store: object) -> AbstractContextManager[None]:
    """``store.tx()`` for a store that has units of work (both of ours), else a block in which
    each call is its own transaction. For callers typed with a port that has no ``tx``: a few
    writes that belong together are one commit, not one each (on PostgreSQL a commit is a round
    trip and a WAL flush)."""
    tx = getattr(store, "tx", None)
    return tx() if callable(tx) else contextlib.nullcontext()
