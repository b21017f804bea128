"""The turns port (``ports.turns``) in SQL: its reads written once for SQLite and Postgres. What stays
a backend's is where the keyword index lives and how a write numbers its steps: SQLite's FTS5 table
beside the turns (``sqlite/turns.py``: ``add_turns``, ``delete_turns``, ``lexical``,
``turns_with_terms``), Postgres's tsvector column and its per-session advisory locks
(``postgres/turns.py``). Where the two read differently, one is kept for both: a list of ids is one
parameter, sessions tie-break by name, ``max_steps`` one index seek per session.

Turns are stored alike on both (epoch seconds, the UTC offset, metadata as JSON text), so one
codec reads them (``sqlite.codec``); a row comes as ``sqlite3.Row`` or a dict, read in column order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ..errors import Conflict
from ..models import Scope, Turn
from ..ports.turns import NewTurn, Once, TurnRef
from .sql import Dialect, Exec, Link, Row
from .sqlite import codec

TURNS = f"SELECT {codec.TURN_COLUMNS} FROM turns"
# one index seek per speaker (turns_actor), not a read of every turn: a search asks
ACTORS = ("WITH RECURSIVE a(actor) AS (SELECT MIN(actor) FROM turns WHERE scope_key=:s"
          " UNION ALL SELECT (SELECT MIN(actor) FROM turns WHERE scope_key=:s AND actor>a.actor)"
          " FROM a WHERE a.actor IS NOT NULL) SELECT actor FROM a WHERE actor IS NOT NULL")


def values(row: Any) -> tuple[Any, ...]:
    """A row's values in column order (a dict's, or a ``sqlite3.Row``'s)."""
    return tuple(row.values()) if isinstance(row, dict) else tuple(row)


def turn_of(row: Row) -> Turn:
    return codec.turn(values(row))


def ids_of(values_: Iterable[int]) -> list[int]:
    """Distinct ids in their first order, as ints (numpy ints included)."""
    return list(dict.fromkeys(int(i) for i in values_))


def refs_read(d: Dialect, wanted: list[int], seeds: list[int], radius: int) -> tuple[str, dict[str, Any]]:
    """The read of ``turn_refs``: the refs of ``wanted``, and of the turns within ``radius`` steps of
    ``seeds`` in their session, in one statement."""
    sql = f"SELECT {codec.ref_columns('turns')} FROM turns WHERE {d.in_('id', 'ids')}"
    if seeds:  # UNION ALL: a UNION would sort every row to drop repeats, which the dict drops
        sql += (f" UNION ALL SELECT {codec.ref_columns('n')} FROM turns t JOIN turns n"
                " ON n.scope_key=t.scope_key AND n.session=t.session AND n.step BETWEEN t.step-:r AND t.step+:r"
                f" WHERE {d.in_('t.id', 'seeds')} AND NOT {d.in_('n.id', 'ids')}")
    return sql, {"ids": d.ids(wanted), "seeds": d.ids(seeds), "r": radius}


def links_read(d: Dialect, ids: list[int]) -> tuple[str, dict[str, Any]]:
    """The read of ``reply_links``: rows (turn, a turn it answers or that answers it)."""
    return (f"SELECT id AS a, reply_to AS b FROM turns WHERE {d.in_('id', 'ids')} AND reply_to IS NOT NULL"
            f" UNION SELECT reply_to, id FROM turns WHERE {d.in_('reply_to', 'ids')}", {"ids": d.ids(ids)})


def steps_read(d: Dialect, scope_key: str, sessions: Iterable[str]) -> tuple[str, dict[str, Any]]:
    """The read of ``max_steps``: rows (session, its last step or NULL), one index seek a session
    (GROUP BY would read every step)."""
    return (f"SELECT e.v AS session, (SELECT MAX(step) FROM turns WHERE scope_key=:key AND session=e.v) AS step"
            f" FROM {d.each('sessions', 'text')} AS e", {"key": scope_key, "sessions": d.texts(sorted(set(sessions)))})


def refs_from(rows: Iterable[Any]) -> dict[int, TurnRef]:
    return {r[0]: TurnRef(*r) for r in map(values, rows)}


def links_from(rows: Iterable[Any]) -> dict[int, list[int]]:
    """Rows of ``links_read`` as turn id → the turns a reply ties it to."""
    out: dict[int, list[int]] = {}
    for a, b in map(values, rows):
        out.setdefault(int(a), []).append(int(b))
    return {k: sorted(set(v)) for k, v in out.items()}


def steps_from(rows: Iterable[Any]) -> dict[str, int]:
    return {session: step or 0 for session, step in map(values, rows)}


def links_of(x: Exec, d: Dialect, ids: list[int]) -> dict[int, list[int]]:
    """For each of ``ids`` that has any, the turns it answers and that answer it, by id."""
    return links_from(x.rows(*links_read(d, ids))) if ids else {}


def steps_of(x: Exec, d: Dialect, scope_key: str, sessions: Iterable[str]) -> dict[str, int]:
    """Each session's last step in the scope (0 for one without turns)."""
    return steps_from(x.rows(*steps_read(d, scope_key, sessions)))


def epoch(at: datetime | float) -> float:
    return at if isinstance(at, float | int) else codec.to_epoch(at)[0]


class SQLTurns:
    """The reads of ``TurnPort`` over a backend's ``Link`` in its ``Dialect``; the writes and the
    keyword search are each backend's."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        raise NotImplementedError  # the backend's: how it numbers steps and indexes words

    def delete_turns(self, ids: list[int]) -> int:
        raise NotImplementedError

    def lexical(self, scope: Scope, terms: list[str], limit: int,
                session_id: str | None = None, until: float | None = None) -> list[tuple[int, float]]:
        raise NotImplementedError

    def turns_with_terms(self, scope: Scope, terms: Sequence[str]) -> list[int]:
        raise NotImplementedError

    def replay(self, once: Once) -> list[Turn] | None:
        with self._link.read() as x:
            return replayed(x, self._d, once)

    def get_turns(self, ids: Iterable[int]) -> dict[int, Turn]:
        if not (wanted := ids_of(ids)):
            return {}  # no round trip for nothing
        with self._link.read() as x:
            rows = x.rows(f"{TURNS} WHERE {self._d.in_('id', 'ids')}", {"ids": self._d.ids(wanted)})
        return {r["id"]: turn_of(r) for r in rows}

    def turn_refs(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = ()) -> dict[int, TurnRef]:
        wanted, seeds = ids_of(ids), ids_of(around) if radius > 0 else []
        if not wanted and not seeds:
            return {}  # a search without quoted facets asks for none: no round trip
        with self._link.read() as x:
            return refs_from(x.rows(*refs_read(self._d, wanted, seeds, radius)))

    def turn_times(self, ids: Iterable[int]) -> dict[int, float]:
        if not (wanted := ids_of(ids)):
            return {}
        with self._link.read() as x:
            rows = x.rows(f"SELECT id, ts FROM turns WHERE {self._d.in_('id', 'ids')}", {"ids": self._d.ids(wanted)})
        return {r["id"]: float(r["ts"]) for r in rows}

    def list_turns(self, scope: Scope, *, session_id: str | None = None, limit: int = 100,
                   offset: int = 0, since: Any = None, until: Any = None, actor_id: str | None = None,
                   actor: str | None = None, text: str | None = None, first: str | None = None) -> list[Turn]:
        args: dict[str, Any] = {"key": scope.key, "session": session_id, "actor_id": actor_id, "actor": actor,
                                "limit": limit, "offset": offset, "first": first}
        sql = f"{TURNS} WHERE scope_key=:key" + "".join(f" AND {col}=:{col}" for col in ("session", "actor_id", "actor")
                                                        if args[col] is not None)
        if since is not None:
            sql, args["since"] = sql + " AND ts>=:since", epoch(since)
        if until is not None:
            sql, args["until"] = sql + " AND ts<=:until", epoch(until)
        if text is not None:
            sql, args["text"] = sql + f" AND {self._d.position(f'{self._d.lower}(content)', ':text')} > 0", text.lower()
        first_ = "" if first is None else f"{self._d.is_('actor_id', ':first', 'text')} DESC, "
        with self._link.read() as x:
            rows = x.rows(f"{sql} ORDER BY {first_}ts, session, step LIMIT :limit OFFSET :offset", args)
        return [turn_of(r) for r in rows]

    def last_turns(self, scope: Scope, session_id: str, n: int, until: float | None = None) -> list[Turn]:
        before = "" if until is None else " AND ts<=:until"
        with self._link.read() as x:
            rows = x.rows(f"{TURNS} WHERE scope_key=:key AND session=:session{before} ORDER BY step DESC LIMIT :n",
                          {"key": scope.key, "session": session_id, "until": until, "n": n})
        return [turn_of(r) for r in reversed(rows)]

    def spoken(self, scope: Scope, people: Sequence[str], until: float) -> dict[str, tuple[float, float, int]]:
        if not people:
            return {}
        with self._link.read() as x:
            rows = x.rows("SELECT actor_id, MIN(ts) AS lo, MAX(ts) AS hi, COUNT(*) AS n FROM turns WHERE tenant=:tenant"
                          f" AND agent=:agent AND owner=:owner AND {self._d.in_('actor_id', 'people', 'text')}"
                          " AND ts<=:until GROUP BY actor_id",
                          {"tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                           "people": self._d.texts(people), "until": until})
        return {r["actor_id"]: (float(r["lo"]), float(r["hi"]), int(r["n"])) for r in rows}

    def reply_links(self, ids: Iterable[int]) -> dict[int, list[int]]:
        with self._link.read() as x:
            return links_of(x, self._d, ids_of(ids))

    def chat_latest(self, scope: Scope, until: float) -> tuple[str, float] | None:
        with self._link.read() as x:
            row = x.one("SELECT session, ts FROM turns WHERE scope_key=:key AND ts<=:until"
                        " ORDER BY ts DESC, id DESC LIMIT 1", {"key": scope.key, "until": until})
        return (row["session"], float(row["ts"])) if row else None

    def turn_at(self, scope: Scope, session_id: str, step: int) -> Turn | None:
        with self._link.read() as x:
            row = x.one(f"{TURNS} WHERE scope_key=:key AND session=:session AND step=:step",
                        {"key": scope.key, "session": session_id, "step": step})
        return turn_of(row) if row else None

    def sessions(self, scope: Scope) -> list[dict[str, Any]]:
        with self._link.read() as x:
            rows = x.rows("SELECT session, COUNT(*) AS n, MIN(ts) AS first, MAX(ts) AS last, MAX(step) AS steps"
                          " FROM turns WHERE scope_key=:key GROUP BY session ORDER BY MIN(ts), session",
                          {"key": scope.key})
        return [{"session_id": r["session"], "turns": r["n"], "last_step": r["steps"],
                 "first": codec.utc(r["first"]), "last": codec.utc(r["last"])} for r in rows]

    def owners(self, tenant_id: str, agent_id: str) -> list[str]:
        with self._link.read() as x:
            rows = x.rows("SELECT DISTINCT owner FROM turns WHERE tenant=:t AND agent=:a"
                          " UNION SELECT DISTINCT owner FROM key_lines WHERE tenant=:t AND agent=:a ORDER BY 1",
                          {"t": tenant_id, "a": agent_id})
        return [r["owner"] for r in rows]

    def max_steps(self, scope: Scope, sessions: Iterable[str]) -> dict[str, int]:
        with self._link.read() as x:
            return steps_of(x, self._d, scope.key, sessions)

    def actors(self, scope: Scope) -> list[str]:
        with self._link.read() as x:
            return [r["actor"] for r in x.rows(ACTORS, {"s": scope.key})]

    def turn_ids(self, scope: Scope, session_id: str | None = None) -> list[int]:
        session = "" if session_id is None else " AND session=:session"
        with self._link.read() as x:
            return [r["id"] for r in x.rows(f"SELECT id FROM turns WHERE scope_key=:key{session}",
                                            {"key": scope.key, "session": session_id})]


def replayed(x: Exec, d: Dialect, once: Once) -> list[Turn] | None:
    """The turns an earlier write with this idempotency key stored (those not forgotten since), or
    None for a new key; the same key for other turns is a Conflict."""
    row = x.one("SELECT fingerprint, turns FROM idempotency WHERE tenant=:tenant AND key=:key",
                {"tenant": once.tenant, "key": once.key})
    if row is None:
        return None
    if row["fingerprint"] != once.fingerprint:
        raise Conflict(f"idempotency key {once.key!r} was used for other turns; use a new key for a new write")
    ids = json.loads(row["turns"]) if isinstance(row["turns"], str) else list(row["turns"])
    found = {r["id"]: turn_of(r) for r in x.rows(f"{TURNS} WHERE {d.in_('id', 'ids')}", {"ids": d.ids(ids)})}
    return [found[i] for i in ids if i in found]
