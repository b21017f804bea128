"""The owners port (``ports.owners.OwnerPort``) in SQL, written once for SQLite and Postgres: no
backend module of its own (sqlite/profile_store.py and postgres/owners.py were the same two
queries twice)."""

from __future__ import annotations

from ..models import Scope
from .sql import Link


class SQLOwners:
    """``OwnerPort`` over a backend's ``Link``."""

    def __init__(self, link: Link) -> None:
        self._link = link

    def conversation_now(self, scope: Scope) -> float | None:
        with self._link.read() as x:
            row = x.one("SELECT MAX(ts) AS now FROM turns WHERE scope_key=:key", {"key": scope.key})
        return None if row is None or row["now"] is None else float(row["now"])

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        where = " WHERE tenant=:tenant" if tenant else ""
        sql = " UNION ".join(f"SELECT DISTINCT tenant, agent, owner FROM {t}{where}"
                             for t in ("turns", "episodes", "facts"))
        with self._link.read() as x:
            rows = x.rows(sql + " ORDER BY 1, 2, 3", {"tenant": tenant})
        return [Scope(r["tenant"], r["agent"], r["owner"]) for r in rows]
