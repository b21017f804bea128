"""The records port (``ports.records.RecordPort``) in SQL, written once for SQLite and Postgres:
no backend module of its own (the two held the same Python twice). What they spell apart is the
``Dialect``: the JSON columns written as jsonb on Postgres (``cast``), an access list holding the
viewer or one of their roles (``holds``: ``json_each`` on SQLite, jsonb ``?`` on Postgres), list
parameters. Both read a written row back with ``RETURNING *`` (SQLite read it again)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from ..errors import Conflict
from ..models import Record
from .sql import Dialect, Link, Row, count_reads

JSON_FIELDS = ("structured", "tags", "relations", "allowed_users", "allowed_roles")
MUTABLE = ("type", "visibility", "content", "summary", "structured", "importance", "confidence", "tags", "source",
           "relations", "allowed_users", "allowed_roles", "embedding_model")


def _json(value: Any) -> Any:
    """A JSON column's value (SQLite gives its text, Postgres the jsonb decoded)."""
    return json.loads(value) if isinstance(value, str) else value


def record_of(row: Row) -> Record:
    def at(name: str) -> datetime:
        return datetime.fromtimestamp(row[name], UTC)

    return Record(id=row["id"], tenant_id=row["tenant"], agent_id=row["agent"], user_id=row["user_id"],
                  type=row["type"], visibility=row["visibility"], content=row["content"], summary=row["summary"],
                  structured=_json(row["structured"]), embedding_model=row["embedding_model"],
                  importance=row["importance"], confidence=row["confidence"], tags=tuple(_json(row["tags"])),
                  source=row["source"], version=row["version"], created_at=at("created"), updated_at=at("updated"),
                  accessed_at=at("accessed"), decay_score=row["decay_score"],
                  relations=tuple(_json(row["relations"])), allowed_users=tuple(_json(row["allowed_users"])),
                  allowed_roles=tuple(_json(row["allowed_roles"])))


class SQLRecords:
    """``RecordPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def _param(self, name: str) -> str:
        return self._d.cast(f":{name}", "jsonb") if name in JSON_FIELDS else f":{name}"

    @staticmethod
    def _values(fields: dict[str, Any], names: list[str]) -> dict[str, Any]:
        return {n: json.dumps(fields[n], ensure_ascii=False, default=str) if n in JSON_FIELDS else fields[n]
                for n in names}

    def _visible(self, viewer: str, roles: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        """Who may see a row: its owner, anyone if public, and if shared those its lists name."""
        marks = {f"role{i}": role for i, role in enumerate(roles)}
        named = " OR ".join([self._d.holds("allowed_users", "viewer"),
                             *(self._d.holds("allowed_roles", m) for m in marks)])
        return (f"(user_id=:viewer OR visibility='public' OR (visibility='shared' AND ({named})))",
                {"viewer": viewer, **marks})

    def add_record(self, tenant: str, agent: str, user_id: str, fields: dict[str, Any]) -> Record:
        now = time.time()
        names = [n for n in MUTABLE if n in fields]
        cols, params = "".join(f"{n}, " for n in names), "".join(f"{self._param(n)}, " for n in names)
        with self._link.write() as x:
            row = x.one(f"INSERT INTO records(tenant, agent, user_id, {cols}created, updated, accessed)"
                        f" VALUES(:tenant, :agent, :user, {params}:now, :now, :now) RETURNING *",
                        {"tenant": tenant, "agent": agent, "user": user_id, "now": now,
                         **self._values(fields, names)})
        assert row is not None
        return record_of(row)

    def get_record(self, record_id: int, tenant: str, viewer: str, roles: tuple[str, ...] = ()) -> Record | None:
        cond, args = self._visible(viewer, roles)
        with self._link.read() as x:
            row = x.one(f"SELECT * FROM records WHERE id=:id AND tenant=:tenant AND deleted IS NULL AND {cond}",
                        {"id": record_id, "tenant": tenant, **args})
        return record_of(row) if row else None

    def list_records(self, tenant: str, agent: str, viewer: str, roles: tuple[str, ...] = (),
                     type_: str | None = None, limit: int = 100) -> list[Record]:
        cond, args = self._visible(viewer, roles)
        with self._link.read() as x:
            rows = x.rows(f"SELECT * FROM records WHERE tenant=:tenant AND agent=:agent AND deleted IS NULL AND {cond}"
                          + ("" if type_ is None else " AND type=:type") + " ORDER BY id LIMIT :limit",
                          {"tenant": tenant, "agent": agent, "type": type_, "limit": limit, **args})
        return [record_of(r) for r in rows]

    def all_records(self, tenant: str | None = None) -> list[Record]:
        with self._link.read() as x:
            rows = x.rows("SELECT * FROM records WHERE deleted IS NULL"
                          + ("" if tenant is None else " AND tenant=:tenant") + " ORDER BY id", {"tenant": tenant})
        return [record_of(r) for r in rows]

    def update_record(self, record_id: int, version: int, changes: dict[str, Any]) -> Record:
        names = [n for n in MUTABLE if n in changes]
        with self._link.write() as x:
            row = x.one(f"UPDATE records SET {''.join(f'{n}={self._param(n)}, ' for n in names)}version=version+1,"
                        " updated=:now WHERE id=:id AND version=:version AND deleted IS NULL RETURNING *",
                        {"now": time.time(), "id": record_id, "version": version, **self._values(changes, names)})
        if row is None:
            raise Conflict(f"record {record_id} is not at version {version} (someone else updated it); read it"
                           " again and retry")
        return record_of(row)

    def touch_records(self, ids: list[int], now: float) -> None:
        if ids:
            with self._link.write() as x:
                count_reads(x, self._d, "records", ids, now)

    def record_heat(self, record_id: int) -> int:
        with self._link.read() as x:
            row = x.one("SELECT access_count FROM records WHERE id=:id", {"id": record_id})
        return int(row["access_count"]) if row else 0

    def set_decay(self, scores: list[tuple[int, float]]) -> None:
        if not scores:
            return
        with self._link.write() as x:
            x.many("UPDATE records SET decay_score=:score WHERE id=:id",
                   [{"id": int(i), "score": float(s)} for i, s in scores])

    def delete_record(self, record_id: int) -> None:
        with self._link.write() as x:
            x.run("DELETE FROM records WHERE id=:id", {"id": record_id})
            x.run("DELETE FROM vectors WHERE kind='record' AND ref=:id", {"id": record_id})
