"""Turns on PostgreSQL: the TurnStore part of ``PostgresStore``, a mixin over its ``Database``.

Steps are numbered per session without gaps: each write takes a transaction-scoped advisory
lock per session it writes to (sorted, so two writers never wait on each other in a circle),
then reads the session's last step. A write with an idempotency key takes that key's lock
first, so a retry that races its first attempt waits for it and replays its turns.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import psycopg

from ...errors import Conflict
from ...models import Scope, Turn
from .. import replies
from ..base import IDEMPOTENCY_HOURS, TURN_VECTOR_KINDS, NewTurn, Once, TurnRef
from ..fair_share import job_batches
from . import codec, lexical
from .database import Database, lock_key

# the SQL a single call and a read plan (read_plan.py) share
REPLY_LINKS = ("SELECT id, reply_to FROM turns WHERE id = ANY(%s) AND reply_to IS NOT NULL"
               " UNION SELECT reply_to, id FROM turns WHERE reply_to = ANY(%s)")
# one index seek per session (GROUP BY would read every step)
MAX_STEPS = "SELECT s, (SELECT MAX(step) FROM turns WHERE scope_key=%s AND session=s) FROM unnest(%s::text[]) s"
# one index seek per speaker (turns_actor), not a read of every turn: a search asks
ACTORS = ("WITH RECURSIVE a(actor) AS (SELECT MIN(actor) FROM turns WHERE scope_key=%(s)s"
          " UNION ALL SELECT (SELECT MIN(actor) FROM turns WHERE scope_key=%(s)s AND actor>a.actor)"
          " FROM a WHERE a.actor IS NOT NULL) SELECT actor FROM a WHERE actor IS NOT NULL")
SCAN_ROWS = 2_000  # a scope's turns up to which a keyword search reads them all (see lexical())
_INSERT = ("INSERT INTO turns(scope_key, tenant, agent, owner, session, step, role, actor, content, ts, tz,"
           " metadata, created, actor_id, words, context) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
           " RETURNING id")


class TurnRows:
    if TYPE_CHECKING:
        _db: Database

    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        now = time.time()
        with self._db.tx() as cur:
            if once is not None:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("once", once.tenant, once.key),))
                cur.execute("DELETE FROM idempotency WHERE created < %s", (now - IDEMPOTENCY_HOURS * 3600,))
                if (done := self._replay(cur, once)) is not None:
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
            self._turns_added(cur, out)
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

    def reply_links(self, ids: Iterable[int]) -> dict[int, list[int]]:
        wanted = list(dict.fromkeys(ids))
        return links_of(self._db.rows(REPLY_LINKS, (wanted, wanted)) if wanted else [])

    def _turns_added(self, cur: psycopg.Cursor[Any], turns: list[Turn]) -> None:
        """What other tables keep of new turns, in their transaction. A mixin that keeps some
        (the people registry: who speaks where) overrides this and calls ``super()``."""

    def replay(self, once: Once) -> list[Turn] | None:
        with self._db.tx() as cur:
            return self._replay(cur, once)

    @staticmethod
    def _replay(cur: psycopg.Cursor[Any], once: Once) -> list[Turn] | None:
        """The turns an earlier write with this idempotency key stored (those not forgotten
        since), or None for a new key; the same key for other turns is a Conflict."""
        row = cur.execute("SELECT fingerprint, turns FROM idempotency WHERE tenant=%s AND key=%s",
                          (once.tenant, once.key)).fetchone()
        if row is None:
            return None
        if row[0] != once.fingerprint:
            raise Conflict(f"idempotency key {once.key!r} was used for other turns; use a new key for a new write")
        found = {r[0]: codec.turn(r) for r in cur.execute(
            f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE id = ANY(%s)", (row[1],))}
        return [found[i] for i in row[1] if i in found]

    def get_turns(self, ids: Iterable[int]) -> dict[int, Turn]:
        if not (wanted := _ints(ids)):
            return {}  # no round trip for nothing
        rows = self._db.rows(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE id = ANY(%s)", (wanted,))
        return {row[0]: codec.turn(row) for row in rows}

    def turn_times(self, ids: Iterable[int]) -> dict[int, float]:
        wanted = _ints(ids)
        if not wanted:
            return {}
        return {r[0]: float(r[1]) for r in self._db.rows("SELECT id, ts FROM turns WHERE id = ANY(%s)", (wanted,))}

    def turn_refs(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = ()) -> dict[int, TurnRef]:
        wanted, seeds = _ints(ids), _ints(around) if radius > 0 else []
        if not wanted and not seeds:
            return {}  # a search without quoted facets asks for none: no round trip
        return {row[0]: TurnRef(*row) for row in self._db.rows(*refs_read(wanted, seeds, radius))}

    def list_turns(self, scope: Scope, *, session_id: str | None = None, limit: int = 100,
                   offset: int = 0, since: Any = None, until: Any = None, actor_id: str | None = None,
                   actor: str | None = None, text: str | None = None, first: str | None = None) -> list[Turn]:
        sql = f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=%s"
        args: list[Any] = [scope.key]
        for column, value in (("session", session_id), ("actor_id", actor_id), ("actor", actor)):
            if value is not None:
                sql, args = sql + f" AND {column}=%s", [*args, value]
        if since is not None:
            sql, args = sql + " AND ts>=%s", [*args, codec.to_epoch(since)[0]]
        if until is not None:
            sql, args = sql + " AND ts<=%s", [*args, codec.to_epoch(until)[0]]
        if text is not None:
            sql, args = sql + " AND strpos(lower(content), %s) > 0", [*args, text.lower()]
        if first is not None:
            sql, args = sql + " ORDER BY actor_id IS NOT DISTINCT FROM %s DESC,", [*args, first]
        else:
            sql += " ORDER BY"
        sql += " ts, session, step LIMIT %s OFFSET %s"
        return [codec.turn(r) for r in self._db.rows(sql, [*args, limit, offset])]

    def turns_with_terms(self, scope: Scope, terms: Sequence[str]) -> list[int]:
        query = " & ".join(f"{lexical.tsquery([t])}:A" for t in terms if t.strip())
        if not query:
            return []
        return [r[0] for r in self._db.rows("SELECT id FROM turns WHERE scope_key=%s AND lexemes @@ %s::tsquery",
                                            (scope.key, query))]

    def last_turns(self, scope: Scope, session_id: str, n: int, until: float | None = None) -> list[Turn]:
        before = "" if until is None else " AND ts<=%s"
        rows = self._db.rows(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=%s AND session=%s{before}"
                             " ORDER BY step DESC LIMIT %s",
                             (scope.key, session_id, *(() if until is None else (until,)), n))
        return [codec.turn(r) for r in reversed(rows)]

    def spoken(self, scope: Scope, people: Sequence[str], until: float) -> dict[str, tuple[float, float, int]]:
        if not people:
            return {}
        rows = self._db.rows(
            "SELECT actor_id, MIN(ts), MAX(ts), COUNT(*) FROM turns WHERE tenant=%s AND agent=%s AND owner=%s"
            " AND actor_id = ANY(%s::text[]) AND ts<=%s GROUP BY actor_id",
            (scope.tenant_id, scope.agent_id, scope.owner, list(people), until))
        return {r[0]: (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    def chat_latest(self, scope: Scope, until: float) -> tuple[str, float] | None:
        row = self._db.one("SELECT session, ts FROM turns WHERE scope_key=%s AND ts<=%s"
                           " ORDER BY ts DESC, id DESC LIMIT 1", (scope.key, until))
        return (row[0], float(row[1])) if row else None

    def turn_at(self, scope: Scope, session_id: str, step: int) -> Turn | None:
        row = self._db.one(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=%s AND session=%s"
                           " AND step=%s", (scope.key, session_id, step))
        return codec.turn(row) if row else None

    def max_steps(self, scope: Scope, sessions: Iterable[str]) -> dict[str, int]:
        rows = self._db.rows(MAX_STEPS, (scope.key, list(set(sessions))))
        return {r[0]: r[1] or 0 for r in rows}

    def actors(self, scope: Scope) -> list[str]:
        return [r[0] for r in self._db.rows(ACTORS, {"s": scope.key})]

    def sessions(self, scope: Scope) -> list[dict[str, Any]]:
        rows = self._db.rows("SELECT session, COUNT(*), MIN(ts), MAX(ts), MAX(step) FROM turns WHERE scope_key=%s"
                             " GROUP BY session ORDER BY MIN(ts), session", (scope.key,))
        return [{"session_id": r[0], "turns": r[1], "last_step": r[4], "first": codec.utc(r[2]),
                 "last": codec.utc(r[3])} for r in rows]

    def owners(self, tenant_id: str, agent_id: str) -> list[str]:
        rows = self._db.rows("SELECT DISTINCT owner FROM turns WHERE tenant=%(t)s AND agent=%(a)s"
                             " UNION SELECT DISTINCT owner FROM key_lines WHERE tenant=%(t)s AND agent=%(a)s"
                             " ORDER BY 1", {"t": tenant_id, "a": agent_id})
        return [r[0] for r in rows]

    def turn_ids(self, scope: Scope, session_id: str | None = None) -> list[int]:
        if session_id is None:
            rows = self._db.rows("SELECT id FROM turns WHERE scope_key=%s", (scope.key,))
        else:
            rows = self._db.rows("SELECT id FROM turns WHERE scope_key=%s AND session=%s", (scope.key, session_id))
        return [r[0] for r in rows]

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
        ids = _ints(ids)
        with self._db.tx() as cur:
            after = lexical.following(cur, ids)  # their words are these turns' context
            count = cur.execute("DELETE FROM turns WHERE id = ANY(%s)", (ids,)).rowcount
            cur.execute("DELETE FROM vectors WHERE kind = ANY(%s) AND ref = ANY(%s)", (list(TURN_VECTOR_KINDS), ids))
            cur.execute("DELETE FROM cluster_members WHERE turn_id = ANY(%s)", (ids,))
            lexical.reindex(cur, [i for i in after if i not in set(ids)])
            return count


def _ints(ids: Iterable[int]) -> list[int]:
    """Distinct ids in their first order, as ints (numpy ints included)."""
    return list(dict.fromkeys(int(i) for i in ids))


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


def links_of(rows: Iterable[Any]) -> dict[int, list[int]]:
    """``REPLY_LINKS`` rows as turn id → the turns a reply ties it to."""
    out: dict[int, list[int]] = {}
    for a, b in rows:
        out.setdefault(int(a), []).append(int(b))
    return {k: sorted(set(v)) for k, v in out.items()}


def refs_read(wanted: list[int], seeds: list[int], radius: int) -> tuple[str, dict[str, Any]]:
    """The read of ``turn_refs``: the refs of ``wanted``, and of the turns within ``radius``
    steps of ``seeds`` in their session."""
    sql = f"SELECT {codec.ref_columns('turns')} FROM turns WHERE id = ANY(%(ids)s)"
    if seeds:  # UNION ALL: a UNION would sort every row to drop repeats, which the dict drops
        sql += (f" UNION ALL SELECT {codec.ref_columns('n')} FROM turns t JOIN turns n"
                " ON n.scope_key=t.scope_key AND n.session=t.session"
                " AND n.step BETWEEN t.step-%(r)s AND t.step+%(r)s"
                " WHERE t.id = ANY(%(seeds)s) AND n.id <> ALL(%(ids)s)")
    return sql, {"ids": wanted, "seeds": seeds, "r": radius}
