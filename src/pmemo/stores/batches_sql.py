"""The forget batches port (``ports.batches.BatchPort``) in SQL, written once for SQLite and
Postgres: no backend module of its own (the two forget stores held the same Python twice). What
they spell apart is the ``Dialect``: a JSON report and a log line's detail written as jsonb on
Postgres (``cast``), list parameters; JSON comes back decoded on both."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from ..errors import NotFound
from ..ports.batches import LogLine
from .sql import Dialect, Link, Row


def _dumped(value: Any) -> str:
    return json.dumps(value, default=str, ensure_ascii=False)


def _decoded(row: Row, column: str) -> dict[str, Any]:
    """``row`` as a dict, its JSON ``column`` decoded (SQLite gives its text, Postgres the jsonb decoded)."""
    value = row[column]
    return {**dict(row), column: json.loads(value) if isinstance(value, str) else value}


class SQLBatches:
    """``BatchPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def new_batch(self, action: str, mode: str, scope_key: str | None, reason: str,
                  tenant: str | None = None) -> int:
        with self._link.write() as x:
            row = x.one("INSERT INTO forget_batches(at, action, mode, scope_key, reason, tenant)"
                        " VALUES(:at, :action, :mode, :key, :reason, :tenant) RETURNING id",
                        {"at": time.time(), "action": action, "mode": mode, "key": scope_key, "reason": reason,
                         "tenant": tenant})
        assert row is not None
        return int(row["id"])

    def get_batch(self, batch: int) -> dict[str, Any]:
        with self._link.read() as x:
            row = x.one("SELECT * FROM forget_batches WHERE id=:id", {"id": batch})
        if row is None:
            raise NotFound(f"forget batch {batch} does not exist")
        return _decoded(row, "report")

    def set_batch(self, batch: int, status: str, report: dict[str, Any] | None = None) -> None:
        with self._link.write() as x:
            x.run(f"UPDATE forget_batches SET status=:status, report=COALESCE({self._d.cast(':report', 'jsonb')},"
                  " report) WHERE id=:id",
                  {"status": status, "report": None if report is None else _dumped(report), "id": batch})

    def log_actions(self, batch: int | None, rows: Iterable[LogLine]) -> None:
        now = time.time()
        with self._link.write() as x:
            x.many("INSERT INTO forget_log(batch, at, action, kind, ref, scope_key, reason, detail)"
                   f" VALUES(:batch, :at, :action, :kind, :ref, :key, :reason, {self._d.cast(':detail', 'jsonb')})",
                   [{"batch": batch, "at": now, "action": a, "kind": k, "ref": r, "key": s, "reason": why,
                     "detail": _dumped(d)} for a, k, r, s, why, d in rows])

    def forget_log(self, batch: int | None = None, limit: int = 100,
                   tenant: str | None = None) -> list[dict[str, Any]]:
        where = " AND ".join(cond for cond, value in (("b.tenant=:tenant", tenant), ("l.batch=:batch", batch))
                             if value is not None)
        with self._link.read() as x:
            rows = x.rows("SELECT l.*, b.mode AS batch_mode, b.status AS batch_status FROM forget_log l"
                          " LEFT JOIN forget_batches b ON b.id = l.batch" + (f" WHERE {where}" if where else "")
                          + " ORDER BY l.id DESC LIMIT :limit", {"tenant": tenant, "batch": batch, "limit": limit})
        return [_decoded(r, "detail") for r in rows]

    def batch_refs(self, batch: int, action: str) -> list[tuple[str, int]]:
        with self._link.read() as x:
            rows = x.rows("SELECT kind, ref FROM forget_log WHERE batch=:batch AND action=:action",
                          {"batch": batch, "action": action})
        return [(r["kind"], r["ref"]) for r in rows]

    def batch_owners(self, batch: int) -> list[str]:
        with self._link.read() as x:
            rows = x.rows("SELECT scope_key FROM forget_log WHERE batch=:b AND scope_key IS NOT NULL UNION"
                          " SELECT scope_key FROM forget_batches WHERE id=:b AND scope_key IS NOT NULL", {"b": batch})
        return sorted(r["scope_key"] for r in rows)

    def batches_with_turns(self, turn_ids: list[int], tenant: str | None = None) -> dict[int, int]:
        mine = "" if tenant is None else " AND b.tenant=:tenant"
        with self._link.read() as x:
            rows = x.rows("SELECT t.ref, t.batch FROM tombstones t JOIN forget_batches b ON b.id = t.batch"
                          f" WHERE t.kind='turn' AND {self._d.in_('t.ref', 'ids')} AND b.status='active'{mine}"
                          " ORDER BY t.batch", {"ids": self._d.ids(turn_ids), "tenant": tenant})
        return {r["ref"]: r["batch"] for r in rows}  # the newest batch of a turn snapshotted twice

    def active_batches(self, older_than: float | None = None) -> list[int]:
        before = "" if older_than is None else " AND at < :before"
        with self._link.read() as x:
            rows = x.rows(f"SELECT id FROM forget_batches WHERE status='active'{before} ORDER BY id",
                          {"before": older_than})
        return [r["id"] for r in rows]
