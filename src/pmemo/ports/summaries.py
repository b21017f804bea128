"""The summaries port: the long-term tier's summaries of a session's turns (``step_from`` to
``step_to``), each with the turns it came from and a vector of the embedder's (kind "summary").

A store gives it as ``store.summaries``. It imports only the models. One contract suite
(tests/contract/test_store_contract.py, the summaries) runs it on SQLite and Postgres. The read
plan (``ReadPlanStore.long_term``) reads a context's summaries in the same call as its diary days.

>>> store.summaries.of_scope(scope, "s1", latest=2)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..models import Scope, Summary


class SummaryPort(Protocol):
    def add_summary(self, scope: Scope, step_from: int, step_to: int, text: str, method: str,
                    source_ids: list[int]) -> Summary:
        """A summary of the session ``scope``'s steps ``step_from``..``step_to``, with its source turns."""
        ...

    def of_scope(self, scope: Scope, session_id: str | None = None, latest: int | None = None) -> list[Summary]:
        """The owner ``scope``'s summaries (of one session), oldest first; ``latest``: only the
        newest that many."""
        ...

    def get_summary(self, summary_id: int) -> Summary | None: ...

    def get_summaries(self, ids: Iterable[int]) -> dict[int, Summary]:
        """The ones found, by id."""
        ...

    def update_summary(self, summary_id: int, text: str, method: str, source_ids: list[int]) -> None:
        """New text and sources; its vector goes (the worker makes it again)."""
        ...

    def delete_summary(self, summary_id: int) -> None:
        """The summary, its sources and its vector."""
        ...

    def summaries_with(self, turn_ids: list[int]) -> list[Summary]:
        """The summaries one of ``turn_ids`` is a source of, by id."""
        ...

    def stale_summaries(self, model: str) -> list[int]:
        """The summaries without a vector of embedding ``model``."""
        ...
