"""SQLite rows for forgetting a person (issue 44 §7): what is about them besides what they said.

A mixin ``SQLiteStore`` inherits. Their turns go by the ordinary forget of turns; this is the
rest: the facts about them or naming them (whoever said them), the triples whose subject or
object they are (and those saying such a fact), their agenda items and insights, and the
registry: everywhere, the person with every alias and membership; in one chat, their
membership there and the aliases learned or @-mentioned there. One transaction snapshots it
into the batch's tombstones (the registry rows as one tombstone of kind ``person``) and deletes
it, and bumps the tenant's alias and entity versions, so resolvers built before are stale.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ...models import Scope
from ...ports.graph import GraphPort
from ..person_forget import PERSON_KIND, HeldRows, insight_keys, naming_facts, without_names, without_person

_MENTIONS = "EXISTS(SELECT 1 FROM json_each(f.mentioned) WHERE value = :person)"


class PersonForgetRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

        @staticmethod
        def _capture(conn: sqlite3.Connection, kind: str, ref: int) -> dict[str, Any] | None: ...

        graph: GraphPort

    def person_rows(self, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        """What a forget of ``person`` (everywhere, or in ``where``'s owner) would take besides their turns."""
        return _held(self._read, tenant, person, where)

    def forget_person(self, batch: int, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        """Snapshot into ``batch`` and delete what ``person_rows`` names, in one transaction; returns it."""
        with self._tx() as conn:
            held = _held(conn, tenant, person, where)
            entities = sorted({*held.entities, *_named_by(conn, held.triples)})
            for kind, refs in (("fact", [*held.facts, *held.unnamed]), ("entity", entities), ("triple", held.triples),
                               ("agenda", held.agenda), ("insight", held.insights)):
                for ref in refs:
                    data = self._capture(conn, kind, ref)
                    if data is not None:  # kept as it was before the forget began (the first snapshot)
                        conn.execute("INSERT OR IGNORE INTO tombstones(batch, kind, ref, data) VALUES(?,?,?,?)",
                                     (batch, kind, ref, json.dumps(data, ensure_ascii=False)))
            args = _args(tenant, person, where, _turns(conn, tenant, person, where))
            registry = _registry(conn, args, where)
            conn.execute("INSERT OR IGNORE INTO tombstones(batch, kind, ref, data) VALUES(?,?,0,?)",
                         (batch, PERSON_KIND, json.dumps(registry, ensure_ascii=False)))
            _delete(conn, held, tenant, person, where)
            for table, columns in _registry_tables(conn).items():
                conn.execute(f"DELETE FROM {table} WHERE {_registry_where(table, columns, where)}", args)
            conn.executemany("DELETE FROM meta WHERE key=?", [(r["key"],) for r in registry["meta"]])
            self.graph.drop_triples(list(held.triples))  # in this transaction: it joins
            conn.executemany("DELETE FROM entity_aliases WHERE entity=?", [(e,) for e in held.entities])
            conn.executemany("DELETE FROM entities WHERE id=?", [(e,) for e in held.entities])
            for key in (f"aliases:{tenant}", f"entities:{tenant}"):  # resolvers and name indexes are stale
                conn.execute("INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT DO UPDATE"
                             " SET value=CAST(value AS INTEGER)+1", (key,))
        return held

    @staticmethod
    def _put_back_person(conn: sqlite3.Connection, data: dict[str, Any]) -> None:
        """A ``person`` tombstone's registry rows back (a row made again meanwhile is kept)."""
        for table, rows in data.items():
            for row in rows:
                conn.execute(f"INSERT OR IGNORE INTO {table}({','.join(row)}) VALUES({','.join('?' * len(row))})",
                             list(row.values()))
        tenants = {r["tenant"] for r in data.get("people", []) + data.get("aliases", [])}
        for tenant in tenants:
            conn.execute("INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT DO UPDATE"
                         " SET value=CAST(value AS INTEGER)+1", (f"aliases:{tenant}",))

    def scrub_mentions(self, tenant: str, person: str) -> int:
        """Their id out of other turns' metadata (``mentions``, ``reply_to_person``): after a hard
        forget no row names them. Returns how many turns changed."""
        changed = 0
        with self._tx() as conn:
            rows = conn.execute("SELECT id, metadata FROM turns WHERE tenant=? AND instr(metadata, ?) > 0",
                                (tenant, json.dumps(person, ensure_ascii=False))).fetchall()
            for turn_id, raw in rows:
                metadata = json.loads(raw)
                kept = without_person(metadata, person)
                if kept != metadata:
                    conn.execute("UPDATE turns SET metadata=? WHERE id=?", (json.dumps(kept, ensure_ascii=False),
                                                                             turn_id))
                    changed += 1
        return changed


def _held(conn: sqlite3.Connection, tenant: str, person: str, where: Scope | None) -> HeldRows:
    args: dict[str, Any] = {"tenant": tenant, "person": person, "key": where.key if where else None,
                            "agent": where.agent_id if where else None, "owner": where.owner if where else None}
    here = " AND {t}.scope_key = :key" if where is not None else ""

    def ids(sql: str, more: dict[str, Any] | None = None) -> list[int]:
        return [r[0] for r in conn.execute(sql, {**args, **(more or {})})]

    entities = ids("SELECT id FROM entities WHERE tenant = :tenant AND person = :person"
                   + (" AND agent = :agent" if where is not None else "") + " ORDER BY id")
    theirs = ids("SELECT t.id FROM triples t WHERE t.tenant = :tenant AND (t.subject IN (SELECT value FROM"
                 " json_each(:e)) OR t.object IN (SELECT value FROM json_each(:e)))" + here.format(t="t"),
                 {"e": json.dumps(entities)})
    about = ids("SELECT f.id FROM facts f WHERE f.tenant = :tenant AND f.subject = :person" + here.format(t="f"))
    naming = conn.execute(f"SELECT f.id, f.value FROM facts f WHERE f.tenant = :tenant AND f.subject IS NOT :person"
                          f" AND {_MENTIONS}" + here.format(t="f"), args).fetchall()
    names = [r[0] for r in conn.execute("SELECT alias FROM aliases WHERE tenant = :tenant AND person = :person"
                                        " AND source <> 'generated' UNION SELECT name FROM people"
                                        " WHERE tenant = :tenant AND person = :person AND name IS NOT NULL", args)]
    said = {r[0] for r in conn.execute("SELECT fact FROM triples WHERE id IN (SELECT value FROM json_each(?))"
                                       " AND fact IS NOT NULL", (json.dumps(theirs),))}
    gone, unnamed = naming_facts([(r[0], r[1]) for r in naming], names, said)
    facts = sorted({*about, *gone})
    triples = sorted({*theirs, *ids("SELECT id FROM triples WHERE fact IN (SELECT value FROM json_each(:f))",
                                    {"f": json.dumps(facts)})})
    agenda = ids("SELECT a.id FROM agenda a WHERE a.tenant = :tenant AND a.person = :person" + here.format(t="a")
                 + " ORDER BY a.id")
    insights = ids("SELECT i.id FROM insights i WHERE i.tenant = :tenant AND i.person = :person"
                   + here.format(t="i") + " ORDER BY i.id")
    registry = _registry(conn, _args(tenant, person, where, _turns(conn, tenant, person, where)), where)
    notices = ids("SELECT t.id FROM turns t WHERE t.tenant = :tenant AND instr(t.metadata, '\"person\"') > 0"
                  " AND json_extract(t.metadata, '$.person') = :person" + here.format(t="t") + " ORDER BY t.id")
    scopes = sorted({r[0] for table, refs in (("facts", [*facts, *unnamed]), ("triples", triples),
                                              ("agenda", agenda), ("insights", insights))
                     for r in conn.execute(f"SELECT DISTINCT scope_key FROM {table} WHERE id IN"
                                           " (SELECT value FROM json_each(?))", (json.dumps(refs),))})
    return HeldRows(
        person=bool(registry["people"]), facts=tuple(facts), unnamed=tuple(sorted(unnamed)), triples=tuple(triples),
        agenda=tuple(agenda), insights=tuple(insights), entities=tuple(entities) if where is None else (),
        aliases=tuple(sorted({r["alias"] for r in registry["aliases"]})),
        owners=tuple(sorted({r["owner"] for r in registry["members"]})), scopes=tuple(scopes),
        notices=tuple(notices), names=tuple(sorted(set(names))))


def _turns(conn: sqlite3.Connection, tenant: str, person: str, where: Scope | None) -> list[int]:
    if where is None:
        return [r[0] for r in conn.execute("SELECT id FROM turns WHERE tenant=? AND actor_id=?", (tenant, person))]
    return [r[0] for r in conn.execute("SELECT id FROM turns WHERE scope_key=? AND actor_id=?", (where.key, person))]


def _registry_tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """The registry's tables and their columns: every table with a ``tenant`` and a ``person``
    column and no ``id`` (people, aliases, members, and any added later), found in the schema
    so that a table added for people is forgotten with them."""
    out = {}
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
        columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        if {"tenant", "person"} <= columns and "id" not in columns:
            out[table] = columns
    return out


def _registry_where(table: str, columns: set[str], where: Scope | None) -> str:
    """The rows of a registry table a forget takes (named parameters): everywhere, all of the
    person's; in one chat, those of that chat (an alias: only one learned or @-mentioned there),
    and those a forgotten turn gave (:turns)."""
    mine = "tenant = :tenant AND person = :person"
    if where is None:
        return mine
    if table == "aliases":
        return mine + " AND source IN ('learned', 'mention') AND owner = :owner"
    if "owner" in columns:
        return mine + " AND owner = :owner" + (" AND agent = :agent" if "agent" in columns else "")
    if "turn_id" in columns:
        return mine + " AND turn_id IN (SELECT value FROM json_each(:turns))"
    return "0"


def _args(tenant: str, person: str, where: Scope | None, turns: Sequence[int]) -> dict[str, Any]:
    return {"tenant": tenant, "person": person, "agent": where.agent_id if where else None,
            "owner": where.owner if where else None, "turns": json.dumps(list(turns))}


def _registry(conn: sqlite3.Connection, args: dict[str, Any], where: Scope | None) -> dict[str, Any]:
    """The registry rows a forget takes, by table (``meta``: the insight counters about them)."""
    out: dict[str, Any] = {}
    for table, columns in _registry_tables(conn).items():
        out[table] = [dict(r) for r in conn.execute(
            f"SELECT * FROM {table} WHERE {_registry_where(table, columns, where)}", args)]
    keys = [r[0] for r in conn.execute("SELECT key FROM meta WHERE key LIKE 'insight:%'")]
    out["meta"] = [dict(r) for r in conn.execute(
        "SELECT * FROM meta WHERE key IN (SELECT value FROM json_each(?))",
        (json.dumps(insight_keys(keys, args["tenant"], args["person"], where)),))]
    return out


def _named_by(conn: sqlite3.Connection, triples: tuple[int, ...]) -> list[int]:
    rows = conn.execute("SELECT subject, object FROM triples WHERE id IN (SELECT value FROM json_each(?))",
                        (json.dumps(list(triples)),))
    return [e for r in rows for e in (r[0], r[1]) if e is not None]


def _delete(conn: sqlite3.Connection, held: HeldRows, tenant: str, person: str, where: Scope | None) -> None:
    for table, refs in (("facts", held.facts), ("agenda", held.agenda), ("insights", held.insights)):
        conn.executemany(f"DELETE FROM {table} WHERE id=?", [(r,) for r in refs])
    for kind, refs in (("fact", held.facts), ("insight", held.insights)):
        conn.executemany("DELETE FROM sources WHERE kind=? AND ref=?", [(kind, r) for r in refs])
        conn.executemany("DELETE FROM vectors WHERE kind=? AND ref=?", [(kind, r) for r in refs])
    for ref in held.unnamed:  # someone else's fact that only mentioned them keeps all but the mention
        raw, said = conn.execute("SELECT mentioned, said FROM facts WHERE id=?", (ref,)).fetchone()
        conn.execute("UPDATE facts SET mentioned=?, said=? WHERE id=?",
                     (json.dumps([p for p in json.loads(raw) if p != person], ensure_ascii=False),
                      without_names(said or "", held.names), ref))
    # a pending inference about them would only find them gone
    conn.execute("DELETE FROM jobs WHERE kind='insights' AND status<>'running' AND json_extract(payload, '$.tenant')=?"
                 " AND json_extract(payload, '$.person')=?" + (" AND json_extract(payload, '$.owner')=?" if where
                                                               else ""),
                 (tenant, person, *([where.owner] if where else [])))
