"""SQLite rows for forgetting: batches, the action log and tombstones (row snapshots).

A soft forget snapshots every row it is about to delete or rebuild into ``tombstones``
(the row, its provenance, cluster members and vector), then runs the ordinary
delete. Restoring puts the snapshots back under their own ids (ids are AUTOINCREMENT, so
never reused); purging drops the snapshots, after which nothing of the text remains.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import time
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import Conflict
from ...ports.person_forget import PersonForgetPort
from ..person_forget import PERSON_KIND
from . import codec, fts

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


def _enc(value: Any) -> Any:
    return {"b64": base64.b64encode(value).decode()} if isinstance(value, bytes) else value


def _dec(value: Any) -> Any:
    return base64.b64decode(value["b64"]) if isinstance(value, dict) and "b64" in value else value


class ForgetRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...
        _writer: sqlite3.Connection
        _write_lock: Any

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

        person_forget: PersonForgetPort

    # ---- tombstones (the batches and their log are a port: ``stores/batches_sql.py``) ----------
    def snapshot(self, batch: int, kind: str, refs: Iterable[int]) -> int:
        """Copy rows (with provenance and vector) into the batch's tombstones."""
        count = 0
        with self._tx() as conn:
            for ref in refs:
                data = self._capture(conn, kind, ref)
                if data is not None:
                    count += conn.execute(
                        "INSERT OR IGNORE INTO tombstones(batch, kind, ref, data) VALUES(?,?,?,?)",
                        (batch, kind, ref, json.dumps(data, ensure_ascii=False)),
                    ).rowcount
        return count

    @staticmethod
    def _capture(conn: sqlite3.Connection, kind: str, ref: int) -> dict[str, Any] | None:
        row = conn.execute(f"SELECT * FROM {TABLES[kind]} WHERE id=?", (ref,)).fetchone()
        if row is None:
            return None
        data: dict[str, Any] = {"row": {k: _enc(row[k]) for k in row.keys()}}
        data["sources"] = [
            r[0]
            for r in conn.execute("SELECT turn_id FROM sources WHERE kind=? AND ref=?", (kind, ref))
        ]
        vec = conn.execute(
            "SELECT scope_key, model, vec FROM vectors WHERE kind=? AND ref=?", (kind, ref)
        ).fetchone()
        data["vector"] = [vec[0], vec[1], _enc(vec[2])] if vec else None
        if kind == "entity":  # graph (issue 20): its names go with it
            data["aliases"] = [list(r) for r in conn.execute(
                "SELECT alias, source FROM entity_aliases WHERE entity=?", (ref,))]
        if kind == "cluster":
            data["members"] = [
                r[0]
                for r in conn.execute(
                    "SELECT turn_id FROM cluster_members WHERE cluster_id=?", (ref,)
                )
            ]
        return data

    def restore_snapshot(self, batch: int) -> list[tuple[str, int, str, np.ndarray | None]]:
        """Put a batch's rows back (vectors too, so the store's search has them again); returns
        (kind, ref, scope_key, vector) of each row."""
        rows = self._read.execute(
            "SELECT kind, ref, data FROM tombstones WHERE batch=?", (batch,)
        ).fetchall()
        items = sorted(
            ((r[0], r[1], json.loads(r[2])) for r in rows), key=lambda x: (ORDER.index(x[0]), x[1])
        )
        out = []
        with self._tx() as conn:
            for kind, ref, data in items:
                self._put_back(conn, kind, ref, data)
                vec = data.get("vector")
                out.append(
                    (kind, ref, vec[0] if vec else "", codec.unblob(_dec(vec[2])) if vec else None)
                )
            conn.execute("DELETE FROM tombstones WHERE batch=?", (batch,))
        return out

    def _put_back(self, conn: sqlite3.Connection, kind: str, ref: int, data: dict[str, Any]) -> None:
        if kind == PERSON_KIND:  # issue 44 §7: the registry rows of a forgotten person (person_forget.py)
            self.person_forget.put_back_person(data)  # in this transaction: it joins
            return
        row = {k: _dec(v) for k, v in data["row"].items()}
        if kind == "turn":
            taken = conn.execute(
                "SELECT id FROM turns WHERE scope_key=? AND session=? AND step=? AND id<>?",
                (row["scope_key"], row["session"], row["step"], ref),
            ).fetchone()
            if taken:
                raise Conflict(
                    f"cannot restore turn {ref}: session {row['session']!r} has a new "
                    f"turn at step {row['step']} (turn {taken[0]}); delete it first"
                )
        table = TABLES[kind]
        conn.execute(f"DELETE FROM {table} WHERE id=?", (ref,))
        cols = ",".join(row)
        conn.execute(
            f"INSERT INTO {table}({cols}) VALUES({','.join('?' * len(row))})", list(row.values())
        )
        conn.execute("DELETE FROM sources WHERE kind=? AND ref=?", (kind, ref))
        conn.executemany(
            "INSERT OR IGNORE INTO sources(kind, ref, turn_id) VALUES(?,?,?)",
            [(kind, ref, t) for t in data["sources"]],
        )
        if data["vector"]:
            sk, model, vec = data["vector"]
            conn.execute(
                "INSERT OR REPLACE INTO vectors(kind, ref, scope_key, model, vec)"
                " VALUES(?,?,?,?,?)",
                (kind, ref, sk, model, _dec(vec)),
            )
        if kind == "cluster":
            conn.execute("DELETE FROM cluster_members WHERE cluster_id=?", (ref,))
            conn.executemany(
                "INSERT OR REPLACE INTO cluster_members(turn_id, cluster_id) VALUES(?,?)",
                [(t, ref) for t in data["members"]],
            )
        if kind == "entity":  # graph (issue 20): its names back, and name indexes rebuilt
            conn.executemany("INSERT OR IGNORE INTO entity_aliases(entity, alias, source) VALUES(?,?,?)",
                             [(ref, a, src) for a, src in data["aliases"]])
            conn.execute("INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT DO UPDATE"
                         " SET value=CAST(value AS INTEGER)+1", (f"entities:{row['tenant']}",))
        if kind == "turn":  # re-indexed from the row: the index may have been rebuilt since;
            # the turn after it gets its words back as context
            fts.reindex(conn, [ref, *fts.following(conn, [ref])])

    def purge_batch(self, batch: int) -> int:
        """Drop a batch's tombstones and rows it soft-deleted: the forget becomes permanent."""
        with self._tx() as conn:
            n = conn.execute("DELETE FROM tombstones WHERE batch=?", (batch,)).rowcount
            for kind, ref in conn.execute(
                "SELECT kind, ref FROM forget_log WHERE batch=? AND action='soft_delete'", (batch,)
            ).fetchall():
                if kind in SOFT:
                    n += conn.execute(
                        f"DELETE FROM {TABLES[kind]} WHERE id=? AND deleted IS NOT NULL", (ref,)
                    ).rowcount
                    conn.execute("DELETE FROM sources WHERE kind=? AND ref=?", (kind, ref))
                    conn.execute("DELETE FROM vectors WHERE kind=? AND ref=?", (kind, ref))
            conn.execute("UPDATE forget_batches SET status='purged' WHERE id=?", (batch,))
        return n

    # ---- soft delete by column (sweeper) ------------------------------------------------------
    def soft_delete(self, kind: str, ids: list[int], reason: str) -> None:
        with self._tx() as conn:
            conn.executemany(
                f"UPDATE {TABLES[kind]} SET deleted=?, deleted_reason=? WHERE id=?"
                " AND deleted IS NULL",
                [(time.time(), reason, i) for i in ids],
            )

    def undelete(self, kind: str, ids: list[int]) -> None:
        with self._tx() as conn:
            conn.executemany(
                f"UPDATE {TABLES[kind]} SET deleted=NULL, deleted_reason=NULL WHERE id=?",
                [(i,) for i in ids],
            )

    # ---- privacy -----------------------------------------------------------------------------
    def secure_delete(self) -> None:
        """Freed pages are zeroed from now on, so a hard delete leaves no text in the file."""
        with self._write_lock:
            self._writer.execute("PRAGMA secure_delete=ON")

    def scrub(self) -> None:
        """Merge the FTS indexes (drops deleted terms: words, and the pairs of turns_naming) and
        checkpoint the WAL into the file."""
        with self._tx() as conn:
            conn.execute("INSERT INTO turns_fts(turns_fts) VALUES('optimize')")
            conn.execute("INSERT INTO turn_pairs(turn_pairs) VALUES('optimize')")
        with self._write_lock:
            self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
