"""Key lines on PostgreSQL: short always-in-context lines, by hand or promoted from a cluster,
each with the turns it came from (the key part of DerivedStore)."""

from __future__ import annotations

import time

from ...errors import Conflict, NotFound
from ...models import KeyLine, Scope
from . import codec
from .provenance import SourceRows


class KeyRows(SourceRows):
    def add_key(self, scope: Scope, text: str, origin: str, source_ids: list[int]) -> KeyLine:
        now = time.time()
        with self._db.tx() as cur:
            row = cur.execute(
                "INSERT INTO key_lines(scope_key, tenant, agent, owner, text, origin, created, updated)"
                " VALUES(%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                (scope.key, scope.tenant_id, scope.agent_id, scope.owner, text, origin, now, now)).fetchone()
            assert row is not None
            self._set_sources(cur, "key", row[0], source_ids)
        found = self.get_key(row[0])
        assert found is not None
        return found

    def keys(self, scope: Scope, sources: bool = True) -> list[KeyLine]:
        rows = self._db.dicts("SELECT * FROM key_lines WHERE scope_key=%s ORDER BY origin='user' DESC, id",
                              (scope.key,))
        found = self._sources("key", [r["id"] for r in rows]) if sources else {}
        return [codec.key_line(r, found.get(r["id"], ())) for r in rows]

    def get_key(self, key_id: int) -> KeyLine | None:
        return next(iter(self._records("key", "key_lines", [key_id], codec.key_line)), None)

    def update_key(self, key_id: int, text: str, version: int | None = None) -> KeyLine:
        with self._db.tx() as cur:
            changed = cur.execute("UPDATE key_lines SET text=%s, origin='user', updated=%s, version=version+1"
                                  " WHERE id=%s AND (%s::integer IS NULL OR version=%s)",
                                  (text, time.time(), key_id, version, version)).rowcount
            if not changed:
                row = cur.execute("SELECT version FROM key_lines WHERE id=%s", (key_id,)).fetchone()
                if row is None:
                    raise NotFound(f"key line {key_id} does not exist")
                raise Conflict(f"key line {key_id} is at version {row[0]}, not {version}: read it again and"
                               " retry", current_version=row[0])
        found = self.get_key(key_id)
        assert found is not None
        return found

    def delete_key(self, key_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM key_lines WHERE id=%s", (key_id,))
            cur.execute("DELETE FROM sources WHERE kind='key' AND ref=%s", (key_id,))

    def keys_with(self, turn_ids: list[int]) -> list[KeyLine]:
        return self._records("key", "key_lines", self._refs_with("key", turn_ids), codec.key_line)
