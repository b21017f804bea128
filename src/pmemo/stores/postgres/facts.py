"""Profile facts on PostgreSQL: the fact part of ProfileStoreProtocol, a mixin of ``PostgresStore``.

A fact is one row per value: an upsert reinforces, supersedes (the old row keeps its history,
``valid_to`` set) or records a conflict, as ``tiers.profile.decide`` decided on what it read.
Every change checks the version that was read (``WHERE version=…``): under READ COMMITTED a
writer that waited for another re-reads the row, finds the version moved on and changes
nothing, which is a ``Conflict`` for the caller to retry.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import psycopg

from ...errors import Conflict, InvalidInput, NotFound
from ...models import Candidate, Decision, Fact, Scope
from . import profile_codec as pc
from .live import LiveRows

ANY = "*"  # facts(subject=ANY): about anyone (no person id is "*")
# every column but the id, as a copy of a row (edit_fact) lists them
COLUMNS = ("scope_key", "tenant", "agent", "owner", "category", "key", "value", "confidence", "importance",
           "mentions", "first_seen", "last_seen", "valid_from", "valid_to", "expires", "source", "status",
           "version", "created", "updated", "deleted", "deleted_reason", "subject", "mentioned", "said")
_INSERT = ("INSERT INTO facts(scope_key, tenant, agent, owner, category, key, value, confidence, importance,"
           " mentions, first_seen, last_seen, valid_from, expires, source, status, version, created, updated,"
           " subject, mentioned, said) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,1,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
           " RETURNING id")


class FactRows(LiveRows):
    def facts(self, scope: Scope, history: bool = False, subject: str | None = ANY) -> list[Fact]:
        sql, args = "SELECT * FROM facts WHERE scope_key=%s AND deleted IS NULL", [scope.key]
        if subject is None:
            sql += " AND subject IS NULL"
        elif subject != ANY:
            sql, args = sql + " AND subject=%s", [*args, subject]
        return self._fact_rows(sql, args, history)

    def facts_about(self, tenant: str, agent: str, subject: str, owners: list[str] | None = None,
                    history: bool = False) -> list[Fact]:
        """A person's facts wherever they were learned, or only in ``owners`` (groups, chats)."""
        sql = "SELECT * FROM facts WHERE tenant=%s AND agent=%s AND subject=%s AND deleted IS NULL"
        args: list[Any] = [tenant, agent, subject]
        if owners is not None:
            sql, args = sql + " AND owner = ANY(%s)", [*args, list(owners)]
        return self._fact_rows(sql, args, history)

    def _fact_rows(self, sql: str, args: list[Any], history: bool) -> list[Fact]:
        if not history:
            sql += " AND status='current'"
        return self._live_where("fact", sql + " ORDER BY category, key, version, id", args, pc.fact)

    def get_fact(self, fact_id: int) -> Fact | None:
        return next(iter(self._live("fact", "facts", [fact_id], pc.fact)), None)

    def facts_with(self, turn_ids: list[int]) -> list[Fact]:
        return self._live("fact", "facts", sorted(self._refs_with("fact", turn_ids)), pc.fact)

    def upsert_fact(self, scope: Scope, decision: Decision, cand: Candidate, turn_id: int | None,
                    at: float) -> Fact | None:
        """Apply one upsert decision atomically; ``Conflict`` if a fact changed meanwhile."""
        if decision.action == "skip":
            return decision.target
        with self._db.tx() as cur:
            if decision.action == "insert":
                fid = _insert(cur, scope, decision, cand, at, "current", 1)
            elif decision.action == "supersede":
                fid = _supersede(cur, scope, decision, cand, at)
            elif decision.action == "reinforce" or decision.reinforce is not None:  # or a conflict stated again
                assert decision.reinforce is not None
                fid = _reinforce(cur, decision.reinforce, decision.confidence, cand, at)
            else:
                fid = _insert(cur, scope, decision, cand, at, "conflict", 1)
            if turn_id is not None:
                cur.execute("INSERT INTO sources(kind, ref, turn_id) VALUES('fact', %s, %s) ON CONFLICT DO NOTHING",
                            (fid, turn_id))
        return self.get_fact(fid)

    def expire_fact(self, fact_id: int, at: float) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE facts SET status='expired', valid_to=%s, version=version+1"
                        " WHERE id=%s AND status='current'", (at, fact_id))

    def unexpire_fact(self, fact_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("UPDATE facts SET status='current', valid_to=NULL, version=version+1"
                        " WHERE id=%s AND status='expired'", (fact_id,))

    def drop_fact_sources(self, fact_id: int, turn_ids: Iterable[int]) -> None:
        """A forgotten turn leaves a fact that other turns also stated: one mention less each."""
        gone = [int(t) for t in turn_ids]
        with self._db.tx() as cur:
            cur.execute("DELETE FROM sources WHERE kind='fact' AND ref=%s AND turn_id = ANY(%s)", (fact_id, gone))
            cur.execute("UPDATE facts SET mentions=GREATEST(1, mentions - %s), version=version+1 WHERE id=%s",
                        (len(gone), fact_id))

    def edit_fact(self, fact_id: int, value: str, version: int | None, at: float) -> Fact:
        """A current fact's value set by hand: the row keeps its id and sources, its version goes
        up by one and its source becomes "edited"; the value it had stays in the history as a
        superseded copy (with the same sources). ``version``: the one read (else ``Conflict``)."""
        with self._db.tx() as cur:
            row = cur.execute("SELECT value, status, version FROM facts WHERE id=%s AND deleted IS NULL FOR UPDATE",
                              (fact_id,)).fetchone()
            if row is None:
                raise NotFound(f"fact {fact_id} does not exist")
            old_value, status, current = row
            if version is not None and current != version:
                raise Conflict(f"fact {fact_id} is at version {current}, not {version}: read it again and retry",
                               current_version=current)
            if status != "current":
                raise InvalidInput(f"fact {fact_id} is {status}: it is history; edit the current value")
            if old_value != value:
                copied = ", ".join({"status": "'superseded'", "valid_to": "%(at)s", "updated": "%(now)s"}.get(c, c)
                                   for c in COLUMNS)
                copy = cur.execute(f"INSERT INTO facts({', '.join(COLUMNS)}) SELECT {copied} FROM facts"
                                   " WHERE id=%(id)s RETURNING id", {"at": at, "now": time.time(), "id": fact_id}
                                   ).fetchone()
                assert copy is not None
                cur.execute("INSERT INTO sources(kind, ref, turn_id) SELECT 'fact', %s, turn_id FROM sources"
                            " WHERE kind='fact' AND ref=%s", (copy[0], fact_id))
                cur.execute("UPDATE facts SET value=%s, source='edited', valid_from=%s, version=version+1,"
                            " updated=%s WHERE id=%s", (value, at, time.time(), fact_id))
        found = self.get_fact(fact_id)
        assert found is not None
        return found

    def delete_fact(self, fact_id: int) -> None:
        with self._db.tx() as cur:
            cur.execute("DELETE FROM facts WHERE id=%s", (fact_id,))
            cur.execute("DELETE FROM sources WHERE kind='fact' AND ref=%s", (fact_id,))

    def reinstate_fact(self, fact_id: int) -> None:
        """A superseded fact becomes current again (its successor was forgotten)."""
        with self._db.tx() as cur:
            cur.execute("UPDATE facts SET status='current', valid_to=NULL, version=version+1"
                        " WHERE id=%s AND status='superseded'", (fact_id,))

    def conversation_now(self, scope: Scope) -> float | None:
        """The newest turn's time in the owner scope: the clock decay and expiry run on."""
        row = self._db.one("SELECT MAX(ts) FROM turns WHERE scope_key=%s", (scope.key,))
        return None if row is None or row[0] is None else float(row[0])

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        """Every owner with turns, episodes or facts (optionally of one tenant)."""
        where = " WHERE tenant=%(t)s" if tenant else ""
        sql = " UNION ".join(f"SELECT DISTINCT tenant, agent, owner FROM {t}{where}"
                             for t in ("turns", "episodes", "facts"))
        return [Scope(r[0], r[1], r[2]) for r in self._db.rows(sql + " ORDER BY 1, 2, 3", {"t": tenant})]


def _insert(cur: psycopg.Cursor[Any], scope: Scope, d: Decision, cand: Candidate, at: float, status: str,
            version: int) -> int:
    now = time.time()
    row = cur.execute(_INSERT, (scope.key, scope.tenant_id, scope.agent_id, scope.owner, cand.category, d.key,
                                cand.value, d.confidence, cand.importance, at, at, at, cand.expires_epoch,
                                cand.source, status, version, now, now, cand.subject,
                                pc.jsonb(list(cand.mentioned)), cand.said)).fetchone()
    assert row is not None
    return int(row[0])


def _reinforce(cur: psycopg.Cursor[Any], fact: Fact, confidence: float, cand: Candidate, at: float) -> int:
    changed = cur.execute(
        "UPDATE facts SET confidence=%s, mentions=mentions+1, last_seen=GREATEST(last_seen, %s),"
        " importance=GREATEST(importance, %s), expires=COALESCE(%s, expires), version=version+1, updated=%s,"
        " said=CASE WHEN said='' THEN %s ELSE said END"  # the words it was first said in stay
        " WHERE id=%s AND version=%s AND deleted IS NULL",
        (confidence, at, cand.importance, cand.expires_epoch, time.time(), cand.said, fact.id, fact.version)
    ).rowcount
    if not changed:
        raise Conflict(f"fact {fact.id} changed while it was being updated; retry")
    return fact.id


def _supersede(cur: psycopg.Cursor[Any], scope: Scope, d: Decision, cand: Candidate, at: float) -> int:
    old = d.target
    assert old is not None
    changed = cur.execute("UPDATE facts SET status='superseded', valid_to=%s, updated=%s WHERE id=%s AND version=%s"
                          " AND status='current' AND deleted IS NULL", (at, time.time(), old.id, old.version)).rowcount
    if not changed:
        raise Conflict(f"fact {old.id} changed while it was being superseded; retry")
    if d.promote is None:
        return _insert(cur, scope, d, cand, at, "current", old.version + 1)
    changed = cur.execute(
        "UPDATE facts SET status='current', confidence=%s, mentions=mentions+1, last_seen=%s, valid_from=%s,"
        " version=%s, updated=%s WHERE id=%s AND version=%s AND status='conflict'",
        (d.confidence, at, at, old.version + 1, time.time(), d.promote.id, d.promote.version)).rowcount
    if not changed:
        raise Conflict(f"fact {d.promote.id} changed while it was being promoted; retry")
    return d.promote.id
