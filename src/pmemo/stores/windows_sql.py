"""The windows port (``ports.windows.WindowPort``) in SQL, written once for SQLite and Postgres.

A window's members are the turns of its owner scope with an id in its range (``turns_scope_id``
serves the range reads). Where the two stores used to differ, the set-based query is kept for
both: ``windows_with`` is one join of the turns to their owner's windows (SQLite read each
owner's windows over the ids' span and tested them in Python).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from ..models import Scope, Turn, Window
from ..ports.windows import WindowPort
from .sql import Dialect, Link, Row
from .sqlite.codec import TURN_COLUMNS, TURN_FIELDS, turn


def window_of(row: Row) -> Window:
    return Window(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), row["turn_from"], row["turn_to"],
                  bool(row["open"]), row["text_hash"])


class SQLWindows:
    """``WindowPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def save_window(self, scope: Scope, turn_from: int, turn_to: int, is_open: bool, text_hash: str = "",
                    window_id: int | None = None) -> Window:
        args = {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                "from": turn_from, "to": turn_to, "open": bool(is_open), "hash": text_hash, "now": time.time(),
                "id": window_id}
        with self._link.write() as x:
            if window_id is None:
                row = x.one("INSERT INTO windows(scope_key, tenant, agent, owner, turn_from, turn_to, open, text_hash,"
                            " created, updated) VALUES(:key, :tenant, :agent, :owner, :from, :to, :open, :hash,"
                            " :now, :now) RETURNING id", args)
                assert row is not None
                window_id = int(row["id"])
            else:
                x.run("UPDATE windows SET turn_from=:from, turn_to=:to, open=:open, text_hash=:hash, updated=:now"
                      " WHERE id=:id", args)
        return Window(window_id, scope.owner_scope(), turn_from, turn_to, is_open, text_hash)

    def windows(self, scope: Scope, session_id: str | None = None, last: int | None = None) -> list[Window]:
        sql = "SELECT * FROM windows w WHERE scope_key=:key"
        if session_id is not None:
            sql += (" AND EXISTS(SELECT 1 FROM turns t WHERE t.scope_key=w.scope_key AND t.session=:session"
                    " AND t.id BETWEEN w.turn_from AND w.turn_to)")
        sql += " ORDER BY turn_to DESC, id DESC" + ("" if last is None else " LIMIT :last")
        with self._link.read() as x:
            rows = x.rows(sql, {"key": scope.key, "session": session_id, "last": last})
        return [window_of(r) for r in reversed(rows)]

    def get_windows(self, ids: Iterable[int]) -> dict[int, Window]:
        with self._link.read() as x:
            rows = x.rows(f"SELECT * FROM windows WHERE {self._d.in_('id', 'ids')}", {"ids": self._d.ids(set(ids))})
        return {r["id"]: window_of(r) for r in rows}

    def open_windows(self, quiet_since: float | None = None) -> list[Window]:
        quiet = "" if quiet_since is None else " AND updated<=:quiet"
        with self._link.read() as x:
            rows = x.rows(f"SELECT * FROM windows WHERE open = {self._d.true}{quiet} ORDER BY id",
                          {"quiet": quiet_since})
        return [window_of(r) for r in rows]

    def windows_with(self, turn_ids: list[int]) -> list[Window]:
        with self._link.read() as x:
            rows = x.rows("SELECT DISTINCT w.* FROM turns t JOIN windows w ON w.scope_key=t.scope_key"
                          f" AND w.turn_to>=t.id AND w.turn_from<=t.id WHERE {self._d.in_('t.id', 'ids')}"
                          " ORDER BY w.id", {"ids": self._d.ids(turn_ids)})
        return [window_of(r) for r in rows]

    def window_turns(self, window: Window) -> list[Turn]:
        with self._link.read() as x:
            rows = x.rows(f"SELECT {TURN_COLUMNS} FROM turns WHERE scope_key=:key AND id BETWEEN :from AND :to"
                          " ORDER BY id", {"key": window.scope.key, "from": window.turn_from, "to": window.turn_to})
        return [turn(tuple(r[c] for c in TURN_FIELDS)) for r in rows]

    def window_members(self, ids: Iterable[int]) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        with self._link.read() as x:
            for r in x.rows("SELECT w.id AS window, t.id AS turn FROM windows w JOIN turns t ON"
                            " t.scope_key=w.scope_key AND t.id BETWEEN w.turn_from AND w.turn_to"
                            f" WHERE {self._d.in_('w.id', 'ids')} ORDER BY w.id, t.id",
                            {"ids": self._d.ids(set(ids))}):
                out.setdefault(r["window"], []).append(r["turn"])
        return out

    def delete_window(self, window_id: int) -> None:
        with self._link.write() as x:
            x.run("DELETE FROM windows WHERE id=:id", {"id": window_id})
            x.run("DELETE FROM vectors WHERE kind='window' AND ref=:id", {"id": window_id})


class WindowNames:
    """The store's old window methods (``store.save_window`` …), each the port's call."""

    l2: WindowPort

    def save_window(self, scope: Scope, turn_from: int, turn_to: int, is_open: bool, text_hash: str = "",
                    window_id: int | None = None) -> Window:
        return self.l2.save_window(scope, turn_from, turn_to, is_open, text_hash, window_id)

    def windows(self, scope: Scope, session_id: str | None = None, last: int | None = None) -> list[Window]:
        return self.l2.windows(scope, session_id, last)

    def get_windows(self, ids: Iterable[int]) -> dict[int, Window]:
        return self.l2.get_windows(ids)

    def open_windows(self, quiet_since: float | None = None) -> list[Window]:
        return self.l2.open_windows(quiet_since)

    def windows_with(self, turn_ids: list[int]) -> list[Window]:
        return self.l2.windows_with(turn_ids)

    def window_turns(self, window: Window) -> list[Turn]:
        return self.l2.window_turns(window)

    def window_members(self, ids: Iterable[int]) -> dict[int, list[int]]:
        return self.l2.window_members(ids)

    def delete_window(self, window_id: int) -> None:
        self.l2.delete_window(window_id)
