"""Provenance on PostgreSQL: which turns each derived record came from (the ``sources`` table).

The ports read and write it through ``stores/sql.py`` (``with_sources``, ``set_sources``); what is
left here: a row's sources read inside the row's own query (``WITH_SOURCES``, the read plan's) and
the forget store's restore, which replaces a record's sources on its own cursor.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import psycopg

from .database import Database

# a row's source turns in the read of the row itself (its table aliased t; the kind is the
# first parameter): one round trip where a second query by ref took another
WITH_SOURCES = "t.*, ARRAY(SELECT turn_id FROM sources s WHERE s.kind=%s AND s.ref=t.id ORDER BY turn_id) AS source_ids"


class SourceRows:
    if TYPE_CHECKING:
        _db: Database

    @staticmethod
    def _set_sources(cur: psycopg.Cursor[Any], kind: str, ref: int, turn_ids: Iterable[int]) -> None:
        cur.execute("DELETE FROM sources WHERE kind=%s AND ref=%s", (kind, ref))
        cur.execute("INSERT INTO sources(kind, ref, turn_id) SELECT %s, %s, t FROM unnest(%s::bigint[]) t"
                    " ON CONFLICT DO NOTHING", (kind, ref, [int(t) for t in turn_ids]))
