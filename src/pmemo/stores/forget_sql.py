"""The forget port (``ports.forget.ForgetPort``) in SQL, written once for SQLite and Postgres: the
kinds a forget snapshots and their tables, a purge and the soft deletes. What each backend keeps
(``sqlite/forget_store.py``, ``postgres/forget.py``) is how a row is snapshotted and put back (JSON
text with its blobs in base64 on SQLite; jsonb and ``jsonb_populate_record`` on Postgres) and the
privacy switches (``secure_delete``, ``scrub``: a PRAGMA and FTS merges, a VACUUM)."""

from __future__ import annotations

import time

from .person_forget import PERSON_KIND
from .sql import Dialect, Link

TABLES = {
    "turn": "turns",
    "summary": "summaries",
    "cluster": "clusters",
    "key": "key_lines",
    "fact": "facts",
    "episode": "episodes",
    "record": "records",
    "task": "tasks",
    "agenda": "agenda",
    # graph (issue 20): an entity before the triples that name it
    "entity": "entities",
    "triple": "triples",
    "insight": "insights",
}
# restore order: turns first (derived rows point at them); a forgotten person's registry rows last
ORDER = ("turn", "cluster", "summary", "key", "fact", "episode", "record", "task", "agenda",
         "entity", "triple", "insight", PERSON_KIND)
SOFT = ("fact", "episode", "record", "task")  # tables with deleted / deleted_reason columns


class SQLForget:
    """The shared part of ``ForgetPort`` over a backend's ``Link`` in its ``Dialect``; a backend
    adds ``snapshot``, ``restore_snapshot``, ``secure_delete`` and ``scrub``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def purge_batch(self, batch: int) -> int:
        d = self._d
        with self._link.write() as x:
            count = x.run("DELETE FROM tombstones WHERE batch=:batch", {"batch": batch})
            soft: dict[str, list[int]] = {}
            for r in x.rows("SELECT kind, ref FROM forget_log WHERE batch=:batch AND action='soft_delete'",
                            {"batch": batch}):
                if r["kind"] in SOFT:
                    soft.setdefault(r["kind"], []).append(r["ref"])
            for kind, refs in soft.items():
                args = {"kind": kind, "refs": d.ids(refs)}
                count += x.run(f"DELETE FROM {TABLES[kind]} WHERE {d.in_('id', 'refs')} AND deleted IS NOT NULL",
                               args)
                x.run(f"DELETE FROM sources WHERE kind=:kind AND {d.in_('ref', 'refs')}", args)
                x.run(f"DELETE FROM vectors WHERE kind=:kind AND {d.in_('ref', 'refs')}", args)
            x.run("UPDATE forget_batches SET status='purged' WHERE id=:batch", {"batch": batch})
        return count

    def soft_delete(self, kind: str, ids: list[int], reason: str) -> None:
        with self._link.write() as x:
            x.run(f"UPDATE {TABLES[kind]} SET deleted=:now, deleted_reason=:reason WHERE {self._d.in_('id', 'ids')}"
                  " AND deleted IS NULL", {"now": time.time(), "reason": reason, "ids": self._d.ids(ids)})

    def undelete(self, kind: str, ids: list[int]) -> None:
        with self._link.write() as x:
            x.run(f"UPDATE {TABLES[kind]} SET deleted=NULL, deleted_reason=NULL WHERE {self._d.in_('id', 'ids')}",
                  {"ids": self._d.ids(ids)})
