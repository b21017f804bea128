"""The owners on SQLite and their clock: a mixin ``SQLiteStore`` inherits (the facts, episodes,
tasks, records, forget batches and tombstones are ports: ``stores/facts_sql.py``,
``stores/episodes_sql.py``, ``stores/tasks_sql.py``, ``stores/records_sql.py``, ``stores/forget_sql.py`` …)."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ...models import Scope


class ProfileStore:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def conversation_now(self, scope: Scope) -> float | None:
        """The newest turn's time in the owner scope: the clock decay and expiry run on."""
        row = self._read.execute(
            "SELECT MAX(ts) FROM turns WHERE scope_key=?", (scope.key,)
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        """Every owner with turns, episodes or facts (optionally of one tenant)."""
        where = " WHERE tenant=?" if tenant else ""
        sql = " UNION ".join(
            f"SELECT DISTINCT tenant, agent, owner FROM {t}{where}"
            for t in ("turns", "episodes", "facts")
        )
        rows = self._read.execute(sql + " ORDER BY 1, 2, 3", [tenant] * 3 if tenant else [])
        return [Scope(r[0], r[1], r[2]) for r in rows]
