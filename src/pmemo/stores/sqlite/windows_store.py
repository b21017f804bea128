"""SQLite rows for L2 windows (runs of consecutive turns embedded as one unit): a mixin
``SQLiteStore`` inherits. A window's members are not stored: they are the turns of its owner
scope with an id in its range, read with ``turns_scope_id``."""

from __future__ import annotations

import bisect
import sqlite3
import time
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ...models import Scope, Turn, Window
from . import codec
from .codec import scope_of

_MEMBERS = f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=? AND id BETWEEN ? AND ? ORDER BY id"


def _window(row: sqlite3.Row) -> Window:
    return Window(row["id"], scope_of(row), row["turn_from"], row["turn_to"], bool(row["open"]), row["text_hash"])


class WindowRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

        def _select_in(self, sql: str, args: list[Any], values: list[Any]) -> Iterable[sqlite3.Row]: ...

    def save_window(self, scope: Scope, turn_from: int, turn_to: int, is_open: bool, text_hash: str = "",
                    window_id: int | None = None) -> Window:
        """Add a window of the owner ``scope``, or change window ``window_id``."""
        now = time.time()
        with self._tx() as conn:
            if window_id is None:
                cur = conn.execute(
                    "INSERT INTO windows(scope_key, tenant, agent, owner, turn_from, turn_to, open, text_hash,"
                    " created, updated) VALUES(?,?,?,?,?,?,?,?,?,?)",
                    (scope.key, scope.tenant_id, scope.agent_id, scope.owner, turn_from, turn_to, int(is_open),
                     text_hash, now, now))
                window_id = int(cur.lastrowid or 0)
            else:
                conn.execute("UPDATE windows SET turn_from=?, turn_to=?, open=?, text_hash=?, updated=? WHERE id=?",
                             (turn_from, turn_to, int(is_open), text_hash, now, window_id))
        return Window(window_id, scope.owner_scope(), turn_from, turn_to, is_open, text_hash)

    def windows(self, scope: Scope, session_id: str | None = None, last: int | None = None) -> list[Window]:
        """The owner's windows oldest first (``session_id``: those holding a turn of that session;
        ``last``: only the latest that many)."""
        sql, args = "SELECT * FROM windows w WHERE scope_key=?", list[Any]([scope.key])
        if session_id is not None:
            sql += (" AND EXISTS(SELECT 1 FROM turns t WHERE t.scope_key=w.scope_key AND t.session=?"
                    " AND t.id BETWEEN w.turn_from AND w.turn_to)")
            args.append(session_id)
        sql += " ORDER BY turn_to DESC, id DESC"
        if last is not None:
            sql, args = sql + " LIMIT ?", [*args, last]
        return [_window(r) for r in reversed(self._read.execute(sql, args).fetchall())]

    def get_windows(self, ids: Iterable[int]) -> dict[int, Window]:
        rows = self._select_in("SELECT * FROM windows WHERE id IN ({})", [], list(dict.fromkeys(ids)))
        return {r["id"]: _window(r) for r in rows}

    def open_windows(self, quiet_since: float | None = None) -> list[Window]:
        """Open windows (``quiet_since``: only those unchanged since then, epoch seconds)."""
        sql, args = "SELECT * FROM windows WHERE open=1", list[Any]()
        if quiet_since is not None:
            sql, args = sql + " AND updated<=?", [quiet_since]
        return [_window(r) for r in self._read.execute(sql + " ORDER BY id", args)]

    def windows_with(self, turn_ids: list[int]) -> list[Window]:
        """The windows holding any of these turns (read before they are deleted): per owner, the
        windows over the ids' span in one range read, kept when one of the ids is inside."""
        scopes: dict[str, list[int]] = {}
        for turn_id, scope_key in self._select_in("SELECT id, scope_key FROM turns WHERE id IN ({})", [],
                                                  list(turn_ids)):
            scopes.setdefault(scope_key, []).append(turn_id)
        found: dict[int, Window] = {}
        for scope_key, ids in scopes.items():
            ids.sort()
            for row in self._read.execute("SELECT * FROM windows WHERE scope_key=? AND turn_to>=? AND turn_from<=?",
                                          (scope_key, ids[0], ids[-1])):
                at = bisect.bisect_left(ids, row["turn_from"])
                if at < len(ids) and ids[at] <= row["turn_to"]:
                    found[row["id"]] = _window(row)
        return [found[i] for i in sorted(found)]

    def window_turns(self, window: Window) -> list[Turn]:
        """The window's members, oldest first."""
        rows = self._read.execute(_MEMBERS, (window.scope.key, window.turn_from, window.turn_to))
        return [codec.turn(r) for r in rows]

    def window_members(self, ids: Iterable[int]) -> dict[int, list[int]]:
        """Each window's member turn ids, oldest first (one read for all: a search expands the
        windows it found)."""
        sql = ("SELECT w.id, t.id FROM windows w JOIN turns t ON t.scope_key=w.scope_key"
               " AND t.id BETWEEN w.turn_from AND w.turn_to WHERE w.id IN ({}) ORDER BY w.id, t.id")
        out: dict[int, list[int]] = {}
        for window_id, turn_id in self._select_in(sql, [], list(dict.fromkeys(ids))):
            out.setdefault(window_id, []).append(turn_id)
        return out

    def delete_window(self, window_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM windows WHERE id=?", (window_id,))
            conn.execute("DELETE FROM vectors WHERE kind='window' AND ref=?", (window_id,))
