"""The facts port (``ports.facts.FactPort``) in SQL, written once for SQLite and Postgres: no
backend module of its own (sqlite/profile_store.py and postgres/facts.py were the same Python
twice). What the two spell apart is the ``Dialect``: a JSON list written as jsonb on Postgres
(``cast``), the larger of two values (``greatest``), and the row lock a hand edit takes first
(``lock``: ``FOR UPDATE`` on Postgres; SQLite's one writer holds the database).

Every change checks the version that was read (``WHERE version=…``): a writer that waited for
another finds the version moved on and changes nothing, which is a ``Conflict`` to retry.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ..errors import Conflict, InvalidInput, NotFound
from ..models import Candidate, Decision, Fact, Scope
from ..ports.facts import ANY
from .sql import Dialect, Exec, Link, Row, by_id, drop, refs_with, with_sources

# every column but the id, as a copy of a row (edit_fact) lists them
COLUMNS = ("scope_key", "tenant", "agent", "owner", "category", "key", "value", "confidence", "importance",
           "mentions", "first_seen", "last_seen", "valid_from", "valid_to", "expires", "source", "status",
           "version", "created", "updated", "deleted", "deleted_reason", "subject", "mentioned", "said")
ORDER = " ORDER BY category, key, version, id"


def _utc(epoch: float | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


def listed(value: Any) -> list[Any]:
    """A JSON list column as a list (SQLite gives its text, Postgres the jsonb decoded)."""
    return json.loads(value) if isinstance(value, str) else list(value or [])


def fact_of(row: Row, sources: tuple[int, ...]) -> Fact:
    return Fact(id=row["id"], scope=Scope(row["tenant"], row["agent"], row["owner"]), category=row["category"],
                key=row["key"], value=row["value"], confidence=round(row["confidence"], 6),
                mentions=row["mentions"], first_seen=datetime.fromtimestamp(row["first_seen"], UTC),
                last_seen=datetime.fromtimestamp(row["last_seen"], UTC),
                valid_from=datetime.fromtimestamp(row["valid_from"], UTC), valid_to=_utc(row["valid_to"]),
                expires_at=_utc(row["expires"]), source=row["source"], sources=sources, status=row["status"],
                version=row["version"], importance=row["importance"], subject_id=row["subject"],
                mentioned=tuple(listed(row["mentioned"])), said=row["said"])


def facts_read(where: str, args: dict[str, Any], history: bool) -> tuple[str, dict[str, Any]]:
    """The live facts ``where`` selects, current only unless ``history``, in the port's order."""
    current = "" if history else " AND status='current'"
    return f"SELECT * FROM facts WHERE {where} AND deleted IS NULL{current}{ORDER}", args


def subjects_read(d: Dialect, tenant: str, agent: str, subjects: Sequence[str],
                  history: bool) -> tuple[str, dict[str, Any]]:
    """The facts about any of ``subjects`` (``facts_about`` of several people in one read)."""
    return facts_read(f"tenant=:tenant AND agent=:agent AND {d.in_('subject', 'subjects', 'text')}",
                      {"tenant": tenant, "agent": agent, "subjects": d.texts(subjects)}, history)


def by_subject(owners: Mapping[str, Sequence[str] | None], facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    """``facts`` of each subject in ``owners`` that were learned where it is read (None: anywhere)."""
    out: dict[str, list[Fact]] = {s: [] for s in owners}
    for fact in facts:
        subject = fact.subject_id or ""
        where = owners.get(subject)
        if subject in out and (where is None or fact.scope.owner in where):
            out[subject].append(fact)
    return out


class SQLFacts:
    """``FactPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    # ---- reads ------------------------------------------------------------------------------
    def facts(self, scope: Scope, history: bool = False, subject: str | None = ANY) -> list[Fact]:
        where, args = "scope_key=:key", {"key": scope.key, "subject": subject}
        if subject is None:
            where += " AND subject IS NULL"
        elif subject != ANY:
            where += " AND subject=:subject"
        return self._built(*facts_read(where, args, history))

    def facts_about(self, tenant: str, agent: str, subject: str, owners: list[str] | None = None,
                    history: bool = False) -> list[Fact]:
        where = "tenant=:tenant AND agent=:agent AND subject=:subject"
        if owners is not None:
            where += f" AND {self._d.in_('owner', 'owners', 'text')}"
        args = {"tenant": tenant, "agent": agent, "subject": subject,
                "owners": None if owners is None else self._d.texts(owners)}
        return self._built(*facts_read(where, args, history))

    def _built(self, sql: str, args: dict[str, Any]) -> list[Fact]:
        with self._link.read() as x:
            return with_sources(x, self._d, "fact", x.rows(sql, args), fact_of)

    def get_fact(self, fact_id: int) -> Fact | None:
        with self._link.read() as x:
            return next(iter(self._by_id(x, [fact_id])), None)

    def facts_with(self, turn_ids: list[int]) -> list[Fact]:
        with self._link.read() as x:
            return self._by_id(x, refs_with(x, self._d, "fact", turn_ids))

    def _by_id(self, x: Exec, ids: list[int]) -> list[Fact]:
        return by_id(x, self._d, "facts", "fact", ids, fact_of, " AND deleted IS NULL")

    # ---- writes -----------------------------------------------------------------------------
    def upsert_fact(self, scope: Scope, decision: Decision, cand: Candidate, turn_id: int | None,
                    at: float) -> Fact | None:
        if decision.action == "skip":
            return decision.target
        with self._link.write() as x:
            if decision.action == "insert":
                fid = self._insert(x, scope, decision, cand, at, "current", 1)
            elif decision.action == "supersede":
                fid = self._supersede(x, scope, decision, cand, at)
            elif decision.action == "reinforce" or decision.reinforce is not None:  # or a conflict stated again
                assert decision.reinforce is not None
                fid = self._reinforce(x, decision.reinforce, decision.confidence, cand, at)
            else:
                fid = self._insert(x, scope, decision, cand, at, "conflict", 1)
            if turn_id is not None:
                x.run("INSERT INTO sources(kind, ref, turn_id) VALUES('fact', :ref, :turn) ON CONFLICT DO NOTHING",
                      {"ref": fid, "turn": turn_id})
        return self.get_fact(fid)

    def _insert(self, x: Exec, scope: Scope, d: Decision, cand: Candidate, at: float, status: str,
                version: int) -> int:
        now = time.time()
        row = x.one("INSERT INTO facts(scope_key, tenant, agent, owner, category, key, value, confidence, importance,"
                    " mentions, first_seen, last_seen, valid_from, expires, source, status, version, created, updated,"
                    " subject, mentioned, said) VALUES(:scope_key, :tenant, :agent, :owner, :category, :key, :value,"
                    " :confidence, :importance, 1, :at, :at, :at, :expires, :source, :status, :version, :now, :now,"
                    f" :subject, {self._d.cast(':mentioned', 'jsonb')}, :said) RETURNING id",
                    {"scope_key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                     "category": cand.category, "key": d.key, "value": cand.value, "confidence": d.confidence,
                     "importance": cand.importance, "at": at, "expires": cand.expires_epoch, "source": cand.source,
                     "status": status, "version": version, "now": now, "subject": cand.subject,
                     "mentioned": json.dumps(list(cand.mentioned), ensure_ascii=False), "said": cand.said})
        assert row is not None
        return int(row["id"])

    def _reinforce(self, x: Exec, fact: Fact, confidence: float, cand: Candidate, at: float) -> int:
        most = self._d.greatest
        if not x.run(f"UPDATE facts SET confidence=:confidence, mentions=mentions+1, last_seen={most}(last_seen, :at),"
                     f" importance={most}(importance, :importance), expires=COALESCE(:expires, expires),"
                     " version=version+1, updated=:now,"
                     " said=CASE WHEN said='' THEN :said ELSE said END"  # the words it was first said in stay
                     " WHERE id=:id AND version=:version AND deleted IS NULL",
                     {"confidence": confidence, "at": at, "importance": cand.importance,
                      "expires": cand.expires_epoch, "now": time.time(), "said": cand.said, "id": fact.id,
                      "version": fact.version}):
            raise Conflict(f"fact {fact.id} changed while it was being updated; retry")
        return fact.id

    def _supersede(self, x: Exec, scope: Scope, d: Decision, cand: Candidate, at: float) -> int:
        old = d.target
        assert old is not None
        if not x.run("UPDATE facts SET status='superseded', valid_to=:at, updated=:now WHERE id=:id"
                     " AND version=:version AND status='current' AND deleted IS NULL",
                     {"at": at, "now": time.time(), "id": old.id, "version": old.version}):
            raise Conflict(f"fact {old.id} changed while it was being superseded; retry")
        if d.promote is None:
            return self._insert(x, scope, d, cand, at, "current", old.version + 1)
        if not x.run("UPDATE facts SET status='current', confidence=:confidence, mentions=mentions+1, last_seen=:at,"
                     " valid_from=:at, version=:new, updated=:now WHERE id=:id AND version=:version"
                     " AND status='conflict'", {"confidence": d.confidence, "at": at, "new": old.version + 1,
                                                "now": time.time(), "id": d.promote.id,
                                                "version": d.promote.version}):
            raise Conflict(f"fact {d.promote.id} changed while it was being promoted; retry")
        return d.promote.id

    def expire_fact(self, fact_id: int, at: float) -> None:
        with self._link.write() as x:
            x.run("UPDATE facts SET status='expired', valid_to=:at, version=version+1 WHERE id=:id"
                  " AND status='current'", {"at": at, "id": fact_id})

    def unexpire_fact(self, fact_id: int) -> None:
        self._revive(fact_id, "expired")

    def reinstate_fact(self, fact_id: int) -> None:
        self._revive(fact_id, "superseded")

    def _revive(self, fact_id: int, status: str) -> None:
        with self._link.write() as x:
            x.run("UPDATE facts SET status='current', valid_to=NULL, version=version+1 WHERE id=:id AND status=:status",
                  {"id": fact_id, "status": status})

    def drop_fact_sources(self, fact_id: int, turn_ids: Iterable[int]) -> None:
        gone = [int(t) for t in turn_ids]
        with self._link.write() as x:
            x.run(f"DELETE FROM sources WHERE kind='fact' AND ref=:id AND {self._d.in_('turn_id', 'turns')}",
                  {"id": fact_id, "turns": self._d.pack(gone)})
            x.run(f"UPDATE facts SET mentions={self._d.greatest}(1, mentions - :n), version=version+1 WHERE id=:id",
                  {"n": len(gone), "id": fact_id})

    def edit_fact(self, fact_id: int, value: str, version: int | None, at: float) -> Fact:
        with self._link.write() as x:
            row = x.one(f"SELECT value, status, version FROM facts WHERE id=:id AND deleted IS NULL{self._d.lock}",
                        {"id": fact_id})
            if row is None:
                raise NotFound(f"fact {fact_id} does not exist")
            if version is not None and row["version"] != version:
                raise Conflict(f"fact {fact_id} is at version {row['version']}, not {version}: read it again"
                               " and retry", current_version=row["version"])
            if row["status"] != "current":
                raise InvalidInput(f"fact {fact_id} is {row['status']}: it is history; edit the current value")
            if row["value"] != value:
                self._keep_old(x, fact_id, value, at)
        found = self.get_fact(fact_id)
        assert found is not None
        return found

    @staticmethod
    def _keep_old(x: Exec, fact_id: int, value: str, at: float) -> None:
        """The fact's value becomes ``value``; the old one stays as a superseded copy with its sources."""
        now = time.time()
        copied = ", ".join({"status": "'superseded'", "valid_to": ":at", "updated": ":now"}.get(c, c) for c in COLUMNS)
        copy = x.one(f"INSERT INTO facts({', '.join(COLUMNS)}) SELECT {copied} FROM facts WHERE id=:id RETURNING id",
                     {"at": at, "now": now, "id": fact_id})
        assert copy is not None
        x.run("INSERT INTO sources(kind, ref, turn_id) SELECT 'fact', :copy, turn_id FROM sources"
              " WHERE kind='fact' AND ref=:id", {"copy": copy["id"], "id": fact_id})
        x.run("UPDATE facts SET value=:value, source='edited', valid_from=:at, version=version+1, updated=:now"
              " WHERE id=:id", {"value": value, "at": at, "now": time.time(), "id": fact_id})

    def delete_fact(self, fact_id: int) -> None:
        with self._link.write() as x:
            drop(x, "facts", "fact", fact_id)
