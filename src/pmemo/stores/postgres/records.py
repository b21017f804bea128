"""Long-term records on PostgreSQL (the record part of ProfileStoreProtocol, a mixin of
``PostgresStore``), with access control in the query.

Every read takes the viewer (user id and roles) and the SQL itself keeps out what the viewer
may not see: their own records, public ones, and shared ones that list the viewer or one of
their roles (jsonb ``?`` and ``?|`` on the access lists); ``tiers.records.can_read`` checks each
row again before it leaves.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ...errors import Conflict
from ...models import Record
from . import profile_codec as pc
from .database import Database

JSON_FIELDS = ("structured", "tags", "relations", "allowed_users", "allowed_roles")
MUTABLE = ("type", "visibility", "content", "summary", "structured", "importance", "confidence", "tags", "source",
           "relations", "allowed_users", "allowed_roles", "embedding_model")
_VISIBLE = ("(user_id=%(viewer)s OR visibility='public' OR (visibility='shared'"
            " AND (allowed_users ? %(viewer)s OR allowed_roles ?| %(roles)s::text[])))")


def _value(name: str, value: Any) -> Any:
    return pc.jsonb(value) if name in JSON_FIELDS else value


class RecordRows:
    if TYPE_CHECKING:
        _db: Database

    def add_record(self, tenant: str, agent: str, user_id: str, fields: dict[str, Any]) -> Record:
        now = time.time()
        names = [n for n in MUTABLE if n in fields]
        with self._db.tx() as cur:
            cur.execute(f"INSERT INTO records(tenant, agent, user_id, {''.join(n + ', ' for n in names)}created,"
                        f" updated, accessed) VALUES({'%s, ' * (3 + len(names))}%s, %s, %s) RETURNING *",
                        (tenant, agent, user_id, *(_value(n, fields[n]) for n in names), now, now, now))
            return pc.record(pc.named(cur)[0])

    def get_record(self, record_id: int, tenant: str, viewer: str, roles: tuple[str, ...] = ()) -> Record | None:
        rows = self._db.dicts(f"SELECT * FROM records WHERE id=%(id)s AND tenant=%(tenant)s AND deleted IS NULL"
                              f" AND {_VISIBLE}", {"id": record_id, "tenant": tenant, "viewer": viewer,
                                                   "roles": list(roles)})
        return pc.record(rows[0]) if rows else None

    def list_records(self, tenant: str, agent: str, viewer: str, roles: tuple[str, ...] = (),
                     type_: str | None = None, limit: int = 100) -> list[Record]:
        sql = f"SELECT * FROM records WHERE tenant=%(tenant)s AND agent=%(agent)s AND deleted IS NULL AND {_VISIBLE}"
        if type_ is not None:
            sql += " AND type=%(type)s"
        rows = self._db.dicts(sql + " ORDER BY id LIMIT %(limit)s",
                              {"tenant": tenant, "agent": agent, "viewer": viewer, "roles": list(roles),
                               "type": type_, "limit": limit})
        return [pc.record(r) for r in rows]

    def all_records(self, tenant: str | None = None) -> list[Record]:
        """Every live record (the sweeper's view; no access control: it is the system)."""
        sql, args = "SELECT * FROM records WHERE deleted IS NULL", []
        if tenant is not None:
            sql, args = sql + " AND tenant=%s", [tenant]
        return [pc.record(r) for r in self._db.dicts(sql + " ORDER BY id", args)]

    def update_record(self, record_id: int, version: int, changes: dict[str, Any]) -> Record:
        names = [n for n in MUTABLE if n in changes]
        with self._db.tx() as cur:
            cur.execute(f"UPDATE records SET {''.join(n + '=%s, ' for n in names)}version=version+1, updated=%s"
                        " WHERE id=%s AND version=%s AND deleted IS NULL RETURNING *",
                        (*(_value(n, changes[n]) for n in names), time.time(), record_id, version))
            rows = pc.named(cur)
        if not rows:
            raise Conflict(f"record {record_id} is not at version {version} (someone else updated it); read it"
                           " again and retry")
        return pc.record(rows[0])

    def touch_records(self, ids: list[int], now: float) -> None:
        """One read each (an id given twice was read twice)."""
        with self._db.tx() as cur:
            cur.execute("UPDATE records r SET access_count = r.access_count + n.reads, accessed=%s"
                        " FROM (SELECT id, COUNT(*) AS reads FROM unnest(%s::bigint[]) id GROUP BY id) n"
                        " WHERE r.id = n.id", (now, [int(i) for i in ids]))

    def record_heat(self, record_id: int) -> int:
        row = self._db.one("SELECT access_count FROM records WHERE id=%s", (record_id,))
        return int(row[0]) if row else 0

    def set_decay(self, scores: list[tuple[int, float]]) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE records r SET decay_score = d.score FROM unnest(%s::bigint[], %s::float8[])"
                        " AS d(id, score) WHERE r.id = d.id",
                        ([int(i) for i, _ in scores], [float(s) for _, s in scores]))

    def delete_record(self, record_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM records WHERE id=%s", (record_id,))
            cur.execute("DELETE FROM vectors WHERE kind='record' AND ref=%s", (record_id,))
