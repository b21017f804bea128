"""SQLite rows for the graph: entities, their aliases, triples with validity times, insights.

A mixin ``SQLiteStore`` inherits. A triple belongs to the owner scope it was learned in; a
read names the view (``TripleView``: the owner, and whether a person's own private chat is
seen from a group) and the visibility test is part of every query, so no read can forget it.
Traversals are one recursive CTE. Every new entity name bumps the tenant's entity version
(in ``meta``, in the same transaction), so a name index built from them knows when it is stale.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ...models import Entity, Insight, Scope, Triple
from ..base import EntityRef, NewTriple, TripleView
from .codec import scope_of, utc

# whether a triple row (t, its subject entity s) is in the view; named parameters
_VISIBLE = ("(t.scope_key = :key OR (:private AND s.person IS NOT NULL AND t.tenant = :tenant"
            " AND t.agent = :agent AND t.owner = 'u:' || s.person))")
_TRIPLE_ROWS = ("SELECT t.*, s.kind AS s_kind, s.name AS s_name, s.person AS s_person,"
                " o.kind AS o_kind, o.name AS o_name, o.person AS o_person FROM triples t"
                " JOIN entities s ON s.id = t.subject LEFT JOIN entities o ON o.id = t.object"
                " WHERE t.id IN ({})")


def _when(at: float | None, history: bool) -> str:
    """The time condition: every triple (history; with ``:at``, every one begun by then), those
    holding at ``:at``, or the current ones."""
    if history:
        return "1" if at is None else "t.valid_from <= :at"
    if at is not None:
        return "t.valid_from <= :at AND (t.valid_to IS NULL OR t.valid_to > :at)"
    return "t.valid_to IS NULL"


def _args(view: TripleView, at: float | None) -> dict[str, Any]:
    return {"key": view.scope.key, "tenant": view.scope.tenant_id, "agent": view.scope.agent_id,
            "private": int(view.private), "at": at}


def _triple(row: sqlite3.Row, sources: tuple[int, ...]) -> Triple:
    subject = row["s_person"] or row["s_name"]
    literal = row["object"] is None
    obj = row["value"] if literal else (row["o_person"] or row["o_name"])
    return Triple(row["id"], scope_of(row), subject, row["s_kind"], row["predicate"], obj,
                  None if literal else row["o_kind"], row["qualifier"], utc(row["valid_from"]),
                  None if row["valid_to"] is None else utc(row["valid_to"]), row["confidence"], sources,
                  row["s_name"], row["value"] if literal else row["o_name"], row["fact"], row["subject"],
                  row["object"])


def _entity(row: sqlite3.Row, aliases: tuple[str, ...] = ()) -> Entity:
    return Entity(row["id"], row["kind"], row["name"], row["person"], aliases)


class GraphRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _sources(self, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]: ...
        def _refs_with(self, kind: str, turn_ids: list[int]) -> list[int]: ...
        def _select_in(self, sql: str, args: list[Any], values: list[Any]) -> Iterable[sqlite3.Row]: ...

    # ---- writes ------------------------------------------------------------------------------
    def add_triples(self, scope: Scope, items: Sequence[NewTriple]) -> list[tuple[int, str]]:
        """Record what a batch of turns said, in order, in one transaction: each item adds a
        triple, reinforces the same open one (another source), or ends one ("no longer likes").
        A new value of a functional predicate closes the open one (valid_to = the new
        valid_from, closed_by = the new id). Returns (triple id, "added" | "reinforced" |
        "ended" | "skipped") per item; a re-run turn is "skipped"."""
        out: list[tuple[int, str]] = []
        with self._tx() as conn:
            for item in items:
                out.append(self._add_triple(conn, scope, item))
        return out

    def _add_triple(self, conn: sqlite3.Connection, scope: Scope, new: NewTriple) -> tuple[int, str]:
        subject = self._entity_id(conn, scope, new.subject)
        obj = None if new.object is None else self._entity_id(conn, scope, new.object)
        same = self._same(conn, scope, subject, new, obj)
        if new.turn_id is not None:
            for row in same:
                if conn.execute("SELECT 1 FROM sources WHERE kind='triple' AND ref=? AND turn_id=?",
                                (row["id"], new.turn_id)).fetchone():
                    return int(row["id"]), "skipped"  # a re-run job
        open_ = [r for r in same if r["valid_to"] is None]
        if new.ends:
            for row in open_:
                conn.execute("UPDATE triples SET valid_to=? WHERE id=?", (max(new.at, row["valid_from"]), row["id"]))
            return (int(open_[0]["id"]) if open_ else 0), "ended"
        if open_:
            held = open_[0]
            conn.execute("UPDATE triples SET confidence=MAX(confidence, ?), fact=COALESCE(fact, ?) WHERE id=?",
                         (new.confidence, new.fact_id, held["id"]))
            self._source(conn, int(held["id"]), new.turn_id)
            return int(held["id"]), "reinforced"
        cur = conn.execute(
            "INSERT INTO triples(scope_key, tenant, agent, owner, subject, predicate, object, value, qualifier,"
            " valid_from, confidence, fact, created) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (scope.key, scope.tenant_id, scope.agent_id, scope.owner, subject, new.predicate, obj, new.value,
             new.qualifier, new.at, new.confidence, new.fact_id, time.time()))
        tid = int(cur.lastrowid or 0)
        self._source(conn, tid, new.turn_id)
        if new.functional:  # the value it replaces ends where this one starts
            conn.execute(
                "UPDATE triples SET valid_to=MAX(?, valid_from), closed_by=? WHERE scope_key=? AND subject=?"
                " AND predicate=? AND qualifier IS ? AND valid_to IS NULL AND id<>?",
                (new.at, tid, scope.key, subject, new.predicate, new.qualifier, tid))
        for opposite in new.closes:  # now dislikes what they liked: the like ends here
            conn.execute(
                "UPDATE triples SET valid_to=MAX(?, valid_from), closed_by=? WHERE scope_key=? AND subject=?"
                " AND predicate=? AND object IS ? AND value=? COLLATE NOCASE AND valid_to IS NULL",
                (new.at, tid, scope.key, subject, opposite, obj, new.value))
        return tid, "added"

    @staticmethod
    def _same(conn: sqlite3.Connection, scope: Scope, subject: int, new: NewTriple,
              obj: int | None) -> list[sqlite3.Row]:
        """The scope's triples saying the same (either way round for a symmetric predicate)."""
        rows = conn.execute(
            "SELECT * FROM triples WHERE scope_key=? AND subject=? AND predicate=? AND qualifier IS ?"
            " AND (object=? OR (object IS NULL AND ? IS NULL AND value=? COLLATE NOCASE))"
            " ORDER BY valid_from DESC, id DESC",
            (scope.key, subject, new.predicate, new.qualifier, obj, obj, new.value)).fetchall()
        if new.symmetric and obj is not None:
            rows += conn.execute(
                "SELECT * FROM triples WHERE scope_key=? AND subject=? AND predicate=? AND object=?"
                " ORDER BY valid_from DESC, id DESC", (scope.key, obj, new.predicate, subject)).fetchall()
        return rows

    @staticmethod
    def _source(conn: sqlite3.Connection, triple: int, turn_id: int | None) -> None:
        if turn_id is not None:
            conn.execute("INSERT OR IGNORE INTO sources(kind, ref, turn_id) VALUES('triple',?,?)", (triple, turn_id))

    def _entity_id(self, conn: sqlite3.Connection, scope: Scope, ref: EntityRef) -> int:
        """The entity ``ref`` names, made on first sight (with its name and aliases)."""
        tenant, agent = scope.tenant_id, scope.agent_id
        if ref.person is not None:
            row = conn.execute("SELECT id FROM entities WHERE tenant=? AND agent=? AND person=?",
                               (tenant, agent, ref.person)).fetchone()
        else:
            row = conn.execute("SELECT e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity"
                               " WHERE a.alias = ? COLLATE NOCASE AND e.tenant=? AND e.agent=? AND e.kind=?"
                               " ORDER BY e.id LIMIT 1", (ref.name, tenant, agent, ref.kind)).fetchone()
        if row is not None:
            eid = int(row[0])
        else:
            cur = conn.execute("INSERT INTO entities(tenant, agent, kind, name, person, created) VALUES(?,?,?,?,?,?)",
                               (tenant, agent, ref.kind, ref.person or ref.name, ref.person, time.time()))
            eid = int(cur.lastrowid or 0)
        if ref.person is None:
            names = [(eid, ref.name, "name"), *((eid, a, "alias") for a in ref.aliases)]
            added = conn.executemany("INSERT OR IGNORE INTO entity_aliases(entity, alias, source) VALUES(?,?,?)",
                                     names).rowcount
            if added:
                conn.execute("INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT DO UPDATE"
                             " SET value=CAST(value AS INTEGER)+1", (f"entities:{tenant}",))
        return eid

    # ---- reads -------------------------------------------------------------------------------
    def entity_version(self, tenant: str) -> int:
        row = self._read.execute("SELECT value FROM meta WHERE key=?", (f"entities:{tenant}",)).fetchone()
        return int(row[0]) if row else 0

    def entity_names(self, tenant: str, agent: str) -> list[tuple[str, int]]:
        """(name or alias, entity id) of every entity that is not a person (people are named by
        the registry's aliases)."""
        return [(r[0], r[1]) for r in self._read.execute(
            "SELECT a.alias, e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity"
            " WHERE e.tenant=? AND e.agent=?", (tenant, agent))]

    def find_entities(self, tenant: str, agent: str, *, name: str | None = None,
                      persons: Sequence[str] = (), ids: Sequence[int] = ()) -> list[Entity]:
        """Entities by a name or alias (any case), by person ids, or by ids; with their aliases."""
        if persons:
            rows = list(self._select_in("SELECT * FROM entities WHERE tenant=? AND agent=? AND person IN ({})",
                                        [tenant, agent], list(persons)))
        elif name is not None:
            rows = self._read.execute(
                "SELECT DISTINCT e.* FROM entity_aliases a JOIN entities e ON e.id = a.entity"
                " WHERE a.alias = ? COLLATE NOCASE AND e.tenant=? AND e.agent=? ORDER BY e.id",
                (name, tenant, agent)).fetchall()
        else:
            rows = list(self._select_in("SELECT * FROM entities WHERE tenant=? AND agent=? AND id IN ({})",
                                        [tenant, agent], list(ids)))
        aliases: dict[int, list[str]] = {}
        sql = "SELECT entity, alias FROM entity_aliases WHERE entity IN ({}) ORDER BY source='alias', alias"
        for entity, alias in self._select_in(sql, [], [r["id"] for r in rows]):
            aliases.setdefault(entity, []).append(alias)
        return [_entity(r, tuple(a for a in aliases.get(r["id"], []) if a != r["name"])) for r in rows]

    def touches(self, view: TripleView, entities: Sequence[int]) -> set[int]:
        """Those of ``entities`` that some triple in the view (at any time) names."""
        found: set[int] = set()
        for eid in entities:
            row = self._read.execute(
                f"SELECT 1 FROM triples t JOIN entities s ON s.id = t.subject WHERE (t.subject = :e OR t.object = :e)"
                f" AND {_VISIBLE} LIMIT 1", {**_args(view, None), "e": eid}).fetchone()
            if row is not None:
                found.add(eid)
        return found

    def triples_about(self, view: TripleView, subjects: Sequence[int] | None, predicate: str | None,
                      at: float | None, history: bool) -> list[Triple]:
        """The view's triples whose subject is one of ``subjects`` (None: any), of ``predicate``
        (None: any), holding at ``at`` (None: now), or all of them (``history``; with ``at``, all
        those begun by then); oldest first."""
        sql = (f"SELECT t.id FROM triples t JOIN entities s ON s.id = t.subject WHERE {_VISIBLE}"
               f" AND {_when(at, history)}")
        args = _args(view, at)
        if predicate is not None:
            sql, args = sql + " AND t.predicate = :predicate", {**args, "predicate": predicate}
        if subjects is not None:
            sql, args = sql + " AND t.subject IN (SELECT value FROM json_each(:subjects))", {
                **args, "subjects": json.dumps(list(subjects))}
        return self.get_triples([r[0] for r in self._read.execute(sql, args)])

    def neighbourhood(self, view: TripleView, roots: Sequence[int], hops: int, at: float | None) -> list[Triple]:
        """The view's triples holding at ``at`` (None: current) within ``hops`` of ``roots``: hop 1
        is every triple naming a root (as subject or object); hop 2 adds those naming the
        entities hop 1 reached. One recursive query."""
        when = _when(at, False)
        sql = (
            "WITH RECURSIVE reach(entity, depth) AS ("
            " SELECT value, 0 FROM json_each(:roots)"
            " UNION SELECT CASE WHEN t.subject = r.entity THEN t.object ELSE t.subject END, r.depth + 1"
            " FROM reach r JOIN triples t ON t.subject = r.entity OR t.object = r.entity"
            f" JOIN entities s ON s.id = t.subject WHERE r.depth + 1 < :hops AND t.object IS NOT NULL"
            f" AND {_VISIBLE} AND {when})"
            " SELECT DISTINCT t.id FROM reach r JOIN triples t ON t.subject = r.entity OR t.object = r.entity"
            f" JOIN entities s ON s.id = t.subject WHERE {_VISIBLE} AND {when}")
        args = {**_args(view, at), "roots": json.dumps(list(roots)), "hops": hops}
        return self.get_triples([r[0] for r in self._read.execute(sql, args)])

    def get_triples(self, ids: Sequence[int]) -> list[Triple]:
        """Triples by id with their entities' names and source turns, oldest first."""
        rows = list(self._select_in(_TRIPLE_ROWS, [], list(dict.fromkeys(ids))))
        sources = self._sources("triple", [r["id"] for r in rows])
        rows.sort(key=lambda r: (r["valid_from"], r["id"]))
        return [_triple(r, sources.get(r["id"], ())) for r in rows]

    def triples_with(self, turn_ids: list[int]) -> list[int]:
        """Triples a turn said, and the ones those closed (a forget reopens them)."""
        said = self._refs_with("triple", turn_ids) if turn_ids else []
        closed = [r[0] for r in self._select_in("SELECT id FROM triples WHERE closed_by IN ({})", [], said)]
        return sorted({*said, *closed})

    # ---- forgetting ------------------------------------------------------------------------------
    def triples_forget(self, turn_ids: list[int]) -> dict[int, str]:
        """After turns are deleted: a triple only they said goes ("deleted"), one others said too
        keeps them ("rebuilt"), a triple a deleted one had closed is current again ("reopened");
        an entity no triple names any more goes with its names."""
        if not turn_ids:
            return {}
        out: dict[int, str] = {}
        gone = set(turn_ids)
        with self._tx() as conn:
            marks = ",".join("?" * len(turn_ids))
            said = [r[0] for r in conn.execute(
                f"SELECT DISTINCT ref FROM sources WHERE kind='triple' AND turn_id IN ({marks})", turn_ids)]
            dropped = []
            for tid in said:
                left = {r[0] for r in conn.execute("SELECT turn_id FROM sources WHERE kind='triple' AND ref=?",
                                                   (tid,))} - gone
                conn.execute(f"DELETE FROM sources WHERE kind='triple' AND ref=? AND turn_id IN ({marks})",
                             [tid, *turn_ids])
                if left:
                    out[tid] = "rebuilt"
                else:
                    dropped.append(tid)
            out.update(self._drop(conn, dropped))
        return out

    def end_fact_triples(self, fact_id: int, at: float) -> None:
        """The open triples saying a fact end at ``at`` (its value was corrected by hand)."""
        with self._tx() as conn:
            conn.execute("UPDATE triples SET valid_to=MAX(?, valid_from) WHERE fact=? AND valid_to IS NULL",
                         (at, fact_id))

    def fact_triples(self, fact_id: int) -> list[int]:
        """The triples that say a profile fact (a hand-deleted fact takes them along)."""
        return [r[0] for r in self._read.execute("SELECT id FROM triples WHERE fact=?", (fact_id,))]

    def drop_triples(self, ids: list[int]) -> dict[int, str]:
        """Delete triples ("deleted"); what they closed stays closed, as a deleted fact's history
        stays history."""
        with self._tx() as conn:
            return self._drop(conn, ids, reopen=False)

    @staticmethod
    def _drop(conn: sqlite3.Connection, ids: list[int], reopen: bool = True) -> dict[int, str]:
        """Delete triples with their sources; with ``reopen``, what they closed is current again
        (the statement that ended it is forgotten). An entity no triple names any more goes with
        its names."""
        out: dict[int, str] = {}
        entities: set[int] = set()
        for tid in ids:
            row = conn.execute("SELECT subject, object FROM triples WHERE id=?", (tid,)).fetchone()
            if row is None:
                continue
            entities.update(e for e in (row[0], row[1]) if e is not None)
            conn.execute("DELETE FROM triples WHERE id=?", (tid,))
            conn.execute("DELETE FROM sources WHERE kind='triple' AND ref=?", (tid,))
            out[tid] = "deleted"
            closed = conn.execute("SELECT id FROM triples WHERE closed_by=?", (tid,)).fetchall() if reopen else []
            for (reopened,) in closed:
                conn.execute("UPDATE triples SET valid_to=NULL, closed_by=NULL WHERE id=?", (reopened,))
                out[reopened] = "reopened"
        for eid in entities:
            if not conn.execute("SELECT 1 FROM triples WHERE subject=? OR object=? LIMIT 1", (eid, eid)).fetchone():
                conn.execute("DELETE FROM entity_aliases WHERE entity=?", (eid,))
                conn.execute("DELETE FROM entities WHERE id=?", (eid,))
        return out

    def graph_entities_with(self, triple_ids: list[int]) -> list[int]:
        """The entities these triples name (a forget snapshots them: it may delete them)."""
        rows = self._select_in("SELECT subject, object FROM triples WHERE id IN ({})", [], triple_ids)
        return sorted({e for r in rows for e in (r[0], r[1]) if e is not None})

    # ---- insights --------------------------------------------------------------------------------
    def replace_insights(self, scope: Scope, person: str, rows: Sequence[tuple[str, float, Sequence[int]]]) -> None:
        """The person's insights in the scope become ``rows`` (text, confidence, evidence turns)."""
        now = time.time()
        with self._tx() as conn:
            old = [r[0] for r in conn.execute("SELECT id FROM insights WHERE scope_key=? AND person=?",
                                              (scope.key, person))]
            conn.executemany("DELETE FROM sources WHERE kind='insight' AND ref=?", [(i,) for i in old])
            conn.execute("DELETE FROM insights WHERE scope_key=? AND person=?", (scope.key, person))
            for text, confidence, evidence in rows:
                cur = conn.execute(
                    "INSERT INTO insights(scope_key, tenant, agent, owner, person, text, confidence, created)"
                    " VALUES(?,?,?,?,?,?,?,?)",
                    (scope.key, scope.tenant_id, scope.agent_id, scope.owner, person, text, confidence, now))
                conn.executemany("INSERT OR IGNORE INTO sources(kind, ref, turn_id) VALUES('insight',?,?)",
                                 [(cur.lastrowid, t) for t in evidence])

    def insights(self, scope: Scope, person: str | None = None) -> list[Insight]:
        sql, args = "SELECT * FROM insights WHERE scope_key=?", [scope.key]
        if person is not None:
            sql, args = sql + " AND person=?", [*args, person]
        rows = self._read.execute(sql + " ORDER BY confidence DESC, id", args).fetchall()
        sources = self._sources("insight", [r["id"] for r in rows])
        return [Insight(r["id"], scope_of(r), r["person"], r["text"], r["confidence"], sources.get(r["id"], ()),
                        utc(r["created"])) for r in rows]

    def insights_with(self, turn_ids: list[int]) -> list[int]:
        return self._refs_with("insight", turn_ids) if turn_ids else []

    def insights_forget(self, turn_ids: list[int]) -> list[int]:
        """An insight whose evidence loses a turn goes: it was inferred from what is forgotten."""
        ids = self.insights_with(turn_ids)
        with self._tx() as conn:
            conn.executemany("DELETE FROM insights WHERE id=?", [(i,) for i in ids])
            conn.executemany("DELETE FROM sources WHERE kind='insight' AND ref=?", [(i,) for i in ids])
        return ids

    def queue_insights(self, scope: Scope, person: str, new: int, every: int) -> bool:
        """Count ``new`` triples learned about a person in a scope; once ``every`` have come
        since the last time, queue an ``insights`` job for them there (True), unless one is still
        waiting: it will read these too (coalesced). The count and the job are one transaction."""
        key = f"insight:{scope.key}:{person}"
        payload = json.dumps({"tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
                              "person": person})
        with self._tx() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
            count = (int(row[0]) if row else 0) + new
            due = count >= every
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?,?)", (key, str(0 if due else count)))
            waiting = conn.execute("SELECT 1 FROM jobs WHERE kind='insights' AND status='pending' AND payload=?",
                                   (payload,)).fetchone()
            if due and waiting is None:
                now = time.time()
                conn.execute("INSERT INTO jobs(kind, payload, created, updated) VALUES('insights', ?, ?, ?)",
                             (payload, now, now))
        return due and waiting is None
