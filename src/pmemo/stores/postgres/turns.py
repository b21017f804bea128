"""The turns port on PostgreSQL (``stores/turns_sql.py`` in Postgres's dialect): what is its own is
how a write numbers its steps and the keyword index (``lexical.py``: a tsvector column).

Steps are numbered per session without gaps: each write takes a transaction-scoped advisory
lock per session it writes to (sorted, so two writers never wait on each other in a circle),
then reads the session's last step. A write with an idempotency key takes that key's lock
first, so a retry that races its first attempt waits for it and replays its turns.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from ...models import Scope, Turn
from ...ports.turns import IDEMPOTENCY_HOURS, NewTurn, Once
from .. import replies
from ..base import TURN_VECTOR_KINDS
from ..fair_share import job_batches
from ..people_sql import note_speakers
from ..turns_sql import SQLTurns, ids_of, replayed
from . import codec, lexical
from .database import Database, lock_key
from .dialect import POSTGRES, PostgresExec, PostgresLink

SCAN_ROWS = 2_000  # a scope's turns up to which a keyword search reads them all (see lexical())
_INSERT = ("INSERT INTO turns(scope_key, tenant, agent, owner, session, step, role, actor, content, ts, tz,"
           " metadata, created, actor_id, words, context) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
           " RETURNING id")


class PostgresTurns(SQLTurns):
    """``TurnPort`` on PostgreSQL: the writes and the keyword search through ``db``."""

    def __init__(self, db: Database) -> None:
        super().__init__(PostgresLink(db), POSTGRES)
        self._db = db

    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        now = time.time()
        with self._db.tx() as cur:
            if once is not None:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("once", once.tenant, once.key),))
                cur.execute("DELETE FROM idempotency WHERE created < %s", (now - IDEMPOTENCY_HOURS * 3600,))
                with cur.connection.cursor(row_factory=dict_row) as same:
                    done = replayed(PostgresExec(same), POSTGRES, once)
                if done is not None:
                    return done
            sessions = sorted({(t.scope.key, t.scope.session_id or "") for t in turns})
            for key in sessions:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("session", *key),))
            last: dict[tuple[str, str], tuple[int, str | None]] = {}  # step and content
            for key in sessions:
                row = cur.execute("SELECT step, content FROM turns WHERE scope_key=%s AND session=%s"
                                  " ORDER BY step DESC LIMIT 1", key).fetchone()
                last[key] = (row[0], row[1]) if row else (0, None)
            rows, steps = [], []
            for new in turns:
                key = (new.scope.key, new.scope.session_id or "")
                step, before = last[key][0] + 1, last[key][1]
                last[key] = (step, new.content)
                epoch, offset = codec.to_epoch(new.timestamp)
                rows.append((key[0], new.scope.tenant_id, new.scope.agent_id, new.scope.owner, key[1], step,
                             new.role, new.actor, new.content, epoch, offset,
                             json.dumps(new.metadata, ensure_ascii=False), now, new.actor_id, new.index_text,
                             lexical.context_of(before)))
                steps.append(step)
            ids = _insert_returning(cur, _INSERT, rows)
            out = [Turn(turn_id, new.scope, step, new.role, new.content, new.actor, new.timestamp,
                        dict(new.metadata), new.actor_id) for turn_id, new, step in zip(ids, turns, steps, strict=True)]
            out = self._replies(cur, turns, out)
            with cur.connection.cursor(row_factory=dict_row) as same:  # who spoke where, in the turns' transaction
                note_speakers(PostgresExec(same), POSTGRES, out)
            # one job per chat and per JOB_TURNS turns, in order (fair_share.py); `tenant` counts
            # its turns in the tenant's backlog (tenant_backlog, the pending cap)
            cur.executemany("INSERT INTO jobs(kind, payload, tenant) VALUES('turns', %s, %s)",
                            [(json.dumps([t.id for t in batch]), batch[0].scope.tenant_id)
                             for batch in job_batches(out, [t.scope.key for t in out])])
            if once is not None:
                cur.execute("INSERT INTO idempotency(tenant, key, fingerprint, turns, created) VALUES(%s,%s,%s,%s,%s)",
                            (once.tenant, once.key, once.fingerprint, json.dumps(ids), now))
        return out

    def _replies(self, cur: psycopg.Cursor[Any], news: list[NewTurn], out: list[Turn]) -> list[Turn]:
        """The turns each of the write's answers (replies.py), set once all have their ids."""
        if all(n.reply_to is None and n.reply_message is None and n.quote is None and n.address is None for n in news):
            return out
        linked = list(out)
        for i, new in enumerate(news):
            if new.reply_to is None and new.reply_message is None and new.quote is None and new.address is None:
                continue
            sk, epoch, mine = new.scope.key, codec.to_epoch(new.timestamp)[0], out[i].id

            def chat_of(turn_id: int) -> str | None:
                row = cur.execute("SELECT scope_key FROM turns WHERE id=%s", (turn_id,)).fetchone()
                return row[0] if row else None

            def by_message(mid: str, sk: str = sk, mine: int = mine) -> int | None:
                row = cur.execute("SELECT id FROM turns WHERE scope_key=%s AND (metadata::jsonb)->>'message_id'=%s"
                                  " AND id < %s ORDER BY id DESC LIMIT 1", (sk, mid, mine)).fetchone()
                return int(row[0]) if row else None

            def recent(sk: str = sk, epoch: float = epoch, first: int = out[0].id) -> list[Turn]:
                rows = cur.execute(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=%s AND ts<=%s"
                                   " AND id < %s ORDER BY ts DESC, id DESC LIMIT %s",
                                   (sk, epoch, first, replies.RECENT)).fetchall()
                return [codec.turn(r) for r in reversed(rows)]

            reply = replies.link(new, linked[:i], chat_of, by_message, recent)
            if reply is not None:
                cur.execute("UPDATE turns SET reply_to=%s WHERE id=%s", (reply, mine))
                linked[i] = dataclasses.replace(out[i], reply_to=reply)
        return linked

    def turns_with_terms(self, scope: Scope, terms: Sequence[str]) -> list[int]:
        query = " & ".join(f"{lexical.tsquery([t])}:A" for t in terms if t.strip())
        if not query:
            return []
        return [r[0] for r in self._db.rows("SELECT id FROM turns WHERE scope_key=%s AND lexemes @@ %s::tsquery",
                                            (scope.key, query))]

    def lexical(self, scope: Scope, terms: list[str], limit: int,
                session_id: str | None = None, until: float | None = None) -> list[tuple[int, float]]:
        query = lexical.tsquery(terms)
        if not query:
            return []
        mine = (("" if session_id is None else " AND session=%(session)s")
                + ("" if until is None else " AND ts<=%(until)s"))
        rank, more = lexical.rank(terms)
        # A scope of up to SCAN_ROWS turns is read whole through its btree and matched row by
        # row; a larger one through the GIN index, whose posting lists span the whole table (a
        # frequent word's runs to every tenant's turns: at 1M turns a 1,000-turn scope took
        # 4.0 ms that way, 2.4 read whole). Counting the scope's first SCAN_ROWS keys picks the
        # branch once; the other one does not run.
        rows = self._db.rows(
            "WITH size AS (SELECT count(*) AS n FROM (SELECT 1 FROM turns WHERE scope_key=%(scope)s"
            f"{mine} LIMIT %(scan)s) c)"
            f" SELECT id, {rank} AS score FROM (SELECT id, lexemes FROM turns WHERE scope_key=%(scope)s{mine}"
            " OFFSET 0) s WHERE (SELECT n FROM size) < %(scan)s AND lexemes @@ %(q)s::tsquery"
            f" UNION ALL SELECT id, {rank} AS score FROM turns WHERE (SELECT n FROM size) >= %(scan)s"
            f" AND scope_key=%(scope)s AND lexemes @@ %(q)s::tsquery{mine} ORDER BY score DESC, id LIMIT %(limit)s",
            {"q": query, "scope": scope.key, "session": session_id, "until": until, "limit": limit, "scan": SCAN_ROWS,
             **more})
        return [(r[0], float(r[1])) for r in rows]

    def delete_turns(self, ids: list[int]) -> int:
        """Delete turns with their vectors and cluster memberships; the turn after each gets
        the context of the one now before it."""
        ids = ids_of(ids)
        with self._db.tx() as cur:
            after = lexical.following(cur, ids)  # their words are these turns' context
            count = cur.execute("DELETE FROM turns WHERE id = ANY(%s)", (ids,)).rowcount
            cur.execute("DELETE FROM vectors WHERE kind = ANY(%s) AND ref = ANY(%s)", (list(TURN_VECTOR_KINDS), ids))
            cur.execute("DELETE FROM cluster_members WHERE turn_id = ANY(%s)", (ids,))
            lexical.reindex(cur, [i for i in after if i not in set(ids)])
            return count


def _insert_returning(cur: psycopg.Cursor[Any], sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
    """The ids ``sql`` (an INSERT … RETURNING id) gave each of ``rows``, in one pipelined batch."""
    if not rows:
        return []
    cur.executemany(sql, rows, returning=True)
    ids = []
    while True:
        ids.append(cur.fetchone()[0])  # type: ignore[index]
        if not cur.nextset():
            return ids
