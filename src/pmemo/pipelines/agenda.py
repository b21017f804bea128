"""Agenda items from new turns: dated plans become items of the person they are about, and
a later message that reports how it went ("考完了", "the interview went well") closes them.

Runs in the background job of a batch, on the statements ``attribution`` cut out, so
"霓霓下周三考高数" is 霓霓's item even when someone else says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Protocol

from ..models import AgendaItem, Scope, Turn
from .agenda_rules import Plan, outcome, plans, same_event
from .attribution import Attributed

OUTCOME_REACH = timedelta(days=30)  # an outcome closes plans dated up to this long before it


class AgendaStore(Protocol):
    def add_agenda(self, scope: Scope, person: str | None, day: date, what: str, text: str,
                   turn_id: int | None) -> AgendaItem | None: ...
    def agenda(self, tenant: str, agent: str, owners: list[str] | None = None, people: list[str] | None = None,
               start: date | None = None, end: date | None = None, status: str | None = None) -> list[AgendaItem]: ...
    def close_agenda(self, ids: list[int], outcome_turn: int, outcome: str) -> None: ...


def note(store: AgendaStore, turn: Turn, parts: Sequence[Attributed]) -> list[AgendaItem]:
    """Record the plans ``turn`` states and close the ones it reports on; returns the new items."""
    if turn.role != "user":
        return []
    scope, day = turn.scope.owner_scope(), turn.timestamp.date()
    added = []
    for part in parts:
        who = part.subject or turn.subject
        for plan in plans(part.text, turn.timestamp):
            item = store.add_agenda(scope, who, plan.day, plan.what, plan.text, turn.id)
            if item is not None:
                added.append(item)
        word = outcome(part.text)
        if word is None:
            continue
        open_items = store.agenda(scope.tenant_id, scope.agent_id, [scope.owner], [who] if who else None,
                                  day - OUTCOME_REACH, day + timedelta(days=1), "open")
        done = [i.id for i in open_items if i.turn_id != turn.id
                and same_event(Plan(i.day, i.what, i.text), word)]
        if done:
            store.close_agenda(done, turn.id, part.text)
    return added
