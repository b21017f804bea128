"""The forget port on SQLite: what ``stores/forget_sql.py`` leaves to a backend, the tombstones
(row snapshots) and the privacy switches.

A soft forget snapshots every row it is about to delete or rebuild into ``tombstones``
(the row as JSON, its blobs in base64, its provenance, cluster members and vector), then runs
the ordinary delete. Restoring puts the snapshots back under their own ids (ids are
AUTOINCREMENT, so never reused); purging drops the snapshots, after which nothing of the text remains.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any

from ...errors import Conflict
from ...ports.forget import Restored
from ..forget_sql import ORDER, TABLES, SQLForget
from ..person_forget import PERSON_KIND
from . import codec, fts
from .dialect import SQLITE, SQLiteLink


def _enc(value: Any) -> Any:
    return {"b64": base64.b64encode(value).decode()} if isinstance(value, bytes) else value


def _dec(value: Any) -> Any:
    return base64.b64decode(value["b64"]) if isinstance(value, dict) and "b64" in value else value


class SQLiteForget(SQLForget):
    """``read``: the calling thread's reader; ``tx``: the store's write transaction; ``writer`` and
    ``write_lock``: its one writing connection, for what runs outside a transaction (a PRAGMA, a
    checkpoint); ``put_back_person``: the person-forget port's, which a restore calls in its
    transaction."""

    def __init__(self, read: Callable[[], sqlite3.Connection],
                 tx: Callable[[], AbstractContextManager[sqlite3.Connection]], writer: sqlite3.Connection,
                 write_lock: Any, put_back_person: Callable[[dict[str, Any]], None]) -> None:
        super().__init__(SQLiteLink(read, tx), SQLITE)
        self._read, self._tx = read, tx
        self._writer, self._write_lock = writer, write_lock
        self._put_back_person = put_back_person

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

    def restore_snapshot(self, batch: int) -> list[Restored]:
        """Put a batch's rows back (vectors too, so the store's search has them again); returns
        (kind, ref, scope_key, vector) of each row."""
        rows = self._read().execute(
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
            self._put_back_person(data)  # in this transaction: it joins
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
