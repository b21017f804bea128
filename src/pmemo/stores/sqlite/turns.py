"""The turns port on SQLite (``stores/turns_sql.py`` in SQLite's dialect): what is its own is the
keyword index, an FTS5 table beside the turns (``fts.py``), written with them and searched by
``lexical`` and ``turns_with_terms``; a write numbers each session's steps under the one writer."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from ...models import Scope, Turn
from ...ports.turns import IDEMPOTENCY_HOURS, NewTurn, Once
from .. import replies
from ..base import TURN_VECTOR_KINDS
from ..fair_share import job_batches
from ..people_sql import note_speakers
from ..turns_sql import SQLTurns, replayed
from . import codec, fts
from .dialect import SQLITE, SQLiteExec, SQLiteLink


class SQLiteTurns(SQLTurns):
    """``TurnPort`` on SQLite: ``read`` gives the thread's reader, ``write`` the store's write
    transaction (the FTS rows are written on its connection)."""

    def __init__(self, read: Callable[[], sqlite3.Connection],
                 write: Callable[[], AbstractContextManager[sqlite3.Connection]]) -> None:
        super().__init__(SQLiteLink(read, write), SQLITE)
        self._reader = read
        self._writer = write

    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        now = time.time()
        out: list[Turn] = []
        with self._writer() as conn:
            if once is not None:
                conn.execute("DELETE FROM idempotency WHERE created < ?", (now - IDEMPOTENCY_HOURS * 3600,))
                if (done := replayed(SQLiteExec(conn), SQLITE, once)) is not None:
                    return done
            last: dict[tuple[str, str], tuple[int, str | None]] = {}  # step and content
            for new in turns:
                sk, session = new.scope.key, new.scope.session_id or ""
                if (sk, session) not in last:
                    row = conn.execute("SELECT step, content FROM turns WHERE scope_key=? AND session=?"
                                       " ORDER BY step DESC LIMIT 1", (sk, session)).fetchone()
                    last[(sk, session)] = (row[0], row[1]) if row else (0, None)
                step, before = last[(sk, session)][0] + 1, last[(sk, session)][1]
                last[(sk, session)] = (step, new.content)
                epoch, offset = codec.to_epoch(new.timestamp)
                reply = self._reply(conn, new, out, epoch)
                cur = conn.execute(
                    "INSERT INTO turns(scope_key, tenant, agent, owner, session, step, role, actor,"
                    " content, ts, tz, metadata, created, actor_id, reply_to)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (sk, new.scope.tenant_id, new.scope.agent_id, new.scope.owner, session, step,
                     new.role, new.actor, new.content, epoch, offset,
                     json.dumps(new.metadata, ensure_ascii=False), now, new.actor_id, reply),
                )
                turn_id = int(cur.lastrowid or 0)
                fts.insert(conn, turn_id, sk, new.index_text, before)
                out.append(Turn(turn_id, new.scope, step, new.role, new.content, new.actor,
                                new.timestamp, dict(new.metadata), new.actor_id, reply))
            note_speakers(SQLiteExec(conn), SQLITE, out)  # who spoke where, with the turns
            # one job per chat and per JOB_TURNS turns, in order (fair_share.py); `tenant` counts
            # its turns in the tenant's backlog (tenant_backlog, the pending cap)
            conn.executemany(
                "INSERT INTO jobs(kind, payload, created, updated, tenant) VALUES('turns', ?, ?, ?, ?)",
                [(json.dumps([t.id for t in batch]), now, now, batch[0].scope.tenant_id)
                 for batch in job_batches(out, [t.scope.key for t in out])],
            )
            if once is not None:
                conn.execute("INSERT INTO idempotency(tenant, key, fingerprint, turns, created) VALUES(?,?,?,?,?)",
                             (once.tenant, once.key, once.fingerprint, json.dumps([t.id for t in out]), now))
        return out

    @staticmethod
    def _reply(conn: sqlite3.Connection, new: NewTurn, batch: list[Turn], epoch: float) -> int | None:
        if new.reply_to is None and new.reply_message is None and new.quote is None and new.address is None:
            return None
        sk = new.scope.key

        def chat_of(turn_id: int) -> str | None:
            row = conn.execute("SELECT scope_key FROM turns WHERE id=?", (turn_id,)).fetchone()
            return row[0] if row else None

        def by_message(mid: str) -> int | None:
            row = conn.execute("SELECT id FROM turns WHERE scope_key=? AND json_extract(metadata, '$.message_id')=?"
                               " ORDER BY id DESC LIMIT 1", (sk, mid)).fetchone()
            return int(row[0]) if row else None

        def recent() -> list[Turn]:
            rows = conn.execute(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=? AND ts<=?"
                                " ORDER BY ts DESC, id DESC LIMIT ?", (sk, epoch, replies.RECENT)).fetchall()
            return [codec.turn(r) for r in reversed(rows)]

        return replies.link(new, batch, chat_of, by_message, recent)

    def turns_with_terms(self, scope: Scope, terms: Sequence[str]) -> list[int]:
        if not terms:
            return []
        query = "body : (" + " AND ".join(fts.match(fts.scope_token(scope.key), [t]) for t in terms) + ")"
        return [r[0] for r in self._reader().execute("SELECT rowid FROM turns_fts WHERE turns_fts MATCH ?", (query,))]

    def lexical(self, scope: Scope, terms: list[str], limit: int,
                session_id: str | None = None, until: float | None = None) -> list[tuple[int, float]]:
        if not terms:
            return []
        query = fts.match(fts.scope_token(scope.key), terms)
        if session_id is None and until is None:
            rows = self._reader().execute(
                f"SELECT rowid, {fts.BM25} AS score FROM turns_fts WHERE turns_fts MATCH ?"
                " ORDER BY score LIMIT ?", (query, limit))
        else:
            where = [(" AND t.session=?", session_id), (" AND t.ts<=?", until)]
            rows = self._reader().execute(
                f"SELECT f.rowid, {fts.BM25} AS score FROM turns_fts f JOIN turns t ON t.id=f.rowid"
                f" WHERE turns_fts MATCH ?{''.join(c for c, v in where if v is not None)} ORDER BY score LIMIT ?",
                (query, *(v for _, v in where if v is not None), limit))
        return [(r[0], -r[1]) for r in rows]

    def delete_turns(self, ids: list[int]) -> int:
        with self._writer() as conn:
            count = 0
            gone = set(ids)
            after = fts.following(conn, ids)  # their words are these turns' context
            for turn_id in ids:
                count += conn.execute("DELETE FROM turns WHERE id=?", (turn_id,)).rowcount
                conn.execute("DELETE FROM turns_fts WHERE rowid=?", (turn_id,))
                conn.executemany("DELETE FROM vectors WHERE kind=? AND ref=?",
                                 [(kind, turn_id) for kind in TURN_VECTOR_KINDS])
                conn.execute("DELETE FROM cluster_members WHERE turn_id=?", (turn_id,))
            fts.reindex(conn, [i for i in after if i not in gone])
            return count
