"""The person-forget port (``ports.person_forget``) in SQL, written once for SQLite and Postgres.

One transaction (the caller's ``tx()`` when one is open: a forget of a person is one unit with
the forget of their turns) snapshots into the batch what is about the person, through the forget
store's ``snapshot`` (which joins it), and the registry rows as one tombstone of kind
``PERSON_KIND``; deletes it; and bumps the tenant's alias and entity versions, so resolvers built
before are stale. What differs by backend is the ``Dialect`` and one hook: ``_columns``, the
tables and their columns as the database's catalogue lists them (``registry_of`` picks the
registry's among them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..models import Scope
from ..ports.graph import GraphPort
from ..ports.person_forget import HeldRows
from .people_sql import bump
from .person_forget import PERSON_KIND, insight_keys, naming_facts, registry_of, without_names, without_person
from .sql import Args, Dialect, Exec, Link

Snapshot = Callable[[int, str, Iterable[int]], int]  # the forget store's ``snapshot(batch, kind, refs)``


def _listed(value: Any) -> list[Any]:
    """A JSON list column as a list (SQLite gives its text, Postgres the jsonb decoded)."""
    return json.loads(value) if isinstance(value, str) else list(value or [])


def _args(tenant: str, person: str, where: Scope | None, d: Dialect, turns: Sequence[int] = ()) -> dict[str, Any]:
    return {"tenant": tenant, "person": person, "key": where.key if where else None,
            "agent": where.agent_id if where else None, "owner": where.owner if where else None,
            "turns": d.ids(turns)}


def _registry_where(table: str, columns: set[str], where: Scope | None, d: Dialect) -> str:
    """The rows of a registry table a forget takes: everywhere, all of the person's; in one chat,
    those of that chat (an alias: only one learned or @-mentioned there), and those a forgotten
    turn gave (:turns)."""
    mine = "tenant = :tenant AND person = :person"
    if where is None:
        return mine
    if table == "aliases":
        return mine + " AND source IN ('learned', 'mention') AND owner = :owner"
    if "owner" in columns:
        return mine + " AND owner = :owner" + (" AND agent = :agent" if "agent" in columns else "")
    if "turn_id" in columns:
        return mine + f" AND {d.in_('turn_id', 'turns')}"
    return "1 = 0"


class SQLPersonForget:
    """``PersonForgetPort`` over a backend's ``Link`` in its ``Dialect``; the graph port drops the
    triples, the forget store's ``snapshot`` keeps the rows a restore puts back."""

    def __init__(self, link: Link, dialect: Dialect, graph: GraphPort, snapshot: Snapshot) -> None:
        self._link = link
        self._d = dialect
        self._graph = graph
        self._snapshot = snapshot

    def _columns(self, x: Exec) -> Iterable[tuple[str, str]]:
        """Every (table, column) of the store's schema (a backend's catalogue)."""
        raise NotImplementedError

    def _registry_tables(self, x: Exec) -> dict[str, set[str]]:
        return registry_of(self._columns(x))

    # ---- the port --------------------------------------------------------------------------
    def person_rows(self, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        with self._link.read() as x:
            return self._held(x, tenant, person, where)

    def forget_person(self, batch: int, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        d = self._d
        with self._link.write() as x:
            held = self._held(x, tenant, person, where)
            entities = sorted({*held.entities, *_named_by(x, d, held.triples)})
            # the first snapshot of a row is kept: one the forget of their turns took stays as it was
            for kind, refs in (("fact", [*held.facts, *held.unnamed]), ("entity", entities), ("triple", held.triples),
                               ("agenda", held.agenda), ("insight", held.insights)):
                self._snapshot(batch, kind, refs)
            args = _args(tenant, person, where, d, self._turns(x, tenant, person, where))
            tables = self._registry_tables(x)
            registry = self._registry(x, tables, args, where)
            x.run(f"INSERT INTO tombstones(batch, kind, ref, data) VALUES(:batch, :kind, 0, {d.cast(':data', 'jsonb')})"
                  " ON CONFLICT DO NOTHING", {"batch": batch, "kind": PERSON_KIND,
                                              "data": json.dumps(registry, ensure_ascii=False)})
            self._delete(x, held, args, where)
            for table, columns in tables.items():
                x.run(f"DELETE FROM {table} WHERE {_registry_where(table, columns, where, d)}", args)
            x.run(f"DELETE FROM meta WHERE {d.in_('key', 'keys', 'text')}",
                  {"keys": d.texts(r["key"] for r in registry["meta"])})
            self._graph.drop_triples(list(held.triples))  # in this transaction: it joins
            for table, column in (("entity_aliases", "entity"), ("entities", "id")):
                x.run(f"DELETE FROM {table} WHERE {d.in_(column, 'ids')}", {"ids": d.ids(held.entities)})
            bump(x, f"aliases:{tenant}")  # resolvers and name indexes built before are stale
            bump(x, f"entities:{tenant}")
        return held

    def put_back_person(self, data: dict[str, Any]) -> None:
        with self._link.write() as x:
            tables = {t: c for t, c in self._columns_by_table(x).items() if t in data}
            for table, rows in data.items():
                for row in rows:  # with the columns the table has now (one added since takes its default)
                    kept = {k: v for k, v in row.items() if k in tables.get(table, row.keys())}
                    names = list(kept)
                    x.run(f"INSERT INTO {table}({', '.join(names)})"
                          f" VALUES({', '.join(f':c{i}' for i in range(len(names)))}) ON CONFLICT DO NOTHING",
                          {f"c{i}": kept[n] for i, n in enumerate(names)})
            for tenant in sorted({r["tenant"] for r in data.get("people", []) + data.get("aliases", [])}):
                bump(x, f"aliases:{tenant}")

    def scrub_mentions(self, tenant: str, person: str) -> int:
        changed = 0
        with self._link.write() as x:
            rows = x.rows(f"SELECT id, metadata FROM turns WHERE tenant = :tenant"
                          f" AND {self._d.position('metadata', ':quoted')} > 0",
                          {"tenant": tenant, "quoted": json.dumps(person, ensure_ascii=False)})
            for r in rows:
                metadata = json.loads(r["metadata"])
                kept = without_person(metadata, person)
                if kept != metadata:
                    x.run("UPDATE turns SET metadata = :metadata WHERE id = :id",
                          {"metadata": json.dumps(kept, ensure_ascii=False), "id": r["id"]})
                    changed += 1
        return changed

    # ---- reads -------------------------------------------------------------------------------
    def _columns_by_table(self, x: Exec) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for table, column in self._columns(x):
            out.setdefault(table, set()).add(column)
        return out

    @staticmethod
    def _turns(x: Exec, tenant: str, person: str, where: Scope | None) -> list[int]:
        if where is None:
            rows = x.rows("SELECT id FROM turns WHERE tenant = :tenant AND actor_id = :person",
                          {"tenant": tenant, "person": person})
        else:
            rows = x.rows("SELECT id FROM turns WHERE scope_key = :key AND actor_id = :person",
                          {"key": where.key, "person": person})
        return [int(r["id"]) for r in rows]

    def _registry(self, x: Exec, tables: dict[str, set[str]], args: Args, where: Scope | None) -> dict[str, Any]:
        """The registry rows a forget takes, by table (``meta``: the insight counters about them)."""
        d = self._d
        out: dict[str, Any] = {table: [dict(r) for r in x.rows(
            f"SELECT * FROM {table} WHERE {_registry_where(table, columns, where, d)}", args)]
            for table, columns in tables.items()}
        keys = [r["key"] for r in x.rows("SELECT key FROM meta WHERE key LIKE :prefix", {"prefix": "insight:%"})]
        out["meta"] = [dict(r) for r in x.rows(
            f"SELECT * FROM meta WHERE {d.in_('key', 'keys', 'text')}",
            {"keys": d.texts(insight_keys(keys, args["tenant"], args["person"], where))})]
        return out

    def _held(self, x: Exec, tenant: str, person: str, where: Scope | None) -> HeldRows:
        d = self._d
        args = _args(tenant, person, where, d)
        here = " AND {t}.scope_key = :key" if where is not None else ""

        def ids(sql: str, more: Args | None = None) -> list[int]:
            return [int(r["id"]) for r in x.rows(sql, {**args, **(more or {})})]

        entities = ids("SELECT id FROM entities WHERE tenant = :tenant AND person = :person"
                       + (" AND agent = :agent" if where is not None else "") + " ORDER BY id")
        theirs = ids(f"SELECT t.id FROM triples t WHERE t.tenant = :tenant AND ({d.in_('t.subject', 'e')}"
                     f" OR {d.in_('t.object', 'e')})" + here.format(t="t"), {"e": d.ids(entities)})
        about = ids("SELECT f.id FROM facts f WHERE f.tenant = :tenant AND f.subject = :person" + here.format(t="f"))
        naming = x.rows(f"SELECT f.id, f.value FROM facts f WHERE f.tenant = :tenant"
                        f" AND NOT ({d.is_('f.subject', ':person', 'text')}) AND {d.holds('f.mentioned', 'person')}"
                        + here.format(t="f"), args)
        names = [r["name"] for r in x.rows("SELECT alias AS name FROM aliases WHERE tenant = :tenant"
                                           " AND person = :person AND source <> 'generated' UNION SELECT name"
                                           " FROM people WHERE tenant = :tenant AND person = :person"
                                           " AND name IS NOT NULL", args)]
        said = {int(r["fact"]) for r in x.rows(f"SELECT fact FROM triples WHERE {d.in_('id', 't')}"
                                               " AND fact IS NOT NULL", {"t": d.ids(theirs)})}
        gone, unnamed = naming_facts([(int(r["id"]), r["value"]) for r in naming], names, said)
        facts = sorted({*about, *gone})
        triples = sorted({*theirs, *ids(f"SELECT id FROM triples WHERE {d.in_('fact', 'f')}", {"f": d.ids(facts)})})
        agenda = ids("SELECT a.id FROM agenda a WHERE a.tenant = :tenant AND a.person = :person"
                     + here.format(t="a") + " ORDER BY a.id")
        insights = ids("SELECT i.id FROM insights i WHERE i.tenant = :tenant AND i.person = :person"
                       + here.format(t="i") + " ORDER BY i.id")
        registry = self._registry(x, self._registry_tables(x),
                                  _args(tenant, person, where, d, self._turns(x, tenant, person, where)), where)
        notices = ids(f"SELECT t.id FROM turns t WHERE t.tenant = :tenant AND {d.position('t.metadata', ':key_')} > 0"
                      f" AND {d.field('t.metadata', 'person')} = :person" + here.format(t="t") + " ORDER BY t.id",
                      {"key_": '"person"'})
        scopes = {r["scope_key"] for table, refs in (("facts", [*facts, *unnamed]), ("triples", triples),
                                                     ("agenda", agenda), ("insights", insights))
                  for r in x.rows(f"SELECT DISTINCT scope_key FROM {table} WHERE {d.in_('id', 'refs')}",
                                  {"refs": d.ids(refs)})}
        return HeldRows(
            person=bool(registry["people"]), facts=tuple(facts), unnamed=tuple(sorted(unnamed)),
            triples=tuple(triples), agenda=tuple(agenda), insights=tuple(insights),
            entities=tuple(entities) if where is None else (),
            aliases=tuple(sorted({r["alias"] for r in registry["aliases"]})),
            owners=tuple(sorted({r["owner"] for r in registry["members"]})), scopes=tuple(sorted(scopes)),
            notices=tuple(notices), names=tuple(sorted(set(names))))

    # ---- writes ------------------------------------------------------------------------------
    def _delete(self, x: Exec, held: HeldRows, args: Args, where: Scope | None) -> None:
        d = self._d
        for table, refs in (("facts", held.facts), ("agenda", held.agenda), ("insights", held.insights)):
            x.run(f"DELETE FROM {table} WHERE {d.in_('id', 'refs')}", {"refs": d.ids(refs)})
        for kind, refs in (("fact", held.facts), ("insight", held.insights)):
            for table in ("sources", "vectors"):
                x.run(f"DELETE FROM {table} WHERE kind = :kind AND {d.in_('ref', 'refs')}",
                      {"kind": kind, "refs": d.ids(refs)})
        # someone else's fact that only mentioned them keeps all but the mention
        for r in x.rows(f"SELECT id, mentioned, said FROM facts WHERE {d.in_('id', 'refs')}",
                        {"refs": d.ids(held.unnamed)}):
            x.run(f"UPDATE facts SET mentioned = {d.cast(':mentioned', 'jsonb')}, said = :said WHERE id = :id",
                  {"id": r["id"], "said": without_names(r["said"] or "", held.names),
                   "mentioned": json.dumps([p for p in _listed(r["mentioned"]) if p != args["person"]],
                                           ensure_ascii=False)})
        # a pending inference about them would only find them gone
        x.run(f"DELETE FROM jobs WHERE kind = 'insights' AND status <> 'running'"
              f" AND {d.field('payload', 'tenant')} = :tenant AND {d.field('payload', 'person')} = :person"
              + (f" AND {d.field('payload', 'owner')} = :owner" if where is not None else ""), args)


def _named_by(x: Exec, d: Dialect, triples: Sequence[int]) -> list[int]:
    rows = x.rows(f"SELECT subject, object FROM triples WHERE {d.in_('id', 'ids')}", {"ids": d.ids(triples)})
    return [int(e) for r in rows for e in (r["subject"], r["object"]) if e is not None]
