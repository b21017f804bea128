"""Each tenant's usage for its quotas on PostgreSQL (UsageStore, a mixin of ``PostgresStore``).

The ``tenant_usage`` row is kept by triggers on ``turns`` (migrations/0010_profile.sql), so
every path that writes or deletes a turn, in any process, keeps it right in its own
transaction, and a quota check reads one row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..base import Usage
from .database import Database


class UsageRows:
    if TYPE_CHECKING:
        _db: Database

    def usage(self, tenant: str) -> Usage:
        row = self._db.one("SELECT turns, bytes, scopes FROM tenant_usage WHERE tenant=%s", (tenant,))
        return Usage(*(int(v) for v in row)) if row else Usage(0, 0, 0)

    def known_scopes(self, scope_keys: Iterable[str]) -> set[str]:
        # one index seek per scope (turns_scope_id)
        rows = self._db.rows("SELECT s FROM unnest(%s::text[]) s WHERE EXISTS(SELECT 1 FROM turns WHERE scope_key=s)",
                             (list(set(scope_keys)),))
        return {r[0] for r in rows}
