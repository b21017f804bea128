"""Long-term summaries on PostgreSQL, each with the turns it came from (the summary part of
DerivedStore)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from ...models import Scope, Summary
from . import codec
from .provenance import WITH_SOURCES, SourceRows


class SummaryRows(SourceRows):
    def add_summary(self, scope: Scope, step_from: int, step_to: int, text: str, method: str,
                    source_ids: list[int]) -> Summary:
        with self._db.tx() as cur:
            row = cur.execute(
                "INSERT INTO summaries(scope_key, tenant, agent, owner, session, step_from, step_to, text, method,"
                " created) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, scope.session_id or "", step_from,
                 step_to, text, method, time.time())).fetchone()
            assert row is not None
            self._set_sources(cur, "summary", row[0], source_ids)
        found = self.get_summary(row[0])
        assert found is not None
        return found

    def summaries(self, scope: Scope, session_id: str | None = None, latest: int | None = None) -> list[Summary]:
        args: list[Any] = [scope.key]
        sql = f"SELECT {WITH_SOURCES} FROM summaries t WHERE scope_key=%s"
        if session_id is not None:
            sql, args = sql + " AND session=%s", [*args, session_id]
        if latest is not None:  # the newest few, oldest first
            sql, args = f"SELECT * FROM ({sql} ORDER BY created DESC, id DESC LIMIT %s) s", [*args, int(latest)]
        rows = self._db.dicts(sql + " ORDER BY created, id", ["summary", *args])
        return [codec.summary(r, tuple(r.pop("source_ids"))) for r in rows]

    def get_summary(self, summary_id: int) -> Summary | None:
        return self.get_summaries([summary_id]).get(summary_id)

    def get_summaries(self, ids: Iterable[int]) -> dict[int, Summary]:
        found = self._records("summary", "summaries", list(dict.fromkeys(int(i) for i in ids)), codec.summary)
        return {s.id: s for s in found}

    def update_summary(self, summary_id: int, text: str, method: str, source_ids: list[int]) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE summaries SET text=%s, method=%s WHERE id=%s", (text, method, summary_id))
            self._set_sources(cur, "summary", summary_id, source_ids)
            cur.execute("DELETE FROM vectors WHERE kind='summary' AND ref=%s", (summary_id,))

    def delete_summary(self, summary_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM summaries WHERE id=%s", (summary_id,))
            cur.execute("DELETE FROM sources WHERE kind='summary' AND ref=%s", (summary_id,))
            cur.execute("DELETE FROM vectors WHERE kind='summary' AND ref=%s", (summary_id,))

    def summaries_with(self, turn_ids: list[int]) -> list[Summary]:
        return list(self.get_summaries(self._refs_with("summary", turn_ids)).values())

    def stale_summaries(self, model: str) -> list[int]:
        rows = self._db.rows("SELECT s.id FROM summaries s LEFT JOIN vectors v ON v.kind='summary' AND v.ref=s.id"
                             " WHERE v.model IS NULL OR v.model<>%s", (model,))
        return [r[0] for r in rows]
