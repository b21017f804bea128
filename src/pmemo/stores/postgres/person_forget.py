"""Forgetting a person on PostgreSQL (issue 44 §7), a mixin of ``PostgresStore``: SQLite's
``person_forget`` in one transaction of this store. The registry rows go into one tombstone of
kind ``person`` as jsonb and come back through ``jsonb_populate_record``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from ...models import Scope
from ...ports.graph import GraphPort
from ..person_forget import PERSON_KIND, HeldRows, insight_keys, naming_facts, without_names, without_person
from .forget import _capture, _Columns, _put_row, registry_tables
from .people import bump

if TYPE_CHECKING:
    from .database import Database

_MENTIONS = "f.mentioned ? %(person)s"


class PersonForgetRows:
    if TYPE_CHECKING:  # what the store's other mixins give
        _db: Database

        graph: GraphPort

    def person_rows(self, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        """What a forget of ``person`` (everywhere, or in ``where``'s owner) would take besides their turns."""
        with self._db.tx() as cur:
            return _held(cur, tenant, person, where)

    def forget_person(self, batch: int, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        """Snapshot into ``batch`` and delete what ``person_rows`` names, in one transaction; returns it."""
        with self._db.tx() as cur:
            held = _held(cur, tenant, person, where)
            named = cur.execute("SELECT subject, object FROM triples WHERE id = ANY(%s::bigint[])",
                                (list(held.triples),)).fetchall()
            entities = sorted({*held.entities, *(e for r in named for e in r if e is not None)})
            for kind, refs in (("fact", [*held.facts, *held.unnamed]), ("entity", entities), ("triple", held.triples),
                               ("agenda", held.agenda), ("insight", held.insights)):
                # ON CONFLICT DO NOTHING: a row the forget of their turns snapshotted keeps that first copy
                cur.execute(_capture(kind), {"batch": batch, "kind": kind, "refs": list(refs)})
            args = _args(tenant, person, where, _turns(cur, tenant, person, where))
            registry = _registry(cur, args, where)
            cur.execute("INSERT INTO tombstones(batch, kind, ref, data) VALUES(%s, %s, 0, %s) ON CONFLICT DO NOTHING",
                        (batch, PERSON_KIND, Jsonb(registry)))
            for table, refs in (("facts", held.facts), ("agenda", held.agenda), ("insights", held.insights)):
                cur.execute(f"DELETE FROM {table} WHERE id = ANY(%s::bigint[])", (list(refs),))
            for kind, refs in (("fact", held.facts), ("insight", held.insights)):
                cur.execute("DELETE FROM sources WHERE kind=%s AND ref = ANY(%s::bigint[])", (kind, list(refs)))
                cur.execute("DELETE FROM vectors WHERE kind=%s AND ref = ANY(%s::bigint[])", (kind, list(refs)))
            # someone else's fact that only mentioned them keeps all but the mention
            cur.execute("UPDATE facts SET mentioned = mentioned - %s WHERE id = ANY(%s::bigint[])",
                        (person, list(held.unnamed)))
            kept = cur.execute("SELECT id, said FROM facts WHERE id = ANY(%s::bigint[])", (list(held.unnamed),))
            cur.executemany("UPDATE facts SET said = %s WHERE id = %s",
                            [(without_names(said or "", held.names), ref) for ref, said in kept.fetchall()])
            for table, columns in registry_tables(cur).items():
                cur.execute(f"DELETE FROM {table} WHERE {_registry_where(table, columns, where)}", args)
            cur.execute("DELETE FROM meta WHERE key = ANY(%s::text[])", ([r["key"] for r in registry["meta"]],))
            # a pending inference about them would only find them gone
            cur.execute("DELETE FROM jobs WHERE kind='insights' AND status<>'running'"
                        " AND payload->>'tenant'=%(tenant)s AND payload->>'person'=%(person)s"
                        " AND (%(owner)s::text IS NULL OR payload->>'owner'=%(owner)s)", args)
            self.graph.drop_triples(list(held.triples))  # in this transaction: it joins
            cur.execute("DELETE FROM entity_aliases WHERE entity = ANY(%s::bigint[])", (list(held.entities),))
            cur.execute("DELETE FROM entities WHERE id = ANY(%s::bigint[])", (list(held.entities),))
            bump(cur, f"aliases:{tenant}")  # resolvers and name indexes built before are stale
            bump(cur, f"entities:{tenant}")
        return held

    @staticmethod
    def _put_back_person(cur: psycopg.Cursor[Any], columns: _Columns, data: dict[str, Any]) -> None:
        """A ``person`` tombstone's registry rows back (a row made again meanwhile is kept)."""
        for table, rows in data.items():
            for row in rows:
                _put_row(cur, columns, table, row, " ON CONFLICT DO NOTHING")
        for tenant in sorted({r["tenant"] for r in data.get("people", []) + data.get("aliases", [])}):
            bump(cur, f"aliases:{tenant}")

    def scrub_mentions(self, tenant: str, person: str) -> int:
        """Their id out of other turns' metadata (``mentions``, ``reply_to_person``): after a hard
        forget no row names them. Returns how many turns changed."""
        changed = 0
        with self._db.tx() as cur:
            rows = cur.execute("SELECT id, metadata FROM turns WHERE tenant=%s AND strpos(metadata, %s) > 0",
                               (tenant, json.dumps(person, ensure_ascii=False))).fetchall()
            for turn_id, raw in rows:
                metadata = json.loads(raw)
                kept = without_person(metadata, person)
                if kept != metadata:
                    cur.execute("UPDATE turns SET metadata=%s WHERE id=%s", (json.dumps(kept, ensure_ascii=False),
                                                                             turn_id))
                    changed += 1
        return changed


def _args(tenant: str, person: str, where: Scope | None, turns: list[int] | None = None) -> dict[str, Any]:
    return {"tenant": tenant, "person": person, "key": where.key if where else None,
            "agent": where.agent_id if where else None, "owner": where.owner if where else None,
            "turns": turns or []}


def _turns(cur: psycopg.Cursor[Any], tenant: str, person: str, where: Scope | None) -> list[int]:
    if where is None:
        rows = cur.execute("SELECT id FROM turns WHERE tenant=%s AND actor_id=%s", (tenant, person))
    else:
        rows = cur.execute("SELECT id FROM turns WHERE scope_key=%s AND actor_id=%s", (where.key, person))
    return [int(r[0]) for r in rows]


def _registry_where(table: str, columns: set[str], where: Scope | None) -> str:
    """The rows of a registry table a forget takes (named parameters): everywhere, all of the
    person's; in one chat, those of that chat (an alias: only one learned or @-mentioned there),
    and those a forgotten turn gave (%(turns)s)."""
    mine = "tenant = %(tenant)s AND person = %(person)s"
    if where is None:
        return mine
    if table == "aliases":
        return mine + " AND source IN ('learned', 'mention') AND owner = %(owner)s"
    if "owner" in columns:
        return mine + " AND owner = %(owner)s" + (" AND agent = %(agent)s" if "agent" in columns else "")
    if "turn_id" in columns:
        return mine + " AND turn_id = ANY(%(turns)s::bigint[])"
    return "false"


def _registry(cur: psycopg.Cursor[Any], args: dict[str, Any], where: Scope | None) -> dict[str, Any]:
    """The registry rows a forget takes, by table (``meta``: the insight counters about them)."""
    out: dict[str, Any] = {}
    for table, columns in registry_tables(cur).items():
        out[table] = [r[0] for r in cur.execute(
            f"SELECT to_jsonb(r) FROM {table} r WHERE {_registry_where(table, columns, where)}", args)]
    keys = [r[0] for r in cur.execute("SELECT key FROM meta WHERE key LIKE 'insight:%%'")]
    out["meta"] = [r[0] for r in cur.execute("SELECT to_jsonb(m) FROM meta m WHERE key = ANY(%s::text[])",
                                             (insight_keys(keys, args["tenant"], args["person"], where),))]
    return out


def _held(cur: psycopg.Cursor[Any], tenant: str, person: str, where: Scope | None) -> HeldRows:
    args = _args(tenant, person, where)
    here = " AND {t}.scope_key = %(key)s" if where is not None else ""

    def ids(sql: str, more: dict[str, Any] | None = None) -> list[int]:
        return [int(r[0]) for r in cur.execute(sql, {**args, **(more or {})})]

    entities = ids("SELECT id FROM entities WHERE tenant = %(tenant)s AND person = %(person)s"
                   + (" AND agent = %(agent)s" if where is not None else "") + " ORDER BY id")
    theirs = ids("SELECT t.id FROM triples t WHERE t.tenant = %(tenant)s AND (t.subject = ANY(%(e)s::bigint[])"
                 " OR t.object = ANY(%(e)s::bigint[]))" + here.format(t="t"), {"e": entities})
    about = ids("SELECT f.id FROM facts f WHERE f.tenant = %(tenant)s AND f.subject = %(person)s" + here.format(t="f"))
    naming = cur.execute(f"SELECT f.id, f.value FROM facts f WHERE f.tenant = %(tenant)s"
                         f" AND f.subject IS DISTINCT FROM %(person)s AND {_MENTIONS}" + here.format(t="f"),
                         args).fetchall()
    names = [r[0] for r in cur.execute("SELECT alias FROM aliases WHERE tenant = %(tenant)s AND person = %(person)s"
                                       " AND source <> 'generated' UNION SELECT name FROM people"
                                       " WHERE tenant = %(tenant)s AND person = %(person)s AND name IS NOT NULL",
                                       args)]
    said = set(ids("SELECT fact FROM triples WHERE id = ANY(%(t)s::bigint[]) AND fact IS NOT NULL", {"t": theirs}))
    gone, unnamed = naming_facts([(int(r[0]), r[1]) for r in naming], names, said)
    facts = sorted({*about, *gone})
    triples = sorted({*theirs, *ids("SELECT id FROM triples WHERE fact = ANY(%(f)s::bigint[])", {"f": facts})})
    agenda = ids("SELECT a.id FROM agenda a WHERE a.tenant = %(tenant)s AND a.person = %(person)s"
                 + here.format(t="a") + " ORDER BY a.id")
    insights = ids("SELECT i.id FROM insights i WHERE i.tenant = %(tenant)s AND i.person = %(person)s"
                   + here.format(t="i") + " ORDER BY i.id")
    registry = _registry(cur, _args(tenant, person, where, _turns(cur, tenant, person, where)), where)
    notices = ids("SELECT t.id FROM turns t WHERE t.tenant = %(tenant)s AND strpos(t.metadata, '\"person\"') > 0"
                  " AND t.metadata::jsonb ->> 'person' = %(person)s" + here.format(t="t") + " ORDER BY t.id")
    scopes = {r[0] for table, refs in (("facts", [*facts, *unnamed]), ("triples", triples), ("agenda", agenda),
                                       ("insights", insights))
              for r in cur.execute(f"SELECT DISTINCT scope_key FROM {table} WHERE id = ANY(%s::bigint[])", (refs,))}
    return HeldRows(
        person=bool(registry["people"]), facts=tuple(facts), unnamed=tuple(sorted(unnamed)), triples=tuple(triples),
        agenda=tuple(agenda), insights=tuple(insights), entities=tuple(entities) if where is None else (),
        aliases=tuple(sorted({r["alias"] for r in registry["aliases"]})),
        owners=tuple(sorted({r["owner"] for r in registry["members"]})), scopes=tuple(sorted(scopes)),
        notices=tuple(notices), names=tuple(sorted(set(names))))
