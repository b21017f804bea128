"""Agenda items on PostgreSQL: dated plans of people, with the turn that said them and the one
that reported the outcome (AgendaStore, a mixin over ``Database``)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING, Any

from ...models import AgendaItem, Scope
from .codec import scope_of
from .database import Database


def _item(row: dict[str, Any]) -> AgendaItem:
    return AgendaItem(row["id"], scope_of(row), row["person"], date.fromisoformat(row["day"]), row["what"],
                      row["text"], row["turn_id"], row["status"], row["outcome"])


class AgendaRows:
    if TYPE_CHECKING:
        _db: Database

    def add_agenda(self, scope: Scope, person: str | None, day: date, what: str, text: str,
                   turn_id: int | None) -> AgendaItem | None:
        """Record a plan; the same plan from the same turn again (a re-run job) changes nothing."""
        now = time.time()
        with self._db.tx() as cur:
            cur.execute(
                "INSERT INTO agenda(scope_key, tenant, agent, owner, person, day, what, text, turn_id, created,"
                " updated) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING RETURNING id",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, person, day.isoformat(), what, text,
                 turn_id, now, now))
            new = cur.fetchone()
        if new is not None:
            rows = self._db.dicts("SELECT * FROM agenda WHERE id=%s", (new[0],))
        else:  # the plan was there: the one this turn said in this scope
            rows = self._db.dicts("SELECT * FROM agenda WHERE turn_id=%s AND what=%s AND day=%s AND scope_key=%s",
                                  (turn_id, what, day.isoformat(), scope.key))
        return _item(rows[0]) if rows else None

    def agenda(self, tenant: str, agent: str, owners: list[str] | None = None,
               people: list[str] | None = None, start: date | None = None, end: date | None = None,
               status: str | None = None) -> list[AgendaItem]:
        """Agenda items by day: of ``people``, in ``owners``, between ``start`` and ``end``."""
        sql, args = "SELECT * FROM agenda WHERE tenant=%s AND agent=%s AND deleted IS NULL", [tenant, agent]
        filters: list[tuple[str, Any]] = [("day>=%s", start and start.isoformat()),
                                          ("day<=%s", end and end.isoformat()), ("status=%s", status),
                                          ("owner = ANY(%s::text[])", owners), ("person = ANY(%s::text[])", people)]
        for clause, value in filters:
            if value is not None:
                sql, args = f"{sql} AND {clause}", [*args, value]
        return [_item(r) for r in self._db.dicts(sql + " ORDER BY day, id", args)]

    def close_agenda(self, ids: Iterable[int], outcome_turn: int, outcome: str) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE agenda SET status='done', outcome_turn=%s, outcome=%s, updated=%s"
                        " WHERE id = ANY(%s::bigint[])", (outcome_turn, outcome, time.time(), [int(i) for i in ids]))

    def agenda_with(self, turn_ids: list[int]) -> list[int]:
        """Items a turn said or reported the outcome of."""
        ids = [int(t) for t in turn_ids]
        return [r[0] for r in self._db.rows(
            "SELECT id FROM agenda WHERE turn_id = ANY(%(t)s::bigint[]) OR outcome_turn = ANY(%(t)s::bigint[])"
            " ORDER BY id", {"t": ids})] if ids else []

    def agenda_forget(self, turn_ids: list[int]) -> list[int]:
        """A forgotten turn takes its plans along, and reopens the plans it reported on."""
        ids = [int(t) for t in turn_ids]
        if not ids:
            return []
        with self._db.tx() as cur:
            gone = [r[0] for r in cur.execute("DELETE FROM agenda WHERE turn_id = ANY(%s::bigint[]) RETURNING id",
                                              (ids,))]
            cur.execute("UPDATE agenda SET status='open', outcome_turn=NULL, outcome=NULL"
                        " WHERE outcome_turn = ANY(%s::bigint[])", (ids,))
        return sorted(gone)
