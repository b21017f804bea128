"""The agenda port: dated plans of people, with the turn that said them and the one that
reported the outcome.

A store gives it as ``store.plans`` (``store.agenda`` was the store's old listing method). It
imports only the models. tests/contract/test_agenda_contract.py runs it on SQLite and Postgres.

>>> store.plans.agenda("acme", "bot", owners=["g:team"], status="open")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Protocol

from ..models import AgendaItem, Scope


class AgendaPort(Protocol):
    def add_agenda(self, scope: Scope, person: str | None, day: date, what: str, text: str,
                   turn_id: int | None) -> AgendaItem | None:
        """Record a plan; the same plan from the same turn again (a re-run job) changes nothing
        and gives the item there is."""
        ...

    def agenda(self, tenant: str, agent: str, owners: list[str] | None = None, people: list[str] | None = None,
               start: date | None = None, end: date | None = None, status: str | None = None) -> list[AgendaItem]:
        """Items by day, then id: of ``people``, in ``owners``, from ``start`` to ``end``
        (inclusive), of ``status`` (open, done); None: any."""
        ...

    def close_agenda(self, ids: Iterable[int], outcome_turn: int, outcome: str) -> None: ...

    def agenda_with(self, turn_ids: list[int]) -> list[int]:
        """Items a turn said or reported the outcome of, by id."""
        ...

    def agenda_forget(self, turn_ids: list[int]) -> list[int]:
        """A forgotten turn takes its plans along (their ids, sorted), and reopens the plans it
        reported on."""
        ...
