"""People on PostgreSQL: the registry, the names they go by, where they speak (PeopleStore).

Who spoke where is noted with the turns, in their transaction (``_turns_added``, the hook
``TurnRows.add_turns`` calls). Every alias write bumps the tenant's alias version (in ``meta``,
in the same transaction), so a resolver built from the aliases knows when it is stale with one
key read. Rows are written in one order (people, members, aliases; sorted within each), so two
writers never wait on each other in a circle.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

from ...models import Alias, Member, Person, Scope, Turn, strongest
from ..alias_key import ALIAS_OWNER, EARLIER_SET, EARLIER_WHERE
from ..base import NewAlias, NewSign
from ..speakers import as_seen_in, tally
from .codec import utc
from .turns import TurnRows

_MEMBERS = ("SELECT person, first_seen, last_seen, messages, chars, han, asks FROM members"
            " WHERE tenant=%s AND agent=%s AND owner=%s")


def people_reads(tenant: str, ids: list[str]) -> list[tuple[str, Any, str]]:
    """The three reads of ``get_people`` (``Database.reads``): the people, their aliases, their activity."""
    args = (tenant, ids)
    return [("SELECT person, name FROM people WHERE tenant=%s AND person = ANY(%s::text[])", args, "rows"),
            ("SELECT person, alias, source, owner, first_seen, last_seen, turn_id FROM aliases"
             " WHERE tenant=%s AND person = ANY(%s::text[]) AND removed IS NULL ORDER BY first_seen, alias", args,
             "rows"),
            ("SELECT person, MIN(first_seen), MAX(last_seen), SUM(messages) FROM members"
             " WHERE tenant=%s AND person = ANY(%s::text[]) GROUP BY person", args, "rows")]


def people_of(tenant: str, rows: list[Any], alias_rows: list[Any], activity_rows: list[Any]) -> dict[str, Person]:
    """``people_reads``' rows as the people found, by id."""
    aliases: dict[str, list[Alias]] = defaultdict(list)
    for r in alias_rows:
        aliases[r[0]].append(Alias(r[1], r[2], r[3], utc(r[4]), utc(r[5]), r[6]))
    activity = {r[0]: r[1:] for r in activity_rows}
    out = {}
    for person, registered in rows:
        known = aliases.get(person, [])
        names = tuple(a.alias for a in known if a.source == "name")
        latest = max((a for a in known if a.source == "name"), key=lambda a: a.last_seen, default=None)
        lo, hi, n = activity.get(person, (None, None, 0))
        out[person] = Person(person, tenant, latest.alias if latest else registered, names,
                             strongest(known), utc(lo) if lo else None, utc(hi) if hi else None, int(n or 0))
    return out
# add_aliases' rows: one a person removed stays removed; a new person is made with the time of
# their first row; the aliases inserted in row order (a repeated row: the first one counts)
_ADD_ALIASES = (
    "WITH r AS (SELECT * FROM unnest(%(person)s::text[], %(alias)s::text[], %(source)s::text[], %(owner)s::text[],"
    " %(at)s::float8[], %(turn)s::bigint[]) WITH ORDINALITY AS r(person, alias, source, owner, at, turn_id, n)),"
    # one row a key (an upsert may not touch a row twice): its earliest sighting
    f" k AS (SELECT DISTINCT ON (person, alias, source, ({ALIAS_OWNER})) * FROM r"
    f" ORDER BY person, alias, source, ({ALIAS_OWNER}), at, COALESCE(owner, ''), n),"
    " kept AS (SELECT * FROM k WHERE NOT EXISTS (SELECT 1 FROM aliases a WHERE a.tenant=%(tenant)s"
    " AND a.person=k.person AND a.alias=k.alias AND a.removed IS NOT NULL)),"
    " p AS (INSERT INTO people(tenant, person, name, created, updated)"
    " SELECT DISTINCT ON (person) %(tenant)s, person, NULL, at, at FROM kept ORDER BY person, n"
    " ON CONFLICT DO NOTHING),"
    " a AS (INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen, turn_id)"
    " SELECT %(tenant)s, person, alias, source, owner, at, at, turn_id FROM kept ORDER BY n"
    f" ON CONFLICT(tenant, person, alias, source, ({ALIAS_OWNER})) DO UPDATE"
    f" SET {EARLIER_SET} WHERE {EARLIER_WHERE.format(old='aliases', new='EXCLUDED')}"
    " RETURNING xmax = 0 AS fresh),"
    # bump()'s write, when an alias is new: the resolver's version moves on in the same statement
    " v AS (INSERT INTO meta(key, value) SELECT %(version)s, '1' WHERE EXISTS (SELECT 1 FROM a WHERE fresh)"
    " ON CONFLICT(key) DO UPDATE SET value=(meta.value::bigint + 1)::text)"
    " SELECT count(*) FILTER (WHERE fresh) FROM a")


def bump(cur: psycopg.Cursor[Any], key: str) -> None:
    """Count one more change under ``key`` in ``meta`` (a version readers compare)."""
    cur.execute("INSERT INTO meta(key, value) VALUES(%s, '1') ON CONFLICT(key) DO UPDATE"
                " SET value=(meta.value::bigint + 1)::text", (key,))


class PeopleRows(TurnRows):
    # ---- written with turns ----------------------------------------------------------------
    def _turns_added(self, cur: psycopg.Cursor[Any], turns: list[Turn]) -> None:
        super()._turns_added(cur, turns)
        self._note_speakers(cur, turns)

    def _note_speakers(self, cur: psycopg.Cursor[Any], turns: Sequence[Turn]) -> None:
        """Who spoke where (first/last seen, messages) and the display names they used; a new
        name for a known id is a rename (the old one stays)."""
        seen, names = tally(turns)
        if not seen:
            return
        now = time.time()
        cur.executemany("INSERT INTO people(tenant, person, name, created, updated) VALUES(%s,%s,NULL,%s,%s)"
                        " ON CONFLICT DO NOTHING", sorted({(k[0], k[3], now, now) for k in seen}))
        cur.executemany(
            "INSERT INTO members(tenant, agent, owner, person, first_seen, last_seen, messages, chars, han, asks)"
            " VALUES(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT(tenant, agent, owner, person) DO UPDATE SET"
            " first_seen=LEAST(members.first_seen, EXCLUDED.first_seen),"
            " last_seen=GREATEST(members.last_seen, EXCLUDED.last_seen), messages=members.messages+EXCLUDED.messages,"
            " chars=members.chars+EXCLUDED.chars, han=members.han+EXCLUDED.han, asks=members.asks+EXCLUDED.asks",
            [(*k, v[0], v[1], *map(int, v[2:])) for k, v in sorted(seen.items())])
        fresh = set()
        for (tenant, person, name), (lo, hi, owner) in sorted(names.items()):
            if cur.execute("INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen)"
                           " VALUES(%s,%s,%s,'name',%s,%s,%s) ON CONFLICT DO NOTHING",
                           (tenant, person, name, owner, lo, hi)).rowcount:
                fresh.add(tenant)
            else:
                cur.execute("UPDATE aliases SET first_seen=LEAST(first_seen, %s), last_seen=GREATEST(last_seen, %s)"
                            " WHERE tenant=%s AND person=%s AND alias=%s AND source='name'",
                            (lo, hi, tenant, person, name))
        for tenant in sorted(fresh):  # the resolver changes only when a name is new
            bump(cur, f"aliases:{tenant}")

    # ---- the registry -----------------------------------------------------------------------
    def add_person(self, tenant: str, person: str, name: str | None, aliases: Iterable[str],
                   member_of: Scope | None = None) -> None:
        """Create or update a person; aliases are merged (a removed one given again is back).
        ``member_of``: a group or private chat they belong to before they speak there."""
        now = time.time()
        given = list(dict.fromkeys([*([name] if name else []), *aliases]))
        with self._db.tx() as cur:  # people, members, aliases: the order _note_speakers writes them in
            cur.execute(
                "INSERT INTO people(tenant, person, name, created, updated) VALUES(%s,%s,%s,%s,%s)"
                " ON CONFLICT(tenant, person) DO UPDATE SET name=COALESCE(EXCLUDED.name, people.name),"
                " updated=EXCLUDED.updated", (tenant, person, name, now, now))
            if member_of is not None:
                cur.execute("INSERT INTO members(tenant, agent, owner, person, first_seen, last_seen, messages)"
                            " VALUES(%s,%s,%s,%s,%s,%s,0) ON CONFLICT DO NOTHING",
                            (member_of.tenant_id, member_of.agent_id, member_of.owner, person, now, now))
            cur.execute("UPDATE aliases SET removed=NULL WHERE tenant=%s AND person=%s AND alias = ANY(%s::text[])",
                        (tenant, person, given))
            cur.executemany(
                "INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen)"
                " VALUES(%s,%s,%s,'registered',NULL,%s,%s)"
                f" ON CONFLICT(tenant, person, alias, source, ({ALIAS_OWNER}))"
                " DO UPDATE SET last_seen=EXCLUDED.last_seen", [(tenant, person, a, now, now) for a in sorted(given)])
            bump(cur, f"aliases:{tenant}")

    def add_aliases(self, tenant: str, rows: Sequence[NewAlias]) -> int:
        """Aliases pmemo found (learned, mentions, generated); one a person had removed stays
        removed. Returns how many are new."""
        if not rows:
            return 0
        # one statement for all the rows, in their order, and the version (three statements a
        # row in a transaction were 3.3 round trips a message of a group chat: a batch's
        # speakers' name forms come again with every batch)
        columns = {"tenant": tenant, "person": [r.person for r in rows], "alias": [r.alias for r in rows],
                   "source": [r.source for r in rows], "owner": [r.owner for r in rows],
                   "at": [r.at for r in rows], "turn": [r.turn_id for r in rows]}
        row = self._db.one(_ADD_ALIASES, {**columns, "version": f"aliases:{tenant}"})
        return int(row[0]) if row else 0

    def remove_alias(self, tenant: str, person: str, alias: str) -> int:
        """Mark an alias removed (every source of it); returns how many rows it had."""
        with self._db.tx() as cur:
            n = cur.execute("UPDATE aliases SET removed=%s WHERE tenant=%s AND person=%s AND alias=%s"
                            " AND removed IS NULL", (time.time(), tenant, person, alias)).rowcount
            if n:
                bump(cur, f"aliases:{tenant}")
        return n

    def alias_version(self, tenant: str) -> int:
        row = self._db.one("SELECT value FROM meta WHERE key=%s", (f"aliases:{tenant}",))
        return int(row[0]) if row else 0

    def alias_rows(self, tenant: str) -> list[tuple[str, str, str, str | None]]:
        """(alias, person, source, owner) of every alias in use in the tenant."""
        return [(r[0], r[1], r[2], r[3]) for r in self._db.rows(
            "SELECT alias, person, source, owner FROM aliases WHERE tenant=%s AND removed IS NULL"
            " ORDER BY person, alias, source, owner", (tenant,))]

    def add_signs(self, tenant: str, rows: Sequence[NewSign]) -> int:
        """Gender evidence (people/guesses.py); a row seen again adds nothing. Returns how many are new."""
        if not rows:
            return 0
        with self._db.tx() as cur:
            added = 0
            for r in sorted(rows):
                added += cur.execute(
                    "INSERT INTO person_signs(tenant, person, source, gender, turn_id, at) VALUES(%s,%s,%s,%s,%s,%s)"
                    " ON CONFLICT DO NOTHING", (tenant, *r)).rowcount
            if added:
                bump(cur, f"signs:{tenant}")
        return added

    def sign_version(self, tenant: str) -> int:
        row = self._db.one("SELECT value FROM meta WHERE key=%s", (f"signs:{tenant}",))
        return int(row[0]) if row else 0

    def signs(self, tenant: str) -> list[tuple[str, str, str, int]]:
        """(person, source, gender, how many) of the tenant's gender evidence."""
        return [(r[0], r[1], r[2], int(r[3])) for r in self._db.rows(
            "SELECT person, source, gender, count(*) FROM person_signs WHERE tenant=%s"
            " GROUP BY person, source, gender ORDER BY person, source, gender", (tenant,))]

    def member_ids(self, scope: Scope) -> set[str]:
        return {r[0] for r in self._db.rows("SELECT person FROM members WHERE tenant=%s AND agent=%s AND owner=%s",
                                            (scope.tenant_id, scope.agent_id, scope.owner))}

    def get_people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        """The people with these ids that exist in the tenant, with their names and aliases."""
        return self._people(tenant, ids)

    def _people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        return people_of(tenant, *self._db.reads(people_reads(tenant, wanted)))

    def members(self, scope: Scope, people: Sequence[str] | None = None) -> list[Member]:
        """The members of the scope's owner (a group or private chat), latest speaker first, then
        those who never spoke; ``people``: only those. A nickname learned in another group is
        what was said there: it is not among a member's aliases here."""
        sql, args = _MEMBERS, list[Any]([scope.tenant_id, scope.agent_id, scope.owner])
        if people is not None:
            sql, args = sql + " AND person = ANY(%s::text[])", [*args, list(people)]
        # who spoke latest first; members who never spoke (registered in the group) last
        rows = self._db.rows(sql + " ORDER BY messages = 0, last_seen DESC, person", args)
        found = {p: as_seen_in(person, scope.owner)
                 for p, person in self._people(scope.tenant_id, [r[0] for r in rows]).items()}
        return [Member(found[r[0]], scope.owner, utc(r[1]), utc(r[2]), *r[3:]) for r in rows if r[0] in found]

    def turns_by(self, tenant: str, person: str, scope: Scope | None = None) -> list[int]:
        """The turns a person said, in one group or chat (``scope``'s owner) or anywhere in the tenant."""
        if scope is None:
            rows = self._db.rows("SELECT id FROM turns WHERE tenant=%s AND actor_id=%s ORDER BY id", (tenant, person))
        else:
            rows = self._db.rows("SELECT id FROM turns WHERE scope_key=%s AND actor_id=%s ORDER BY id",
                                 (scope.key, person))
        return [r[0] for r in rows]

    def turns_naming(self, tenant: str, taught_by: list[int]) -> list[int]:
        """The tenant's user turns, other than ``taught_by``, whose text holds an alias one of
        ``taught_by`` taught (a scan of the tenant's turns, made only when one did)."""
        return [r[0] for r in self._db.rows(
            "SELECT DISTINCT t.id FROM (SELECT DISTINCT lower(alias) AS alias FROM aliases WHERE tenant=%(t)s"
            " AND turn_id = ANY(%(ids)s) AND removed IS NULL) a JOIN turns t ON t.tenant=%(t)s"
            " AND strpos(lower(t.content), a.alias) > 0 WHERE t.role='user' AND NOT t.id = ANY(%(ids)s) ORDER BY t.id",
            {"t": tenant, "ids": [int(i) for i in taught_by]})]

    def person_owners(self, tenant: str, person: str) -> list[str]:
        """Where a person spoke (owners), oldest first."""
        return [r[0] for r in self._db.rows(
            "SELECT owner FROM members WHERE tenant=%s AND person=%s ORDER BY first_seen, owner", (tenant, person))]
