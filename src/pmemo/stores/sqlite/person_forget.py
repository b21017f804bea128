"""The person-forget port on SQLite: only its catalogue (``stores/person_forget_sql.py`` is the rest)."""

from __future__ import annotations

from collections.abc import Iterable

from ..person_forget_sql import SQLPersonForget
from ..sql import Exec


class SQLitePersonForget(SQLPersonForget):
    def _columns(self, x: Exec) -> Iterable[tuple[str, str]]:
        rows = x.rows("SELECT m.name AS tbl, p.name AS col FROM sqlite_master m, pragma_table_info(m.name) p"
                      " WHERE m.type = 'table' ORDER BY m.name")
        return [(r["tbl"], r["col"]) for r in rows]
