"""The owners on PostgreSQL and their clock (a mixin of ``PostgresStore``): whose rows there are,
and when each one's conversation last spoke."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...models import Scope

if TYPE_CHECKING:
    from .database import Database


class OwnerRows:
    if TYPE_CHECKING:
        _db: Database

    def conversation_now(self, scope: Scope) -> float | None:
        """The newest turn's time in the owner scope: the clock decay and expiry run on."""
        row = self._db.one("SELECT MAX(ts) FROM turns WHERE scope_key=%s", (scope.key,))
        return None if row is None or row[0] is None else float(row[0])

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        """Every owner with turns, episodes or facts (optionally of one tenant)."""
        where = " WHERE tenant=%(t)s" if tenant else ""
        sql = " UNION ".join(f"SELECT DISTINCT tenant, agent, owner FROM {t}{where}"
                             for t in ("turns", "episodes", "facts"))
        return [Scope(r[0], r[1], r[2]) for r in self._db.rows(sql + " ORDER BY 1, 2, 3", {"t": tenant})]
