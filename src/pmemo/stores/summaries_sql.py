"""The summaries port (``ports.summaries.SummaryPort``) in SQL, written once for SQLite and
Postgres: no backend module of its own (the two stores' copies differed only in placeholders and
in how a row's sources were read: by a second query, or inside the row's own on Postgres; the
second query is kept for both, as for the other derived records). ``summary_of`` is the row codec
the read plans use too."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from ..models import Scope, Summary
from .sql import Dialect, Exec, Link, Row, by_id, drop, refs_with, set_sources, with_sources


def summary_of(row: Row, sources: tuple[int, ...]) -> Summary:
    return Summary(row["id"], Scope(row["tenant"], row["agent"], row["owner"], row["session"]), row["step_from"],
                   row["step_to"], row["text"], row["method"], sources, datetime.fromtimestamp(row["created"], UTC))


class SQLSummaries:
    """``SummaryPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def add_summary(self, scope: Scope, step_from: int, step_to: int, text: str, method: str,
                    source_ids: list[int]) -> Summary:
        with self._link.write() as x:
            row = x.one("INSERT INTO summaries(scope_key, tenant, agent, owner, session, step_from, step_to, text,"
                        " method, created) VALUES(:key, :tenant, :agent, :owner, :session, :step_from, :step_to,"
                        " :text, :method, :at) RETURNING id",
                        {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                         "session": scope.session_id or "", "step_from": step_from, "step_to": step_to, "text": text,
                         "method": method, "at": time.time()})
            assert row is not None
            set_sources(x, self._d, "summary", int(row["id"]), source_ids)
        found = self.get_summary(int(row["id"]))
        assert found is not None
        return found

    def of_scope(self, scope: Scope, session_id: str | None = None, latest: int | None = None) -> list[Summary]:
        args: dict[str, Any] = {"key": scope.key, "session": session_id, "latest": latest}
        sql = "SELECT * FROM summaries WHERE scope_key=:key" + ("" if session_id is None else " AND session=:session")
        if latest is not None:  # the newest few, oldest first
            sql = f"SELECT * FROM ({sql} ORDER BY created DESC, id DESC LIMIT :latest) s"
        with self._link.read() as x:
            return with_sources(x, self._d, "summary", x.rows(sql + " ORDER BY created, id", args), summary_of)

    def get_summary(self, summary_id: int) -> Summary | None:
        return self.get_summaries([summary_id]).get(summary_id)

    def get_summaries(self, ids: Iterable[int]) -> dict[int, Summary]:
        with self._link.read() as x:
            return {s.id: s for s in self._by_id(x, list(dict.fromkeys(int(i) for i in ids)))}

    def update_summary(self, summary_id: int, text: str, method: str, source_ids: list[int]) -> None:
        with self._link.write() as x:
            x.run("UPDATE summaries SET text=:text, method=:method WHERE id=:id",
                  {"text": text, "method": method, "id": summary_id})
            set_sources(x, self._d, "summary", summary_id, source_ids)
            x.run("DELETE FROM vectors WHERE kind='summary' AND ref=:id", {"id": summary_id})

    def delete_summary(self, summary_id: int) -> None:
        with self._link.write() as x:
            drop(x, "summaries", "summary", summary_id, vector=True)

    def summaries_with(self, turn_ids: list[int]) -> list[Summary]:
        with self._link.read() as x:
            return self._by_id(x, refs_with(x, self._d, "summary", turn_ids))

    def stale_summaries(self, model: str) -> list[int]:
        with self._link.read() as x:
            return [r["id"] for r in x.rows("SELECT s.id FROM summaries s LEFT JOIN vectors v ON v.kind='summary'"
                                            " AND v.ref=s.id WHERE v.model IS NULL OR v.model<>:model ORDER BY s.id",
                                            {"model": model})]

    def _by_id(self, x: Exec, ids: list[int]) -> list[Summary]:
        return by_id(x, self._d, "summaries", "summary", ids, summary_of)
