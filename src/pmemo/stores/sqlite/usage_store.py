"""Each tenant's usage for its quotas: a mixin ``SQLiteStore`` inherits.

The ``tenant_usage`` row is kept by triggers on ``turns`` (schema.py), so every path that
writes or deletes a turn (add, delete, forget, restore, purge) keeps it right, in the same
transaction, and a quota check reads one row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..base import Usage


class UsageRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

    def usage(self, tenant: str) -> Usage:
        row = self._read.execute("SELECT turns, bytes, scopes FROM tenant_usage WHERE tenant=?",
                                 (tenant,)).fetchone()
        return Usage(*row) if row else Usage(0, 0, 0)

    def known_scopes(self, scope_keys: Iterable[str]) -> set[str]:
        # one index seek per scope (turns' UNIQUE(scope_key, session, step))
        rows = self._read.execute(
            "SELECT j.value FROM json_each(?) j WHERE EXISTS(SELECT 1 FROM turns WHERE scope_key=j.value)",
            (json.dumps(list(set(scope_keys))),))
        return {r[0] for r in rows}
