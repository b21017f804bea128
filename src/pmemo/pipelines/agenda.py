"""Agenda items from new turns: dated plans become items of the person they are about, and
a later message that reports how it went ("考完了", "the interview went well") closes them.

Runs in the background job of a batch, on the statements ``attribution`` cut out, so
"霓霓下周三考高数" is 霓霓's item even when someone else says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ..models import AgendaItem, Turn
from ..ports.agenda import AgendaPort
from ..rules.agenda_rules import Plan, outcome, plans, same_event
from ..rules.attribution import Attributed

OUTCOME_REACH = timedelta(days=30)  # an outcome closes plans dated up to this long before it


def note(planner: AgendaPort, turn: Turn, parts: Sequence[Attributed]) -> list[AgendaItem]:
    """Record the plans ``turn`` states and close the ones it reports on; returns the new items."""
    if turn.role != "user":
        return []
    scope, day = turn.scope.owner_scope(), turn.timestamp.date()
    added = []
    for part in parts:
        who = part.subject or turn.subject
        for plan in plans(part.text, turn.timestamp):
            item = planner.add_agenda(scope, who, plan.day, plan.what, plan.text, turn.id)
            if item is not None:
                added.append(item)
        word = outcome(part.text)
        if word is None:
            continue
        open_items = planner.agenda(scope.tenant_id, scope.agent_id, [scope.owner], [who] if who else None,
                                   day - OUTCOME_REACH, day + timedelta(days=1), "open")
        done = [i.id for i in open_items if i.turn_id != turn.id
                and same_event(Plan(i.day, i.what, i.text), word)]
        if done:
            planner.close_agenda(done, turn.id, part.text)
    return added
