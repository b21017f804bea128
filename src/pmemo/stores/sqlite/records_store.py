"""SQLite rows for long-term records (the full envelope) with access control in the query.

Every read takes the viewer (user id and roles) and the SQL itself keeps out what the
viewer may not see; ``tiers.records.can_read`` checks each row again before it leaves.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ...errors import Conflict
from ...models import Record
from . import profile_codec as pc

JSON_FIELDS = ("structured", "tags", "relations", "allowed_users", "allowed_roles")
MUTABLE = (
    "type",
    "visibility",
    "content",
    "summary",
    "structured",
    "importance",
    "confidence",
    "tags",
    "source",
    "relations",
    "allowed_users",
    "allowed_roles",
    "embedding_model",
)


def _visible(viewer: str, roles: tuple[str, ...]) -> tuple[str, list[Any]]:
    role_marks = ",".join("?" * len(roles)) or "NULL"
    sql = (
        "(user_id=? OR visibility='public' OR (visibility='shared' AND ("
        "EXISTS(SELECT 1 FROM json_each(allowed_users) WHERE value=?)"
        f" OR EXISTS(SELECT 1 FROM json_each(allowed_roles) WHERE value IN ({role_marks})))))"
    )
    return sql, [viewer, viewer, *roles]


def _value(name: str, value: Any) -> Any:
    return json.dumps(value, ensure_ascii=False) if name in JSON_FIELDS else value


class RecordRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def add_record(self, tenant: str, agent: str, user_id: str, fields: dict[str, Any]) -> Record:
        now = time.time()
        names = [n for n in MUTABLE if n in fields]
        with self._tx() as conn:
            cur = conn.execute(
                f"INSERT INTO records(tenant, agent, user_id, {', '.join(names)}, created, updated,"
                f" accessed) VALUES(?,?,?,{','.join('?' * len(names))},?,?,?)",
                (tenant, agent, user_id, *(_value(n, fields[n]) for n in names), now, now, now),
            )
            rid = int(cur.lastrowid or 0)
        found = self._record(rid)
        assert found is not None
        return found

    def _record(self, record_id: int) -> Record | None:
        row = self._read.execute(
            "SELECT * FROM records WHERE id=? AND deleted IS NULL", (record_id,)
        ).fetchone()
        return pc.record(row) if row else None

    def get_record(
        self, record_id: int, tenant: str, viewer: str, roles: tuple[str, ...] = ()
    ) -> Record | None:
        cond, args = _visible(viewer, roles)
        row = self._read.execute(
            f"SELECT * FROM records WHERE id=? AND tenant=? AND deleted IS NULL AND {cond}",
            (record_id, tenant, *args),
        ).fetchone()
        return pc.record(row) if row else None

    def list_records(
        self,
        tenant: str,
        agent: str,
        viewer: str,
        roles: tuple[str, ...] = (),
        type_: str | None = None,
        limit: int = 100,
    ) -> list[Record]:
        cond, args = _visible(viewer, roles)
        sql = f"SELECT * FROM records WHERE tenant=? AND agent=? AND deleted IS NULL AND {cond}"
        params: list[Any] = [tenant, agent, *args]
        if type_ is not None:
            sql, params = sql + " AND type=?", [*params, type_]
        rows = self._read.execute(sql + " ORDER BY id LIMIT ?", [*params, limit]).fetchall()
        return [pc.record(r) for r in rows]

    def all_records(self, tenant: str | None = None) -> list[Record]:
        """Every live record (the sweeper's view; no access control: it is the system)."""
        sql, args = "SELECT * FROM records WHERE deleted IS NULL", []
        if tenant is not None:
            sql, args = sql + " AND tenant=?", [tenant]
        return [pc.record(r) for r in self._read.execute(sql, args).fetchall()]

    def update_record(self, record_id: int, version: int, changes: dict[str, Any]) -> Record:
        names = [n for n in MUTABLE if n in changes]
        sets = "".join(f"{n}=?, " for n in names)
        with self._tx() as conn:
            changed = conn.execute(
                f"UPDATE records SET {sets}version=version+1, updated=? WHERE id=? AND version=?"
                " AND deleted IS NULL",
                (*(_value(n, changes[n]) for n in names), time.time(), record_id, version),
            ).rowcount
        if not changed:
            raise Conflict(
                f"record {record_id} is not at version {version} (someone else updated "
                "it); read it again and retry"
            )
        found = self._record(record_id)
        assert found is not None
        return found

    def touch_records(self, ids: list[int], now: float) -> None:
        with self._tx() as conn:
            conn.executemany(
                "UPDATE records SET accessed=?, access_count=access_count+1 WHERE id=?",
                [(now, i) for i in ids],
            )

    def record_heat(self, record_id: int) -> int:
        row = self._read.execute(
            "SELECT access_count FROM records WHERE id=?", (record_id,)
        ).fetchone()
        return int(row[0]) if row else 0

    def set_decay(self, scores: list[tuple[int, float]]) -> None:
        with self._tx() as conn:
            conn.executemany(
                "UPDATE records SET decay_score=? WHERE id=?", [(s, i) for i, s in scores]
            )

    def delete_record(self, record_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM records WHERE id=?", (record_id,))
            conn.execute("DELETE FROM vectors WHERE kind='record' AND ref=?", (record_id,))
