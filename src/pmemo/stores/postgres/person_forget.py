"""The person-forget port on PostgreSQL: only its catalogue (``stores/person_forget_sql.py`` is the
rest). The registry's tombstone is jsonb; its rows come back by column name."""

from __future__ import annotations

from collections.abc import Iterable

from ..person_forget_sql import SQLPersonForget
from ..sql import Exec

COLUMNS = ("SELECT table_name::text AS tbl, column_name::text AS col FROM information_schema.columns"
           " WHERE table_schema = current_schema()")


class PostgresPersonForget(SQLPersonForget):
    def _columns(self, x: Exec) -> Iterable[tuple[str, str]]:
        return [(r["tbl"], r["col"]) for r in x.rows(COLUMNS)]
