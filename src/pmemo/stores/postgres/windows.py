"""L2 windows on PostgreSQL: runs of consecutive turns of one user or group embedded as one
unit (WindowStore, a mixin). A window's members are not stored: they are the turns of its owner
scope with an id in its range, read with ``turns_scope_id``, so a deleted turn leaves it at once."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...models import Scope, Turn, Window
from . import codec
from .database import Database

_MEMBERS = f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=%s AND id BETWEEN %s AND %s ORDER BY id"


def _window(row: dict[str, Any]) -> Window:
    return Window(row["id"], codec.scope_of(row), row["turn_from"], row["turn_to"], row["open"], row["text_hash"])


class WindowRows:
    if TYPE_CHECKING:
        _db: Database

    def save_window(self, scope: Scope, turn_from: int, turn_to: int, is_open: bool, text_hash: str = "",
                    window_id: int | None = None) -> Window:
        """Add a window of the owner ``scope``, or change window ``window_id``."""
        now = time.time()
        with self._db.tx() as cur:
            if window_id is None:
                row = cur.execute(
                    "INSERT INTO windows(scope_key, tenant, agent, owner, turn_from, turn_to, open, text_hash,"
                    " created, updated) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                    (scope.key, scope.tenant_id, scope.agent_id, scope.owner, turn_from, turn_to, is_open,
                     text_hash, now, now)).fetchone()
                assert row is not None
                window_id = int(row[0])
            else:
                cur.execute("UPDATE windows SET turn_from=%s, turn_to=%s, open=%s, text_hash=%s, updated=%s"
                            " WHERE id=%s", (turn_from, turn_to, is_open, text_hash, now, window_id))
        return Window(window_id, scope.owner_scope(), turn_from, turn_to, is_open, text_hash)

    def windows(self, scope: Scope, session_id: str | None = None, last: int | None = None) -> list[Window]:
        """The owner's windows oldest first (``session_id``: those holding a turn of that session;
        ``last``: only the latest that many)."""
        sql, args = "SELECT * FROM windows w WHERE scope_key=%s", list[Any]([scope.key])
        if session_id is not None:
            sql += (" AND EXISTS(SELECT 1 FROM turns t WHERE t.scope_key=w.scope_key AND t.session=%s"
                    " AND t.id BETWEEN w.turn_from AND w.turn_to)")
            args.append(session_id)
        sql += " ORDER BY turn_to DESC, id DESC"
        if last is not None:
            sql, args = sql + " LIMIT %s", [*args, last]
        return [_window(r) for r in reversed(self._db.dicts(sql, args))]

    def get_windows(self, ids: Iterable[int]) -> dict[int, Window]:
        rows = self._db.dicts("SELECT * FROM windows WHERE id = ANY(%s::bigint[])", (list({int(i) for i in ids}),))
        return {r["id"]: _window(r) for r in rows}

    def open_windows(self, quiet_since: float | None = None) -> list[Window]:
        """Open windows (``quiet_since``: only those unchanged since then, epoch seconds)."""
        sql, args = "SELECT * FROM windows WHERE open", list[Any]()
        if quiet_since is not None:
            sql, args = sql + " AND updated<=%s", [quiet_since]
        return [_window(r) for r in self._db.dicts(sql + " ORDER BY id", args)]

    def windows_with(self, turn_ids: list[int]) -> list[Window]:
        """The windows holding any of these turns (read before they are deleted): each turn's
        owner's windows ending at or after it (windows_scope), kept when it is inside."""
        rows = self._db.dicts(
            "SELECT DISTINCT w.* FROM turns t JOIN windows w ON w.scope_key=t.scope_key AND w.turn_to>=t.id"
            " AND w.turn_from<=t.id WHERE t.id = ANY(%s::bigint[]) ORDER BY w.id", ([int(i) for i in turn_ids],))
        return [_window(r) for r in rows]

    def window_turns(self, window: Window) -> list[Turn]:
        """The window's members, oldest first."""
        return [codec.turn(r) for r in self._db.rows(_MEMBERS, (window.scope.key, window.turn_from, window.turn_to))]

    def window_members(self, ids: Iterable[int]) -> dict[int, list[int]]:
        """Each window's member turn ids, oldest first (one read for all: a search expands the
        windows it found)."""
        out: dict[int, list[int]] = {}
        for window_id, turn_id in self._db.rows(
                "SELECT w.id, t.id FROM windows w JOIN turns t ON t.scope_key=w.scope_key"
                " AND t.id BETWEEN w.turn_from AND w.turn_to WHERE w.id = ANY(%s::bigint[]) ORDER BY w.id, t.id",
                (list({int(i) for i in ids}),)):
            out.setdefault(window_id, []).append(turn_id)
        return out

    def delete_window(self, window_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM windows WHERE id=%s", (window_id,))
            cur.execute("DELETE FROM vectors WHERE kind='window' AND ref=%s", (window_id,))
