"""The usage port (``ports.usage.UsagePort``) in SQL, written once for SQLite and Postgres: no
backend module of its own (each keeps the ``tenant_usage`` row with triggers of its schema)."""

from __future__ import annotations

from collections.abc import Iterable

from ..ports.usage import Usage
from .sql import Dialect, Link


class SQLUsage:
    """``UsagePort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def usage(self, tenant: str) -> Usage:
        with self._link.read() as x:
            row = x.one("SELECT turns, bytes, scopes FROM tenant_usage WHERE tenant=:tenant", {"tenant": tenant})
        return Usage(int(row["turns"]), int(row["bytes"]), int(row["scopes"])) if row else Usage(0, 0, 0)

    def known_scopes(self, scope_keys: Iterable[str]) -> set[str]:
        # one index seek per scope (turns' (scope_key, …) index)
        with self._link.read() as x:
            rows = x.rows(f"SELECT k.v FROM {self._d.each('keys', 'text')} AS k"
                          " WHERE EXISTS(SELECT 1 FROM turns WHERE scope_key=k.v)",
                          {"keys": self._d.texts(set(scope_keys))})
        return {r["v"] for r in rows}
