"""The key-lines port (``ports.key_lines.KeyLinePort``) in SQL, written once for SQLite and
Postgres: no backend module of its own (the two stores' copies differed only in placeholders)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from ..errors import Conflict, NotFound
from ..models import KeyLine, Scope
from .sql import Dialect, Exec, Link, Row, by_id, drop, refs_with, set_sources, with_sources


def key_line_of(row: Row, sources: tuple[int, ...]) -> KeyLine:
    return KeyLine(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), row["text"], row["origin"], sources,
                   datetime.fromtimestamp(row["created"], UTC), datetime.fromtimestamp(row["updated"], UTC),
                   row["version"])


class SQLKeyLines:
    """``KeyLinePort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def add_key(self, scope: Scope, text: str, origin: str, source_ids: list[int]) -> KeyLine:
        now = time.time()
        with self._link.write() as x:
            row = x.one("INSERT INTO key_lines(scope_key, tenant, agent, owner, text, origin, created, updated)"
                        " VALUES(:key, :tenant, :agent, :owner, :text, :origin, :now, :now) RETURNING id",
                        {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                         "text": text, "origin": origin, "now": now})
            assert row is not None
            set_sources(x, self._d, "key", int(row["id"]), source_ids)
        found = self.get_key(int(row["id"]))
        assert found is not None
        return found

    def keys(self, scope: Scope, sources: bool = True) -> list[KeyLine]:
        with self._link.read() as x:
            rows = x.rows("SELECT * FROM key_lines WHERE scope_key=:key ORDER BY origin='user' DESC, id",
                          {"key": scope.key})
            return with_sources(x, self._d, "key", rows, key_line_of) if sources else [key_line_of(r, ()) for r in rows]

    def get_key(self, key_id: int) -> KeyLine | None:
        with self._link.read() as x:
            return next(iter(self._by_id(x, [key_id])), None)

    def update_key(self, key_id: int, text: str, version: int | None = None) -> KeyLine:
        args = {"id": key_id, "text": text, "now": time.time(), "version": version}
        with self._link.write() as x:
            if not x.run("UPDATE key_lines SET text=:text, origin='user', updated=:now, version=version+1 WHERE id=:id"
                         f" AND ({self._d.cast(':version', 'integer')} IS NULL OR version=:version)", args):
                row = x.one("SELECT version FROM key_lines WHERE id=:id", args)
                if row is None:
                    raise NotFound(f"key line {key_id} does not exist")
                raise Conflict(f"key line {key_id} is at version {row['version']}, not {version}: read it again"
                               " and retry", current_version=row["version"])
        found = self.get_key(key_id)
        assert found is not None
        return found

    def delete_key(self, key_id: int) -> None:
        with self._link.write() as x:
            drop(x, "key_lines", "key", key_id)

    def keys_with(self, turn_ids: list[int]) -> list[KeyLine]:
        with self._link.read() as x:
            return self._by_id(x, refs_with(x, self._d, "key", turn_ids))

    def _by_id(self, x: Exec, ids: list[int]) -> list[KeyLine]:
        return by_id(x, self._d, "key_lines", "key", sorted(ids), key_line_of)
