"""The graph port (``ports.graph.GraphPort``) in SQL, written once for SQLite and Postgres.

A triple belongs to the owner scope it was learned in; a read names the view (``TripleView``:
the owner, and whether a person's own private chat is seen from a group) and the visibility
test (``VISIBLE``) is part of every query, so no read can forget it. Traversals are one
recursive CTE. Every new entity name bumps the tenant's entity version (in ``meta``, in the
same transaction), so a name index built from them knows when it is stale. Names match in any
ASCII case (SQLite's NOCASE, ``lower()`` of a "C" text on Postgres).

What differs by backend is passed in: the ``Dialect`` (how a list, a case-blind or NULL-safe
comparison is spelt), the ``Link`` (connections and transactions), and two hooks a backend
module overrides: ``_lock`` (Postgres serialises one agent's writers) and ``queue_insights``
(the job queue is the backend's).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ..models import Entity, Insight, Scope, Triple
from ..ports.graph import EntityRef, NewTriple, TripleView
from .sql import Args, Dialect, Exec, Link, Row, add_sources, refs_with, with_sources

# whether a triple row (t, its subject entity s) is in the view (``view_args``)
VISIBLE = ("(t.scope_key = :key OR (:private AND s.person IS NOT NULL AND t.tenant = :tenant"
           " AND t.agent = :agent AND t.owner = 'u:' || s.person))")
TRIPLE_ROWS = ("SELECT t.*, s.kind AS s_kind, s.name AS s_name, s.person AS s_person,"
               " o.kind AS o_kind, o.name AS o_name, o.person AS o_person FROM triples t"
               " JOIN entities s ON s.id = t.subject LEFT JOIN entities o ON o.id = t.object")


# ---- view predicates and their arguments -------------------------------------------------------
def when(at: float | None, history: bool) -> str:
    """The time condition: every triple (history; with ``:at``, every one begun by then), those
    holding at ``:at``, or the current ones."""
    if history:
        return "TRUE" if at is None else "t.valid_from <= :at"
    if at is not None:
        return "t.valid_from <= :at AND (t.valid_to IS NULL OR t.valid_to > :at)"
    return "t.valid_to IS NULL"


def view_args(view: TripleView, at: float | None) -> dict[str, Any]:
    return {"key": view.scope.key, "tenant": view.scope.tenant_id, "agent": view.scope.agent_id,
            "private": bool(view.private), "at": at}


# ---- row codecs --------------------------------------------------------------------------------
def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def triple_of(row: Row, sources: tuple[int, ...]) -> Triple:
    """A ``TRIPLE_ROWS`` row as a Triple: its ends by person id, else by name; a literal's value."""
    literal = row["object"] is None
    obj = row["value"] if literal else (row["o_person"] or row["o_name"])
    return Triple(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), row["s_person"] or row["s_name"],
                  row["s_kind"], row["predicate"], obj, None if literal else row["o_kind"], row["qualifier"],
                  _utc(row["valid_from"]), None if row["valid_to"] is None else _utc(row["valid_to"]),
                  row["confidence"], sources, row["s_name"], row["value"] if literal else row["o_name"],
                  row["fact"], row["subject"], row["object"])


def entity_of(row: Row, aliases: tuple[str, ...] = ()) -> Entity:
    return Entity(row["id"], row["kind"], row["name"], row["person"], aliases)


def insight_of(row: Row, sources: tuple[int, ...]) -> Insight:
    return Insight(row["id"], Scope(row["tenant"], row["agent"], row["owner"]), row["person"], row["text"],
                   row["confidence"], sources, _utc(row["created"]))


class SQLGraph:
    """``GraphPort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    # ---- hooks ---------------------------------------------------------------------------------
    def _lock(self, x: Exec, scope: Scope) -> None:
        """Before a batch of triples of ``scope``'s agent is written (SQLite: its one writer is the lock)."""

    def queue_insights(self, scope: Scope, person: str, new: int, every: int) -> bool:
        raise NotImplementedError  # the backend's job queue

    # ---- writes --------------------------------------------------------------------------------
    def add_triples(self, scope: Scope, items: Sequence[NewTriple]) -> list[tuple[int, str]]:
        with self._link.write() as x:
            self._lock(x, scope)
            return [self._add_triple(x, scope, item) for item in items]

    def _add_triple(self, x: Exec, scope: Scope, new: NewTriple) -> tuple[int, str]:
        d = self._d
        subject = self._entity_id(x, scope, new.subject)
        obj = None if new.object is None else self._entity_id(x, scope, new.object)
        same = self._same(x, scope, subject, new, obj)
        if new.turn_id is not None and same:
            said = {r["ref"] for r in x.rows(f"SELECT ref FROM sources WHERE kind='triple' AND {d.in_('ref', 'refs')}"
                                             " AND turn_id=:turn", {"refs": d.ids(r["id"] for r in same),
                                                                    "turn": new.turn_id})}
            if said:
                return next(int(r["id"]) for r in same if r["id"] in said), "skipped"  # a re-run job
        open_ = [r for r in same if r["valid_to"] is None]
        if new.ends:
            for row in open_:
                x.run("UPDATE triples SET valid_to=:to WHERE id=:id", {"to": max(new.at, row["valid_from"]),
                                                                       "id": row["id"]})
            return (int(open_[0]["id"]) if open_ else 0), "ended"
        if open_:
            held = int(open_[0]["id"])
            x.run(f"UPDATE triples SET confidence={d.greatest}(confidence, :confidence),"
                  f" fact=COALESCE(fact, {d.cast(':fact', 'bigint')}) WHERE id=:id",
                  {"confidence": new.confidence, "fact": new.fact_id, "id": held})
            add_sources(x, d, "triple", held, [] if new.turn_id is None else [new.turn_id])
            return held, "reinforced"
        added = x.one(
            "INSERT INTO triples(scope_key, tenant, agent, owner, subject, predicate, object, value, qualifier,"
            " valid_from, confidence, fact, created) VALUES(:key, :tenant, :agent, :owner, :subject, :predicate,"
            " :object, :value, :qualifier, :at, :confidence, :fact, :created) RETURNING id",
            {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
             "subject": subject, "predicate": new.predicate, "object": obj, "value": new.value,
             "qualifier": new.qualifier, "at": new.at, "confidence": new.confidence, "fact": new.fact_id,
             "created": time.time()})
        assert added is not None
        tid = int(added["id"])
        add_sources(x, d, "triple", tid, [] if new.turn_id is None else [new.turn_id])
        close = (f"UPDATE triples SET valid_to={d.greatest}(:at, valid_from), closed_by=:tid WHERE scope_key=:key"
                 " AND subject=:subject AND predicate=:predicate AND valid_to IS NULL AND ")
        args = {"at": new.at, "tid": tid, "key": scope.key, "subject": subject}
        if new.functional:  # the value it replaces ends where this one starts
            x.run(close + f"{d.is_('qualifier', ':qualifier', 'text')} AND id<>:tid",
                  {**args, "predicate": new.predicate, "qualifier": new.qualifier})
        for opposite in new.closes:  # now dislikes what they liked: the like ends here
            x.run(close + f"{d.is_('object', ':object', 'bigint')} AND {d.same_text('value', ':value')}",
                  {**args, "predicate": opposite, "object": obj, "value": new.value})
        return tid, "added"

    def _same(self, x: Exec, scope: Scope, subject: int, new: NewTriple, obj: int | None) -> list[Row]:
        """The scope's triples saying the same (either way round for a symmetric predicate)."""
        d = self._d
        rows = x.rows(
            "SELECT * FROM triples WHERE scope_key=:key AND subject=:subject AND predicate=:predicate"
            f" AND {d.is_('qualifier', ':qualifier', 'text')} AND (object=:object OR (object IS NULL AND"
            f" {d.cast(':object', 'bigint')} IS NULL AND {d.same_text('value', ':value')}))"
            " ORDER BY valid_from DESC, id DESC",
            {"key": scope.key, "subject": subject, "predicate": new.predicate, "qualifier": new.qualifier,
             "object": obj, "value": new.value})
        if new.symmetric and obj is not None:
            rows += x.rows("SELECT * FROM triples WHERE scope_key=:key AND subject=:subject AND predicate=:predicate"
                           " AND object=:object ORDER BY valid_from DESC, id DESC",
                           {"key": scope.key, "subject": obj, "predicate": new.predicate, "object": subject})
        return rows

    def _entity_id(self, x: Exec, scope: Scope, ref: EntityRef) -> int:
        """The entity ``ref`` names, made on first sight (with its name and aliases)."""
        d = self._d
        who = {"tenant": scope.tenant_id, "agent": scope.agent_id}
        if ref.person is not None:
            row = x.one("SELECT id FROM entities WHERE tenant=:tenant AND agent=:agent AND person=:person"
                        " ORDER BY id LIMIT 1", {**who, "person": ref.person})
        else:
            row = x.one("SELECT e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity WHERE"
                        f" {d.same_text('a.alias', ':name')} AND e.tenant=:tenant AND e.agent=:agent AND e.kind=:kind"
                        " ORDER BY e.id LIMIT 1", {**who, "name": ref.name, "kind": ref.kind})
        if row is None:
            row = x.one("INSERT INTO entities(tenant, agent, kind, name, person, created)"
                        " VALUES(:tenant, :agent, :kind, :name, :person, :created) RETURNING id",
                        {**who, "kind": ref.kind, "name": ref.person or ref.name, "person": ref.person,
                         "created": time.time()})
            assert row is not None
        eid = int(row["id"])
        if ref.person is None:
            added = x.run("INSERT INTO entity_aliases(entity, alias, source) VALUES(:e, :name, 'name')"
                          " ON CONFLICT DO NOTHING", {"e": eid, "name": ref.name})
            if ref.aliases:
                added += x.run(f"INSERT INTO entity_aliases(entity, alias, source) SELECT :e, a.v, 'alias'"
                               f" FROM {d.each('aliases', 'text')} AS a WHERE TRUE ON CONFLICT DO NOTHING",
                               {"e": eid, "aliases": d.texts(ref.aliases)})
            if added:
                x.run("INSERT INTO meta(key, value) VALUES(:key, '1') ON CONFLICT(key) DO UPDATE"
                      " SET value=CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)", {"key": f"entities:{scope.tenant_id}"})
        return eid

    def end_fact_triples(self, fact_id: int, at: float) -> None:
        with self._link.write() as x:
            x.run(f"UPDATE triples SET valid_to={self._d.greatest}(:at, valid_from) WHERE fact=:fact"
                  " AND valid_to IS NULL", {"at": at, "fact": fact_id})

    def drop_triples(self, ids: list[int]) -> dict[int, str]:
        with self._link.write() as x:
            return self._drop(x, ids, reopen=False)

    def triples_forget(self, turn_ids: list[int]) -> dict[int, str]:
        if not turn_ids:
            return {}
        d = self._d
        gone = {"gone": d.ids(turn_ids)}
        with self._link.write() as x:
            # each triple these turns said, and whether other turns said it too
            said = x.rows(f"SELECT ref, SUM(CASE WHEN {d.in_('turn_id', 'gone')} THEN 0 ELSE 1 END) AS kept"
                          " FROM sources WHERE kind='triple' AND ref IN (SELECT ref FROM sources WHERE kind='triple'"
                          f" AND {d.in_('turn_id', 'gone')}) GROUP BY ref ORDER BY ref", gone)
            x.run(f"DELETE FROM sources WHERE kind='triple' AND {d.in_('turn_id', 'gone')}", gone)
            out = {int(r["ref"]): "rebuilt" for r in said if r["kept"]}
            out.update(self._drop(x, [int(r["ref"]) for r in said if not r["kept"]]))
        return out

    def _drop(self, x: Exec, ids: list[int], reopen: bool = True) -> dict[int, str]:
        """Delete triples with their sources; with ``reopen``, what they closed is current again
        (the statement that ended it is forgotten). An entity no triple names any more goes with
        its names."""
        if not ids:
            return {}
        d = self._d
        dropped = x.rows(f"DELETE FROM triples WHERE {d.in_('id', 'ids')} RETURNING id, subject, object",
                         {"ids": d.ids(ids)})
        out = {int(r["id"]): "deleted" for r in dropped}
        gone = {"ids": d.ids(out)}
        x.run(f"DELETE FROM sources WHERE kind='triple' AND {d.in_('ref', 'ids')}", gone)
        if reopen:
            reopened = x.rows("UPDATE triples SET valid_to=NULL, closed_by=NULL WHERE"
                              f" {d.in_('closed_by', 'ids')} RETURNING id", gone)
            out.update({int(r["id"]): "reopened" for r in reopened})
        named = {"e": d.ids(sorted({e for r in dropped for e in (r["subject"], r["object"]) if e is not None}))}
        unnamed = "NOT EXISTS(SELECT 1 FROM triples t WHERE t.subject = {0} OR t.object = {0})"
        x.run(f"DELETE FROM entity_aliases WHERE {d.in_('entity', 'e')} AND {unnamed.format('entity_aliases.entity')}",
              named)
        x.run(f"DELETE FROM entities WHERE {d.in_('id', 'e')} AND {unnamed.format('entities.id')}", named)
        return out

    # ---- reads ---------------------------------------------------------------------------------
    def entity_version(self, tenant: str) -> int:
        with self._link.read() as x:
            row = x.one("SELECT value FROM meta WHERE key=:key", {"key": f"entities:{tenant}"})
        return int(row["value"]) if row else 0

    def entity_names(self, tenant: str, agent: str) -> list[tuple[str, int]]:
        with self._link.read() as x:
            return [(r["alias"], r["id"]) for r in x.rows(
                "SELECT a.alias, e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity"
                " WHERE e.tenant=:tenant AND e.agent=:agent ORDER BY e.id, a.alias",
                {"tenant": tenant, "agent": agent})]

    def find_entities(self, tenant: str, agent: str, *, name: str | None = None,
                      persons: Sequence[str] = (), ids: Sequence[int] = ()) -> list[Entity]:
        d = self._d
        sql, args = "SELECT * FROM entities e WHERE tenant=:tenant AND agent=:agent AND ", {"tenant": tenant,
                                                                                           "agent": agent}
        if persons:
            sql, args = sql + d.in_("person", "persons", "text"), {**args, "persons": d.texts(persons)}
        elif name is not None:
            sql, args = sql + ("EXISTS(SELECT 1 FROM entity_aliases a WHERE a.entity = e.id AND"
                               f" {d.same_text('a.alias', ':name')})"), {**args, "name": name}
        else:
            sql, args = sql + d.in_("id", "ids"), {**args, "ids": d.ids(ids)}
        with self._link.read() as x:
            rows = x.rows(sql + " ORDER BY id", args)
            aliases: dict[int, list[str]] = {}
            if rows:
                for r in x.rows(f"SELECT entity, alias FROM entity_aliases WHERE {d.in_('entity', 'ids')}"
                                " ORDER BY source='alias', alias", {"ids": d.ids(r["id"] for r in rows)}):
                    aliases.setdefault(r["entity"], []).append(r["alias"])
        return [entity_of(r, tuple(a for a in aliases.get(r["id"], []) if a != r["name"])) for r in rows]

    def graph_entities_with(self, triple_ids: list[int]) -> list[int]:
        if not triple_ids:
            return []
        with self._link.read() as x:
            rows = x.rows(f"SELECT subject, object FROM triples WHERE {self._d.in_('id', 'ids')}",
                          {"ids": self._d.ids(triple_ids)})
        return sorted({e for r in rows for e in (r["subject"], r["object"]) if e is not None})

    def touches(self, view: TripleView, entities: Sequence[int]) -> set[int]:
        if not entities:
            return set()
        with self._link.read() as x:
            rows = x.rows(f"SELECT e.v AS id FROM {self._d.each('entities')} AS e WHERE EXISTS(SELECT 1"
                          " FROM triples t JOIN entities s ON s.id = t.subject WHERE (t.subject = e.v"
                          f" OR t.object = e.v) AND {VISIBLE})",
                          {**view_args(view, None), "entities": self._d.ids(entities)})
        return {int(r["id"]) for r in rows}

    def triples_about(self, view: TripleView, subjects: Sequence[int] | None, predicate: str | None,
                      at: float | None, history: bool) -> list[Triple]:
        sql = f"SELECT t.id FROM triples t JOIN entities s ON s.id = t.subject WHERE {VISIBLE} AND {when(at, history)}"
        args: Args = view_args(view, at)
        if predicate is not None:
            sql, args = sql + " AND t.predicate = :predicate", {**args, "predicate": predicate}
        if subjects is not None:
            sql, args = sql + f" AND {self._d.in_('t.subject', 'subjects')}", {**args,
                                                                               "subjects": self._d.ids(subjects)}
        return self._triples(sql, args)

    def neighbourhood(self, view: TripleView, roots: Sequence[int], hops: int, at: float | None) -> list[Triple]:
        sql = (
            "WITH RECURSIVE reach(entity, depth) AS ("
            f" SELECT e.v, 0 FROM {self._d.each('roots')} AS e"
            " UNION SELECT CASE WHEN t.subject = r.entity THEN t.object ELSE t.subject END, r.depth + 1"
            " FROM reach r JOIN triples t ON t.subject = r.entity OR t.object = r.entity"
            " JOIN entities s ON s.id = t.subject WHERE r.depth + 1 < :hops AND t.object IS NOT NULL"
            f" AND {VISIBLE} AND {when(at, False)})"
            " SELECT DISTINCT t.id FROM reach r JOIN triples t ON t.subject = r.entity OR t.object = r.entity"
            f" JOIN entities s ON s.id = t.subject WHERE {VISIBLE} AND {when(at, False)}")
        return self._triples(sql, {**view_args(view, at), "roots": self._d.ids(roots), "hops": hops})

    def _triples(self, sql: str, args: Args) -> list[Triple]:
        """The triples whose ids ``sql`` selects, read in the same connection."""
        with self._link.read() as x:
            return self._read_triples(x, [int(r["id"]) for r in x.rows(sql, args)])

    def get_triples(self, ids: Sequence[int]) -> list[Triple]:
        with self._link.read() as x:
            return self._read_triples(x, list(ids))

    def _read_triples(self, x: Exec, ids: list[int]) -> list[Triple]:
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            return []
        rows = x.rows(f"{TRIPLE_ROWS} WHERE {self._d.in_('t.id', 'ids')} ORDER BY t.valid_from, t.id",
                      {"ids": self._d.pack(wanted)})
        return with_sources(x, self._d, "triple", rows, triple_of)

    def triples_with(self, turn_ids: list[int]) -> list[int]:
        with self._link.read() as x:
            said = refs_with(x, self._d, "triple", turn_ids)
            closed = [r["id"] for r in x.rows(f"SELECT id FROM triples WHERE {self._d.in_('closed_by', 'ids')}",
                                              {"ids": self._d.pack(said)})] if said else []
        return sorted({*said, *closed})

    def fact_triples(self, fact_id: int) -> list[int]:
        with self._link.read() as x:
            return [r["id"] for r in x.rows("SELECT id FROM triples WHERE fact=:fact ORDER BY id", {"fact": fact_id})]

    # ---- insights ------------------------------------------------------------------------------
    def replace_insights(self, scope: Scope, person: str, rows: Sequence[tuple[str, float, Sequence[int]]]) -> None:
        now, d = time.time(), self._d
        who = {"key": scope.key, "tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner,
               "person": person}
        with self._link.write() as x:
            old = [r["id"] for r in x.rows("DELETE FROM insights WHERE scope_key=:key AND person=:person RETURNING id",
                                           who)]
            if old:
                x.run(f"DELETE FROM sources WHERE kind='insight' AND {d.in_('ref', 'old')}", {"old": d.ids(old)})
            for text, confidence, evidence in rows:
                row = x.one("INSERT INTO insights(scope_key, tenant, agent, owner, person, text, confidence, created)"
                            " VALUES(:key, :tenant, :agent, :owner, :person, :text, :confidence, :now) RETURNING id",
                            {**who, "text": text, "confidence": confidence, "now": now})
                assert row is not None
                add_sources(x, d, "insight", int(row["id"]), evidence)

    def insights(self, scope: Scope, person: str | None = None) -> list[Insight]:
        sql, args = "SELECT * FROM insights WHERE scope_key=:key", {"key": scope.key, "person": person}
        if person is not None:
            sql += " AND person=:person"
        with self._link.read() as x:
            return with_sources(x, self._d, "insight", x.rows(sql + " ORDER BY confidence DESC, id", args), insight_of)

    def insights_with(self, turn_ids: list[int]) -> list[int]:
        with self._link.read() as x:
            return refs_with(x, self._d, "insight", turn_ids)

    def insights_forget(self, turn_ids: list[int]) -> list[int]:
        ids = self.insights_with(turn_ids)
        if ids:
            gone = {"ids": self._d.ids(ids)}
            with self._link.write() as x:
                x.run(f"DELETE FROM insights WHERE {self._d.in_('id', 'ids')}", gone)
                x.run(f"DELETE FROM sources WHERE kind='insight' AND {self._d.in_('ref', 'ids')}", gone)
        return ids
