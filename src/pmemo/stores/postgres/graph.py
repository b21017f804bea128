"""The graph on PostgreSQL: entities, their aliases, triples with validity times, insights
(GraphStore, a mixin).

A triple belongs to the owner scope it was learned in; a read names the view (``TripleView``:
the owner, and whether a person's own private chat is seen from a group) and the visibility
test is part of every query, so no read can forget it. Traversals are one recursive CTE, as
on SQLite. Names match in any ASCII case, as SQLite's NOCASE does (``lower()`` of "C" text).
Every new entity name bumps the tenant's entity version (in ``meta``, in the same transaction),
so a name index built from them knows when it is stale. Triples of one tenant's agent are
written under a transaction lock on it, so two jobs learning the same statement or naming the same
new entity at once make one triple, one entity.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from ...models import Entity, Insight, Scope, Triple
from ..base import EntityRef, NewTriple, TripleView
from .codec import scope_of, utc
from .database import lock_key
from .people import bump
from .provenance import SourceRows

# whether a triple row (t, its subject entity s) is in the view; named parameters
_VISIBLE = ("(t.scope_key = %(key)s OR (%(private)s AND s.person IS NOT NULL AND t.tenant = %(tenant)s"
            " AND t.agent = %(agent)s AND t.owner = 'u:' || s.person))")
_TRIPLE_ROWS = ("SELECT t.*, s.kind AS s_kind, s.name AS s_name, s.person AS s_person,"
                " o.kind AS o_kind, o.name AS o_name, o.person AS o_person FROM triples t"
                " JOIN entities s ON s.id = t.subject LEFT JOIN entities o ON o.id = t.object"
                " WHERE t.id = ANY(%s::bigint[])")


def _when(at: float | None, history: bool) -> str:
    """The time condition: every triple (history; with ``at``, every one begun by then), those
    holding at ``at``, or the current ones."""
    if history:
        return "true" if at is None else "t.valid_from <= %(at)s"
    if at is not None:
        return "t.valid_from <= %(at)s AND (t.valid_to IS NULL OR t.valid_to > %(at)s)"
    return "t.valid_to IS NULL"


def _args(view: TripleView, at: float | None) -> dict[str, Any]:
    return {"key": view.scope.key, "tenant": view.scope.tenant_id, "agent": view.scope.agent_id,
            "private": view.private, "at": at}


def _triple(row: dict[str, Any], sources: tuple[int, ...]) -> Triple:
    subject = row["s_person"] or row["s_name"]
    literal = row["object"] is None
    obj = row["value"] if literal else (row["o_person"] or row["o_name"])
    return Triple(row["id"], scope_of(row), subject, row["s_kind"], row["predicate"], obj,
                  None if literal else row["o_kind"], row["qualifier"], utc(row["valid_from"]),
                  None if row["valid_to"] is None else utc(row["valid_to"]), row["confidence"], sources,
                  row["s_name"], row["value"] if literal else row["o_name"], row["fact"], row["subject"],
                  row["object"])


def _entity(row: dict[str, Any], aliases: tuple[str, ...] = ()) -> Entity:
    return Entity(row["id"], row["kind"], row["name"], row["person"], aliases)


class GraphRows(SourceRows):
    # ---- writes ------------------------------------------------------------------------------
    def add_triples(self, scope: Scope, items: Sequence[NewTriple]) -> list[tuple[int, str]]:
        """Record what a batch of turns said, in order, in one transaction: each item adds a
        triple, reinforces the same open one (another source), or ends one ("no longer likes").
        A new value of a functional predicate closes the open one (valid_to = the new
        valid_from, closed_by = the new id). Returns (triple id, "added" | "reinforced" |
        "ended" | "skipped") per item; a re-run turn is "skipped"."""
        out: list[tuple[int, str]] = []
        with self._db.tx() as tx, tx.connection.cursor(row_factory=dict_row) as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("graph", scope.tenant_id, scope.agent_id),))
            for item in items:
                out.append(self._add_triple(cur, scope, item))
        return out

    def _add_triple(self, cur: psycopg.Cursor[Any], scope: Scope, new: NewTriple) -> tuple[int, str]:
        subject = self._entity_id(cur, scope, new.subject)
        obj = None if new.object is None else self._entity_id(cur, scope, new.object)
        same = self._same(cur, scope, subject, new, obj)
        if new.turn_id is not None and same:
            said = cur.execute("SELECT ref FROM sources WHERE kind='triple' AND ref = ANY(%s::bigint[])"
                               " AND turn_id=%s", ([r["id"] for r in same], new.turn_id)).fetchall()
            if said:
                known = {r["ref"] for r in said}
                return next(int(r["id"]) for r in same if r["id"] in known), "skipped"  # a re-run job
        open_ = [r for r in same if r["valid_to"] is None]
        if new.ends:
            for row in open_:
                cur.execute("UPDATE triples SET valid_to=%s WHERE id=%s", (max(new.at, row["valid_from"]), row["id"]))
            return (int(open_[0]["id"]) if open_ else 0), "ended"
        if open_:
            held = int(open_[0]["id"])
            cur.execute("UPDATE triples SET confidence=GREATEST(confidence, %s), fact=COALESCE(fact, %s) WHERE id=%s",
                        (new.confidence, new.fact_id, held))
            self._source(cur, held, new.turn_id)
            return held, "reinforced"
        added = cur.execute(
            "INSERT INTO triples(scope_key, tenant, agent, owner, subject, predicate, object, value, qualifier,"
            " valid_from, confidence, fact, created) VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
            (scope.key, scope.tenant_id, scope.agent_id, scope.owner, subject, new.predicate, obj, new.value,
             new.qualifier, new.at, new.confidence, new.fact_id, time.time())).fetchone()
        assert added is not None
        tid = int(added["id"])
        self._source(cur, tid, new.turn_id)
        if new.functional:  # the value it replaces ends where this one starts
            cur.execute(
                "UPDATE triples SET valid_to=GREATEST(%s, valid_from), closed_by=%s WHERE scope_key=%s AND subject=%s"
                " AND predicate=%s AND qualifier IS NOT DISTINCT FROM %s::text AND valid_to IS NULL AND id<>%s",
                (new.at, tid, scope.key, subject, new.predicate, new.qualifier, tid))
        for opposite in new.closes:  # now dislikes what they liked: the like ends here
            cur.execute(
                "UPDATE triples SET valid_to=GREATEST(%s, valid_from), closed_by=%s WHERE scope_key=%s AND subject=%s"
                " AND predicate=%s AND object IS NOT DISTINCT FROM %s::bigint AND lower(value)=lower(%s)"
                " AND valid_to IS NULL", (new.at, tid, scope.key, subject, opposite, obj, new.value))
        return tid, "added"

    @staticmethod
    def _same(cur: psycopg.Cursor[Any], scope: Scope, subject: int, new: NewTriple,
              obj: int | None) -> list[dict[str, Any]]:
        """The scope's triples saying the same (either way round for a symmetric predicate)."""
        rows = cur.execute(
            "SELECT * FROM triples WHERE scope_key=%(key)s AND subject=%(subject)s AND predicate=%(predicate)s"
            " AND qualifier IS NOT DISTINCT FROM %(qualifier)s::text AND (object=%(obj)s OR (object IS NULL"
            " AND %(obj)s::bigint IS NULL AND lower(value)=lower(%(value)s))) ORDER BY valid_from DESC, id DESC",
            {"key": scope.key, "subject": subject, "predicate": new.predicate, "qualifier": new.qualifier,
             "obj": obj, "value": new.value}).fetchall()
        if new.symmetric and obj is not None:
            rows += cur.execute(
                "SELECT * FROM triples WHERE scope_key=%s AND subject=%s AND predicate=%s AND object=%s"
                " ORDER BY valid_from DESC, id DESC", (scope.key, obj, new.predicate, subject)).fetchall()
        return rows

    @staticmethod
    def _source(cur: psycopg.Cursor[Any], triple: int, turn_id: int | None) -> None:
        if turn_id is not None:
            cur.execute("INSERT INTO sources(kind, ref, turn_id) VALUES('triple',%s,%s) ON CONFLICT DO NOTHING",
                        (triple, turn_id))

    @staticmethod
    def _entity_id(cur: psycopg.Cursor[Any], scope: Scope, ref: EntityRef) -> int:
        """The entity ``ref`` names, made on first sight (with its name and aliases)."""
        tenant, agent = scope.tenant_id, scope.agent_id
        if ref.person is not None:
            row = cur.execute("SELECT id FROM entities WHERE tenant=%s AND agent=%s AND person=%s ORDER BY id LIMIT 1",
                              (tenant, agent, ref.person)).fetchone()
        else:
            row = cur.execute("SELECT e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity"
                              " WHERE lower(a.alias) = lower(%s) AND e.tenant=%s AND e.agent=%s AND e.kind=%s"
                              " ORDER BY e.id LIMIT 1", (ref.name, tenant, agent, ref.kind)).fetchone()
        if row is None:
            row = cur.execute("INSERT INTO entities(tenant, agent, kind, name, person, created)"
                              " VALUES(%s,%s,%s,%s,%s,%s) RETURNING id",
                              (tenant, agent, ref.kind, ref.person or ref.name, ref.person, time.time())).fetchone()
            assert row is not None
        eid = int(row["id"])
        if ref.person is None:
            names = [ref.name, *ref.aliases]
            sources = ["name", *("alias" for _ in ref.aliases)]
            added = cur.execute("INSERT INTO entity_aliases(entity, alias, source) SELECT %s, a, s"
                                " FROM unnest(%s::text[], %s::text[]) AS n(a, s) ON CONFLICT DO NOTHING",
                                (eid, names, sources)).rowcount
            if added:
                bump(cur, f"entities:{tenant}")
        return eid

    # ---- reads -------------------------------------------------------------------------------
    def entity_version(self, tenant: str) -> int:
        row = self._db.one("SELECT value FROM meta WHERE key=%s", (f"entities:{tenant}",))
        return int(row[0]) if row else 0

    def entity_names(self, tenant: str, agent: str) -> list[tuple[str, int]]:
        """(name or alias, entity id) of every entity that is not a person (people are named by
        the registry's aliases)."""
        return [(r[0], r[1]) for r in self._db.rows(
            "SELECT a.alias, e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity"
            " WHERE e.tenant=%s AND e.agent=%s ORDER BY e.id, a.alias", (tenant, agent))]

    def find_entities(self, tenant: str, agent: str, *, name: str | None = None,
                      persons: Sequence[str] = (), ids: Sequence[int] = ()) -> list[Entity]:
        """Entities by a name or alias (any case), by person ids, or by ids; with their aliases."""
        if persons:
            rows = self._db.dicts("SELECT * FROM entities WHERE tenant=%s AND agent=%s AND person = ANY(%s::text[])"
                                  " ORDER BY id", (tenant, agent, list(persons)))
        elif name is not None:
            rows = self._db.dicts(
                "SELECT * FROM entities e WHERE tenant=%s AND agent=%s AND EXISTS(SELECT 1 FROM entity_aliases a"
                " WHERE a.entity = e.id AND lower(a.alias) = lower(%s)) ORDER BY id", (tenant, agent, name))
        else:
            rows = self._db.dicts("SELECT * FROM entities WHERE tenant=%s AND agent=%s AND id = ANY(%s::bigint[])"
                                  " ORDER BY id", (tenant, agent, [int(i) for i in ids]))
        aliases: dict[int, list[str]] = {}
        for entity, alias in self._db.rows(
                "SELECT entity, alias FROM entity_aliases WHERE entity = ANY(%s::bigint[])"
                " ORDER BY source='alias', alias", ([r["id"] for r in rows],)):
            aliases.setdefault(entity, []).append(alias)
        return [_entity(r, tuple(a for a in aliases.get(r["id"], []) if a != r["name"])) for r in rows]

    def touches(self, view: TripleView, entities: Sequence[int]) -> set[int]:
        """Those of ``entities`` that some triple in the view (at any time) names."""
        rows = self._db.rows(
            "SELECT e FROM unnest(%(entities)s::bigint[]) e WHERE EXISTS(SELECT 1 FROM triples t"
            f" JOIN entities s ON s.id = t.subject WHERE (t.subject = e OR t.object = e) AND {_VISIBLE})",
            {**_args(view, None), "entities": [int(e) for e in entities]})
        return {r[0] for r in rows}

    def triples_about(self, view: TripleView, subjects: Sequence[int] | None, predicate: str | None,
                      at: float | None, history: bool) -> list[Triple]:
        """The view's triples whose subject is one of ``subjects`` (None: any), of ``predicate``
        (None: any), holding at ``at`` (None: now), or all of them (``history``; with ``at``, all
        those begun by then); oldest first."""
        sql = (f"SELECT t.id FROM triples t JOIN entities s ON s.id = t.subject WHERE {_VISIBLE}"
               f" AND {_when(at, history)}")
        args = _args(view, at)
        if predicate is not None:
            sql, args = sql + " AND t.predicate = %(predicate)s", {**args, "predicate": predicate}
        if subjects is not None:
            sql, args = sql + " AND t.subject = ANY(%(subjects)s::bigint[])", {
                **args, "subjects": [int(i) for i in subjects]}
        return self.get_triples([r[0] for r in self._db.rows(sql, args)])

    def neighbourhood(self, view: TripleView, roots: Sequence[int], hops: int, at: float | None) -> list[Triple]:
        """The view's triples holding at ``at`` (None: current) within ``hops`` of ``roots``: hop 1
        is every triple naming a root (as subject or object); hop 2 adds those naming the
        entities hop 1 reached. One recursive query."""
        when = _when(at, False)
        sql = (
            "WITH RECURSIVE reach(entity, depth) AS ("
            " SELECT r, 0 FROM unnest(%(roots)s::bigint[]) r"
            " UNION SELECT CASE WHEN t.subject = r.entity THEN t.object ELSE t.subject END, r.depth + 1"
            " FROM reach r JOIN triples t ON t.subject = r.entity OR t.object = r.entity"
            f" JOIN entities s ON s.id = t.subject WHERE r.depth + 1 < %(hops)s AND t.object IS NOT NULL"
            f" AND {_VISIBLE} AND {when})"
            " SELECT DISTINCT t.id FROM reach r JOIN triples t ON t.subject = r.entity OR t.object = r.entity"
            f" JOIN entities s ON s.id = t.subject WHERE {_VISIBLE} AND {when}")
        args = {**_args(view, at), "roots": [int(r) for r in roots], "hops": hops}
        return self.get_triples([r[0] for r in self._db.rows(sql, args)])

    def get_triples(self, ids: Sequence[int]) -> list[Triple]:
        """Triples by id with their entities' names and source turns, oldest first."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            return []
        rows = self._db.dicts(_TRIPLE_ROWS + " ORDER BY t.valid_from, t.id", (wanted,))
        sources = self._sources("triple", [r["id"] for r in rows])
        return [_triple(r, sources.get(r["id"], ())) for r in rows]

    def triples_with(self, turn_ids: list[int]) -> list[int]:
        """Triples a turn said, and the ones those closed (a forget reopens them)."""
        said = self._refs_with("triple", turn_ids) if turn_ids else []
        closed = [r[0] for r in self._db.rows("SELECT id FROM triples WHERE closed_by = ANY(%s::bigint[])",
                                              (said,))] if said else []
        return sorted({*said, *closed})

    # ---- forgetting ------------------------------------------------------------------------------
    def triples_forget(self, turn_ids: list[int]) -> dict[int, str]:
        """After turns are deleted: a triple only they said goes ("deleted"), one others said too
        keeps them ("rebuilt"), a triple a deleted one had closed is current again ("reopened");
        an entity no triple names any more goes with its names."""
        gone = [int(t) for t in turn_ids]
        if not gone:
            return {}
        out: dict[int, str] = {}
        with self._db.tx() as cur:
            # each triple these turns said, and whether other turns said it too
            said = cur.execute(
                "SELECT ref, bool_or(turn_id <> ALL(%(gone)s::bigint[])) FROM sources WHERE kind='triple' AND ref IN"
                " (SELECT ref FROM sources WHERE kind='triple' AND turn_id = ANY(%(gone)s::bigint[]))"
                " GROUP BY ref ORDER BY ref", {"gone": gone}).fetchall()
            cur.execute("DELETE FROM sources WHERE kind='triple' AND turn_id = ANY(%s::bigint[])", (gone,))
            out.update({tid: "rebuilt" for tid, kept in said if kept})
            out.update(self._drop(cur, [tid for tid, kept in said if not kept]))
        return out

    def end_fact_triples(self, fact_id: int, at: float) -> None:
        """The open triples saying a fact end at ``at`` (its value was corrected by hand)."""
        with self._db.tx() as cur:
            cur.execute("UPDATE triples SET valid_to=GREATEST(%s, valid_from) WHERE fact=%s AND valid_to IS NULL",
                        (at, fact_id))

    def fact_triples(self, fact_id: int) -> list[int]:
        """The triples that say a profile fact (a hand-deleted fact takes them along)."""
        return [r[0] for r in self._db.rows("SELECT id FROM triples WHERE fact=%s ORDER BY id", (fact_id,))]

    def drop_triples(self, ids: list[int]) -> dict[int, str]:
        """Delete triples ("deleted"); what they closed stays closed, as a deleted fact's history
        stays history."""
        with self._db.tx() as cur:
            return self._drop(cur, [int(i) for i in ids], reopen=False)

    @staticmethod
    def _drop(cur: psycopg.Cursor[Any], ids: list[int], reopen: bool = True) -> dict[int, str]:
        """Delete triples with their sources; with ``reopen``, what they closed is current again
        (the statement that ended it is forgotten). An entity no triple names any more goes with
        its names."""
        if not ids:
            return {}
        dropped = cur.execute("DELETE FROM triples WHERE id = ANY(%s::bigint[]) RETURNING id, subject, object",
                              (ids,)).fetchall()
        out = {int(r[0]): "deleted" for r in dropped}
        cur.execute("DELETE FROM sources WHERE kind='triple' AND ref = ANY(%s::bigint[])", (list(out),))
        if reopen:
            reopened = cur.execute("UPDATE triples SET valid_to=NULL, closed_by=NULL"
                                   " WHERE closed_by = ANY(%s::bigint[]) RETURNING id", (list(out),)).fetchall()
            out.update({int(r[0]): "reopened" for r in reopened})
        entities = sorted({e for r in dropped for e in (r[1], r[2]) if e is not None})
        cur.execute("DELETE FROM entities e WHERE id = ANY(%(e)s::bigint[]) AND NOT EXISTS(SELECT 1 FROM triples t"
                    " WHERE t.subject = e.id OR t.object = e.id)", {"e": entities})
        cur.execute("DELETE FROM entity_aliases a WHERE entity = ANY(%s::bigint[])"
                    " AND NOT EXISTS(SELECT 1 FROM entities e WHERE e.id = a.entity)", (entities,))
        return out

    def graph_entities_with(self, triple_ids: list[int]) -> list[int]:
        """The entities these triples name (a forget snapshots them: it may delete them)."""
        rows = self._db.rows("SELECT subject, object FROM triples WHERE id = ANY(%s::bigint[])",
                             ([int(i) for i in triple_ids],))
        return sorted({e for r in rows for e in (r[0], r[1]) if e is not None})

    # ---- insights --------------------------------------------------------------------------------
    def replace_insights(self, scope: Scope, person: str, rows: Sequence[tuple[str, float, Sequence[int]]]) -> None:
        """The person's insights in the scope become ``rows`` (text, confidence, evidence turns)."""
        now = time.time()
        with self._db.tx() as cur:
            old = [r[0] for r in cur.execute("DELETE FROM insights WHERE scope_key=%s AND person=%s RETURNING id",
                                             (scope.key, person))]
            cur.execute("DELETE FROM sources WHERE kind='insight' AND ref = ANY(%s::bigint[])", (old,))
            for text, confidence, evidence in rows:
                row = cur.execute(
                    "INSERT INTO insights(scope_key, tenant, agent, owner, person, text, confidence, created)"
                    " VALUES(%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                    (scope.key, scope.tenant_id, scope.agent_id, scope.owner, person, text, confidence, now)).fetchone()
                assert row is not None
                self._set_sources(cur, "insight", int(row[0]), evidence)

    def insights(self, scope: Scope, person: str | None = None) -> list[Insight]:
        sql, args = "SELECT * FROM insights WHERE scope_key=%s", [scope.key]
        if person is not None:
            sql, args = sql + " AND person=%s", [*args, person]
        rows = self._db.dicts(sql + " ORDER BY confidence DESC, id", args)
        sources = self._sources("insight", [r["id"] for r in rows])
        return [Insight(r["id"], scope_of(r), r["person"], r["text"], r["confidence"], sources.get(r["id"], ()),
                        utc(r["created"])) for r in rows]

    def insights_with(self, turn_ids: list[int]) -> list[int]:
        return sorted(self._refs_with("insight", turn_ids)) if turn_ids else []

    def insights_forget(self, turn_ids: list[int]) -> list[int]:
        """An insight whose evidence loses a turn goes: it was inferred from what is forgotten."""
        ids = self.insights_with(turn_ids)
        with self._db.tx() as cur:
            cur.execute("DELETE FROM insights WHERE id = ANY(%s::bigint[])", (ids,))
            cur.execute("DELETE FROM sources WHERE kind='insight' AND ref = ANY(%s::bigint[])", (ids,))
        return ids

    def queue_insights(self, scope: Scope, person: str, new: int, every: int) -> bool:
        """Count ``new`` triples learned about a person in a scope; once ``every`` have come
        since the last time, queue an ``insights`` job for them there (True), unless one is still
        waiting: it will read these too (coalesced). The count and the job are one transaction;
        the count's row lock holds a concurrent count of the same person back until it commits."""
        key = f"insight:{scope.key}:{person}"
        payload = {"tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner, "person": person}
        with self._db.tx() as cur:
            row = cur.execute("INSERT INTO meta(key, value) VALUES(%s, %s) ON CONFLICT(key) DO UPDATE"
                              " SET value=(meta.value::bigint + EXCLUDED.value::bigint)::text RETURNING value",
                              (key, str(new))).fetchone()
            assert row is not None
            if int(row[0]) < every:
                return False
            cur.execute("UPDATE meta SET value='0' WHERE key=%s", (key,))
            queued = cur.execute("SELECT enqueue_once('insights', %s)", (Jsonb(payload),)).fetchone()
            return bool(queued and queued[0])
