"""The agenda port (``ports.agenda.AgendaPort``) in SQL, written once for SQLite and Postgres: no
backend module of its own. Where the two differed, the set-based statement is kept for both:
``agenda_forget`` deletes with ``RETURNING`` (SQLite read the ids first), ``close_agenda`` is one
update of the list (SQLite ran one a row)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import date
from typing import Any

from ..models import AgendaItem, Scope
from .sql import Dialect, Link, Row


def agenda_item_of(row: Row) -> AgendaItem:
    return AgendaItem(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), row["person"],
                      date.fromisoformat(row["day"]), row["what"], row["text"], row["turn_id"], row["status"],
                      row["outcome"])


def agenda_read(d: Dialect, tenant: str, agent: str, owners: list[str] | None = None,
                people: list[str] | None = None, start: date | None = None, end: date | None = None,
                status: str | None = None) -> tuple[str, dict[str, Any]]:
    """``agenda``'s query and its arguments (the read plan sends it with others)."""
    args: dict[str, Any] = {"tenant": tenant, "agent": agent, "start": start and start.isoformat(),
                            "end": end and end.isoformat(), "status": status,
                            "owners": None if owners is None else d.texts(owners),
                            "people": None if people is None else d.texts(people)}
    clauses = [c for c, name in (("day>=:start", "start"), ("day<=:end", "end"), ("status=:status", "status"),
                                 (d.in_("owner", "owners", "text"), "owners"),
                                 (d.in_("person", "people", "text"), "people")) if args[name] is not None]
    sql = " AND ".join(["SELECT * FROM agenda WHERE tenant=:tenant AND agent=:agent AND deleted IS NULL", *clauses])
    return sql + " ORDER BY day, id", args


class SQLAgenda:
    """``AgendaPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def add_agenda(self, scope: Scope, person: str | None, day: date, what: str, text: str,
                   turn_id: int | None) -> AgendaItem | None:
        now = time.time()
        args = {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                "person": person, "day": day.isoformat(), "what": what, "text": text, "turn": turn_id, "now": now}
        with self._link.write() as x:
            x.run("INSERT INTO agenda(scope_key, tenant, agent, owner, person, day, what, text, turn_id, created,"
                  " updated) VALUES(:key, :tenant, :agent, :owner, :person, :day, :what, :text, :turn, :now, :now)"
                  " ON CONFLICT DO NOTHING", args)
            # the one this turn said in this scope, new or there already
            row = x.one(f"SELECT * FROM agenda WHERE {self._d.is_('turn_id', ':turn', 'bigint')} AND what=:what"
                        " AND day=:day AND scope_key=:key", args)
        return agenda_item_of(row) if row else None

    def agenda(self, tenant: str, agent: str, owners: list[str] | None = None, people: list[str] | None = None,
               start: date | None = None, end: date | None = None, status: str | None = None) -> list[AgendaItem]:
        sql, args = agenda_read(self._d, tenant, agent, owners, people, start, end, status)
        with self._link.read() as x:
            return [agenda_item_of(r) for r in x.rows(sql, args)]

    def close_agenda(self, ids: Iterable[int], outcome_turn: int, outcome: str) -> None:
        with self._link.write() as x:
            x.run(f"UPDATE agenda SET status='done', outcome_turn=:turn, outcome=:outcome, updated=:now"
                  f" WHERE {self._d.in_('id', 'ids')}", {"turn": outcome_turn, "outcome": outcome, "now": time.time(),
                                                          "ids": self._d.ids(ids)})

    def agenda_with(self, turn_ids: list[int]) -> list[int]:
        if not turn_ids:
            return []
        d = self._d
        with self._link.read() as x:
            rows = x.rows(f"SELECT id FROM agenda WHERE {d.in_('turn_id', 'turns')} OR {d.in_('outcome_turn', 'turns')}"
                          " ORDER BY id", {"turns": d.ids(turn_ids)})
        return [int(r["id"]) for r in rows]

    def agenda_forget(self, turn_ids: list[int]) -> list[int]:
        if not turn_ids:
            return []
        d, args = self._d, {"turns": self._d.ids(turn_ids)}
        with self._link.write() as x:
            gone = [int(r["id"]) for r in x.rows(f"DELETE FROM agenda WHERE {d.in_('turn_id', 'turns')} RETURNING id",
                                                 args)]
            x.run(f"UPDATE agenda SET status='open', outcome_turn=NULL, outcome=NULL"
                  f" WHERE {d.in_('outcome_turn', 'turns')}", args)
        return sorted(gone)
