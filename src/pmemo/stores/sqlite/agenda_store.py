"""SQLite rows for agenda items (dated plans of people): a mixin ``SQLiteStore`` inherits."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from contextlib import AbstractContextManager
from datetime import date
from typing import TYPE_CHECKING, Any

from ...models import AgendaItem, Scope
from .codec import scope_of


def _item(row: sqlite3.Row) -> AgendaItem:
    return AgendaItem(row["id"], scope_of(row), row["person"], date.fromisoformat(row["day"]), row["what"],
                      row["text"], row["turn_id"], row["status"], row["outcome"])


class AgendaRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def add_agenda(self, scope: Scope, person: str | None, day: date, what: str, text: str,
                   turn_id: int | None) -> AgendaItem | None:
        """Record a plan; the same plan from the same turn again (a re-run job) changes nothing."""
        now = time.time()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO agenda(scope_key, tenant, agent, owner, person, day, what, text, turn_id,"
                " created, updated) VALUES(?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, person, day.isoformat(), what,
                 text, turn_id, now, now))
        row = self._read.execute("SELECT * FROM agenda WHERE turn_id IS ? AND what=? AND day=? AND scope_key=?",
                                 (turn_id, what, day.isoformat(), scope.key)).fetchone()
        return _item(row) if row else None

    def agenda(self, tenant: str, agent: str, owners: list[str] | None = None,
               people: list[str] | None = None, start: date | None = None, end: date | None = None,
               status: str | None = None) -> list[AgendaItem]:
        """Agenda items by day: of ``people``, in ``owners``, between ``start`` and ``end``."""
        return self._agenda(tenant, agent, owners, people, start, end, status)

    def _agenda(self, tenant: str, agent: str, owners: list[str] | None = None,
                people: list[str] | None = None, start: date | None = None, end: date | None = None,
                status: str | None = None) -> list[AgendaItem]:
        sql, args = "SELECT * FROM agenda WHERE tenant=? AND agent=? AND deleted IS NULL", [tenant, agent]
        filters: list[tuple[str, Any]] = [("day>=?", start and start.isoformat()),
                                          ("day<=?", end and end.isoformat()), ("status=?", status)]
        for clause, value in filters:
            if value is not None:
                sql, args = f"{sql} AND {clause}", [*args, value]
        for column, values in (("owner", owners), ("person", people)):
            if values is not None:
                sql += f" AND {column} IN ({','.join('?' * len(values))})"
                args.extend(values)
        return [_item(r) for r in self._read.execute(sql + " ORDER BY day, id", args)]

    def close_agenda(self, ids: Iterable[int], outcome_turn: int, outcome: str) -> None:
        with self._tx() as conn:
            conn.executemany("UPDATE agenda SET status='done', outcome_turn=?, outcome=?, updated=? WHERE id=?",
                             [(outcome_turn, outcome, time.time(), i) for i in ids])

    def agenda_with(self, turn_ids: list[int]) -> list[int]:
        """Items a turn said or reported the outcome of."""
        if not turn_ids:
            return []
        marks = ",".join("?" * len(turn_ids))
        return [r[0] for r in self._read.execute(
            f"SELECT id FROM agenda WHERE turn_id IN ({marks}) OR outcome_turn IN ({marks}) ORDER BY id",
            [*turn_ids, *turn_ids])]

    def agenda_forget(self, turn_ids: list[int]) -> list[int]:
        """A forgotten turn takes its plans along, and reopens the plans it reported on."""
        if not turn_ids:
            return []
        marks = ",".join("?" * len(turn_ids))
        with self._tx() as conn:
            gone = [r[0] for r in conn.execute(f"SELECT id FROM agenda WHERE turn_id IN ({marks})", turn_ids)]
            conn.execute(f"DELETE FROM agenda WHERE turn_id IN ({marks})", turn_ids)
            conn.execute(f"UPDATE agenda SET status='open', outcome_turn=NULL, outcome=NULL"
                         f" WHERE outcome_turn IN ({marks})", turn_ids)
        return gone
