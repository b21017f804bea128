"""The people port (``ports.people.PeoplePort``) in SQL, written once for SQLite and Postgres.

Every alias write bumps the tenant's alias version (in ``meta``, in the same transaction), so a
resolver built from the aliases knows when it is stale with one key read; new gender evidence
bumps the sign version the same way. Rows are written in one order (people, members, aliases;
sorted within each), so two writers never wait on each other in a circle.

What differs by backend is passed in (the ``Dialect`` and the ``Link``), and two hooks a backend
module may override: ``add_aliases`` (Postgres files a batch in one statement) and ``_reads``
(Postgres sends a call's independent reads in one round trip). Who spoke where is written with
the turns, in their transaction (``note_speakers``, which each backend's turn writer calls).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..models import Alias, Member, Person, Scope, Turn, strongest
from ..ports.people import NewAlias, NewSign, PeoplePort
from .alias_key import ALIAS_OWNER, EARLIER_SET, EARLIER_WHERE
from .speakers import as_seen_in, tally
from .sql import Args, Dialect, Exec, Link, Row

Read = tuple[str, dict[str, Any]]  # one independent read of a call: (sql, args)

MEMBERS = ("SELECT person, first_seen, last_seen, messages, chars, han, asks FROM members"
           " WHERE tenant=:tenant AND agent=:agent AND owner=:owner")
# who spoke latest first; members who never spoke (registered in the group) last
MEMBERS_ORDER = " ORDER BY messages = 0, last_seen DESC, person"
_ALIAS = ("INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen, turn_id)"
          " VALUES(:tenant, :person, :alias, :source, :owner, :at, :at, :turn)")
_EARLIER = (f" ON CONFLICT(tenant, person, alias, source, ({ALIAS_OWNER})) DO UPDATE SET {EARLIER_SET}"
            f" WHERE {EARLIER_WHERE.format(old='aliases', new='excluded')}")


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def bump(x: Exec, key: str) -> None:
    """Count one more change under ``key`` in ``meta`` (a version readers compare)."""
    x.run("INSERT INTO meta(key, value) VALUES(:key, '1') ON CONFLICT(key) DO UPDATE"
          " SET value=CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)", {"key": key})


def version(x: Exec, key: str) -> int:
    row = x.one("SELECT value FROM meta WHERE key=:key", {"key": key})
    return int(row["value"]) if row else 0


# ---- argument builders and reads --------------------------------------------------------------
def people_reads(d: Dialect, tenant: str, ids: list[str]) -> list[Read]:
    """The three reads of ``get_people``: the people, their aliases, their activity."""
    args = {"tenant": tenant, "ids": d.texts(ids)}
    return [(f"SELECT person, name FROM people WHERE tenant=:tenant AND {d.in_('person', 'ids', 'text')}", args),
            ("SELECT person, alias, source, owner, first_seen, last_seen, turn_id FROM aliases"
             f" WHERE tenant=:tenant AND {d.in_('person', 'ids', 'text')} AND removed IS NULL"
             " ORDER BY first_seen, alias", args),
            ("SELECT person, MIN(first_seen) AS lo, MAX(last_seen) AS hi, SUM(messages) AS n FROM members"
             f" WHERE tenant=:tenant AND {d.in_('person', 'ids', 'text')} GROUP BY person", args)]


def members_read(d: Dialect, scope: Scope, people: Sequence[str] | None) -> Read:
    """The members of ``scope``'s owner (``people``: only those), in ``members``' order."""
    sql, args = MEMBERS, {"tenant": scope.tenant_id, "agent": scope.agent_id, "owner": scope.owner}
    if people is not None:
        sql, args = sql + f" AND {d.in_('person', 'people', 'text')}", {**args, "people": d.texts(people)}
    return sql + MEMBERS_ORDER, args


# ---- row codecs --------------------------------------------------------------------------------
def people_of(tenant: str, rows: Iterable[Row], alias_rows: Iterable[Row],
              activity_rows: Iterable[Row]) -> dict[str, Person]:
    """``people_reads``' rows as the people found, by id: the display name is the latest name
    they used, else the registered one."""
    aliases: dict[str, list[Alias]] = defaultdict(list)
    for r in alias_rows:
        aliases[r["person"]].append(Alias(r["alias"], r["source"], r["owner"], _utc(r["first_seen"]),
                                          _utc(r["last_seen"]), r["turn_id"]))
    activity = {r["person"]: (r["lo"], r["hi"], r["n"]) for r in activity_rows}
    out = {}
    for r in rows:
        person, known = r["person"], aliases.get(r["person"], [])
        names = tuple(a.alias for a in known if a.source == "name")
        latest = max((a for a in known if a.source == "name"), key=lambda a: a.last_seen, default=None)
        lo, hi, n = activity.get(person, (None, None, 0))
        out[person] = Person(person, tenant, latest.alias if latest else r["name"], names, strongest(known),
                             _utc(lo) if lo else None, _utc(hi) if hi else None, int(n or 0))
    return out


def member_of(row: Row, person: Person, owner: str) -> Member:
    """A ``MEMBERS`` row of ``person`` as seen in ``owner``."""
    return Member(as_seen_in(person, owner), owner, _utc(row["first_seen"]), _utc(row["last_seen"]),
                  row["messages"], row["chars"], row["han"], row["asks"])


# ---- written with the turns ---------------------------------------------------------------------
def note_speakers(x: Exec, d: Dialect, turns: Sequence[Turn]) -> None:
    """Who spoke where (first/last seen, messages, how they talk) and the display names they
    used, in the turns' own transaction (``x``); a new name for a known id is a rename (the old
    one stays), and moves the tenant's alias version on."""
    seen, names = tally(turns)
    if not seen:
        return
    now = time.time()
    x.many("INSERT INTO people(tenant, person, name, created, updated) VALUES(:tenant, :person, NULL, :now, :now)"
           " ON CONFLICT DO NOTHING", [{"tenant": t, "person": p, "now": now} for t, p in sorted({(k[0], k[3])
                                                                                              for k in seen})])
    x.many("INSERT INTO members(tenant, agent, owner, person, first_seen, last_seen, messages, chars, han, asks)"
           " VALUES(:tenant, :agent, :owner, :person, :lo, :hi, :messages, :chars, :han, :asks)"
           " ON CONFLICT(tenant, agent, owner, person) DO UPDATE SET"
           f" first_seen={d.least}(members.first_seen, excluded.first_seen),"
           f" last_seen={d.greatest}(members.last_seen, excluded.last_seen),"
           " messages=members.messages+excluded.messages, chars=members.chars+excluded.chars,"
           " han=members.han+excluded.han, asks=members.asks+excluded.asks",
           [dict(zip(("tenant", "agent", "owner", "person"), k, strict=True), lo=v[0], hi=v[1], messages=int(v[2]),
                 chars=int(v[3]), han=int(v[4]), asks=int(v[5])) for k, v in sorted(seen.items())])
    fresh = set()
    # the turn a name was first used in (as a learned alias's): a batch read before that turn
    # came in is read again once it is read (pipelines/reread.py)
    for (tenant, person, name), (lo, hi, owner, first) in sorted(names.items()):
        args = {"tenant": tenant, "person": person, "name": name, "owner": owner, "lo": lo, "hi": hi, "turn": first}
        if x.run("INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen, turn_id)"
                 " VALUES(:tenant, :person, :name, 'name', :owner, :lo, :hi, :turn) ON CONFLICT DO NOTHING", args):
            fresh.add(tenant)
        else:
            x.run(f"UPDATE aliases SET turn_id=CASE WHEN :lo < first_seen THEN :turn ELSE turn_id END,"
                  f" first_seen={d.least}(first_seen, :lo), last_seen={d.greatest}(last_seen, :hi)"
                  " WHERE tenant=:tenant AND person=:person AND alias=:name AND source='name'", args)
    for tenant in sorted(fresh):  # the resolver changes only when a name is new
        bump(x, f"aliases:{tenant}")


class SQLPeople:
    """``PeoplePort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect) -> None:
        self._link = link
        self._d = dialect

    def _reads(self, reads: Sequence[Read]) -> list[list[Row]]:
        """The rows of reads that do not depend on each other (a backend may send them together)."""
        with self._link.read() as x:
            return [x.rows(sql, args) for sql, args in reads]

    # ---- the registry -------------------------------------------------------------------------
    def add_person(self, tenant: str, person: str, name: str | None, aliases: Iterable[str],
                   member_of: Scope | None = None) -> None:
        now = time.time()
        given = list(dict.fromkeys([*([name] if name else []), *aliases]))
        args: dict[str, Any] = {"tenant": tenant, "person": person, "name": name, "now": now}
        with self._link.write() as x:  # people, members, aliases: the order turns write them in
            x.run("INSERT INTO people(tenant, person, name, created, updated) VALUES(:tenant, :person, :name, :now,"
                  " :now) ON CONFLICT(tenant, person) DO UPDATE SET name=COALESCE(excluded.name, people.name),"
                  " updated=excluded.updated", args)
            if member_of is not None:
                x.run("INSERT INTO members(tenant, agent, owner, person, first_seen, last_seen, messages)"
                      " VALUES(:tenant, :agent, :owner, :person, :now, :now, 0) ON CONFLICT DO NOTHING",
                      {**args, "tenant": member_of.tenant_id, "agent": member_of.agent_id, "owner": member_of.owner})
            x.run(f"UPDATE aliases SET removed=NULL WHERE tenant=:tenant AND person=:person"
                  f" AND {self._d.in_('alias', 'given', 'text')}", {**args, "given": self._d.texts(given)})
            for alias in sorted(given):
                x.run("INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen)"
                      " VALUES(:tenant, :person, :alias, 'registered', NULL, :now, :now)"
                      f" ON CONFLICT(tenant, person, alias, source, ({ALIAS_OWNER}))"
                      " DO UPDATE SET last_seen=excluded.last_seen", {**args, "alias": alias})
            bump(x, f"aliases:{tenant}")

    def add_aliases(self, tenant: str, rows: Sequence[NewAlias]) -> int:
        if not rows:
            return 0
        added = 0
        with self._link.write() as x:
            for r in rows:
                args: Args = {"tenant": tenant, "person": r.person, "alias": r.alias, "source": r.source,
                              "owner": r.owner, "at": r.at, "turn": r.turn_id}
                if x.one("SELECT 1 AS removed FROM aliases WHERE tenant=:tenant AND person=:person AND alias=:alias"
                         " AND removed IS NOT NULL", args):
                    continue
                x.run("INSERT INTO people(tenant, person, name, created, updated)"
                      " VALUES(:tenant, :person, NULL, :at, :at) ON CONFLICT DO NOTHING", args)
                new = x.run(_ALIAS + " ON CONFLICT DO NOTHING", args)
                if not new:  # met again: it keeps its earliest sighting
                    x.run(_ALIAS + _EARLIER, args)
                added += new
            if added:
                bump(x, f"aliases:{tenant}")
        return added

    def remove_alias(self, tenant: str, person: str, alias: str) -> int:
        return self._counted(f"aliases:{tenant}", "UPDATE aliases SET removed=:now WHERE tenant=:tenant"
                             " AND person=:person AND alias=:alias AND removed IS NULL",
                             [{"now": time.time(), "tenant": tenant, "person": person, "alias": alias}])

    def _counted(self, key: str, sql: str, rows: Iterable[Args]) -> int:
        """``sql`` once for each of ``rows``, in one transaction; the version ``key`` moves on when
        a row changed. How many did."""
        with self._link.write() as x:
            n = sum(x.run(sql, args) for args in rows)
            if n:
                bump(x, key)
        return n

    def alias_version(self, tenant: str) -> int:
        with self._link.read() as x:
            return version(x, f"aliases:{tenant}")

    def alias_rows(self, tenant: str) -> list[tuple[str, str, str, str | None]]:
        with self._link.read() as x:
            return [(r["alias"], r["person"], r["source"], r["owner"]) for r in x.rows(
                "SELECT alias, person, source, owner FROM aliases WHERE tenant=:tenant AND removed IS NULL"
                " ORDER BY person, alias, source, owner", {"tenant": tenant})]

    def add_signs(self, tenant: str, rows: Sequence[NewSign]) -> int:
        return self._counted(f"signs:{tenant}", "INSERT INTO person_signs(tenant, person, source, gender, turn_id,"
                             " at) VALUES(:tenant, :person, :source, :gender, :turn, :at) ON CONFLICT DO NOTHING",
                             [{"tenant": tenant, "person": r.person, "source": r.source, "gender": r.gender,
                               "turn": r.turn_id, "at": r.at} for r in sorted(rows)])

    def sign_version(self, tenant: str) -> int:
        with self._link.read() as x:
            return version(x, f"signs:{tenant}")

    def signs(self, tenant: str) -> list[tuple[str, str, str, int]]:
        with self._link.read() as x:
            return [(r["person"], r["source"], r["gender"], int(r["n"])) for r in x.rows(
                "SELECT person, source, gender, COUNT(*) AS n FROM person_signs WHERE tenant=:tenant"
                " GROUP BY person, source, gender ORDER BY person, source, gender", {"tenant": tenant})]

    # ---- who is where -------------------------------------------------------------------------
    def member_ids(self, scope: Scope) -> set[str]:
        with self._link.read() as x:
            return {r["person"] for r in x.rows("SELECT person FROM members WHERE tenant=:tenant AND agent=:agent"
                                                " AND owner=:owner", {"tenant": scope.tenant_id,
                                                                      "agent": scope.agent_id, "owner": scope.owner})}

    def get_people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        return people_of(tenant, *self._reads(people_reads(self._d, tenant, wanted)))

    def members(self, scope: Scope, people: Sequence[str] | None = None) -> list[Member]:
        """A nickname learned in another group is what was said there: it is not among a
        member's aliases here."""
        (rows,) = self._reads([members_read(self._d, scope, people)])
        found = self.get_people(scope.tenant_id, [r["person"] for r in rows])
        return [member_of(r, found[r["person"]], scope.owner) for r in rows if r["person"] in found]

    def person_owners(self, tenant: str, person: str) -> list[str]:
        with self._link.read() as x:
            return [r["owner"] for r in x.rows("SELECT owner FROM members WHERE tenant=:tenant AND person=:person"
                                               " ORDER BY first_seen, owner", {"tenant": tenant, "person": person})]

    def turns_by(self, tenant: str, person: str, scope: Scope | None = None) -> list[int]:
        where = "tenant=:tenant" if scope is None else "scope_key=:key"
        with self._link.read() as x:
            return [r["id"] for r in x.rows(f"SELECT id FROM turns WHERE {where} AND actor_id=:person ORDER BY id",
                                            {"tenant": tenant, "person": person,
                                             "key": None if scope is None else scope.key})]

    def turns_naming(self, tenant: str, taught_by: list[int], first_names: bool = False) -> list[int]:
        """Made only when one of ``taught_by`` taught an alias (or, with ``first_names``, first used
        a display name: a new member's first batch): the turns that hold each of the alias's
        character pairs (``_holding``: the store's index of them), then the alias itself."""
        ids = [int(i) for i in taught_by]
        if not ids:
            return []
        d = self._d
        which, older = (" AND source='name'", " AND t.id < :newest") if first_names else ("", "")
        args = {"tenant": tenant, "ids": d.ids(ids), **({"newest": max(ids)} if first_names else {})}
        with self._link.read() as x:
            if first_names and not x.rows("SELECT 1 FROM aliases WHERE tenant=:tenant AND source='name'"
                                          f" AND {d.in_('turn_id', 'ids')} LIMIT 1", args):
                return []  # most batches: no one spoke here for the first time
            names = (f"SELECT DISTINCT lower(alias) AS alias FROM aliases WHERE tenant=:tenant"
                     f" AND {d.in_('turn_id', 'ids')} AND removed IS NULL{which}")
            return self._holding(x, names, lambda alias: (
                f" AND {d.position('lower(t.content)', alias)} > 0 AND t.tenant=:tenant AND t.role='user'{older}"
                f" AND NOT ({d.in_('t.id', 'ids')})"), args)

    def _holding(self, x: Exec, names: str, held: Callable[[str], str], args: Args) -> list[int]:
        """The ids of the turns ``t`` that hold one of the aliases ``names`` reads (``held(alias)``
        says so of the SQL ``alias``), by id: on SQLite, the turns with every pair of the alias in
        ``turn_pairs`` (an alias of one character: every turn of the tenant), in one read."""
        pairs = ("(SELECT '(' || group_concat('\"' || hex(:tenant) || 'x' || hex(substr(a.alias, n, 2)) || '\"',"
                 " ' AND ') || ') OR \"' || hex(:tenant) || 'xlong\"' FROM pair_at WHERE n < length(a.alias))")
        # CROSS JOIN keeps this order: the names, the turns their pairs find, then those turns
        return [r["id"] for r in x.rows(
            f"SELECT t.id FROM ({names}) a CROSS JOIN turn_pairs p CROSS JOIN turns t"
            f" WHERE length(a.alias) > 1 AND turn_pairs MATCH {pairs} AND t.id = p.rowid{held('a.alias')}"
            f" UNION SELECT t.id FROM (SELECT alias FROM ({names}) WHERE length(alias) < 2) a CROSS JOIN turns t"
            f" WHERE TRUE{held('a.alias')} ORDER BY 1", args)]


class PeopleNames:
    """The store's old people methods (``store.add_person`` …), each the port's call: what calls
    them keeps working while consumers move to ``store.people``."""

    people: PeoplePort

    def add_person(self, tenant: str, person: str, name: str | None, aliases: Iterable[str],
                   member_of: Scope | None = None) -> None:
        self.people.add_person(tenant, person, name, aliases, member_of)

    def add_aliases(self, tenant: str, rows: Sequence[NewAlias]) -> int:
        return self.people.add_aliases(tenant, rows)

    def remove_alias(self, tenant: str, person: str, alias: str) -> int:
        return self.people.remove_alias(tenant, person, alias)

    def alias_version(self, tenant: str) -> int:
        return self.people.alias_version(tenant)

    def alias_rows(self, tenant: str) -> list[tuple[str, str, str, str | None]]:
        return self.people.alias_rows(tenant)

    def add_signs(self, tenant: str, rows: Sequence[NewSign]) -> int:
        return self.people.add_signs(tenant, rows)

    def sign_version(self, tenant: str) -> int:
        return self.people.sign_version(tenant)

    def signs(self, tenant: str) -> list[tuple[str, str, str, int]]:
        return self.people.signs(tenant)

    def member_ids(self, scope: Scope) -> set[str]:
        return self.people.member_ids(scope)

    def get_people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        return self.people.get_people(tenant, ids)

    def members(self, scope: Scope, people: Sequence[str] | None = None) -> list[Member]:
        return self.people.members(scope, people)

    def person_owners(self, tenant: str, person: str) -> list[str]:
        return self.people.person_owners(tenant, person)

    def turns_naming(self, tenant: str, taught_by: list[int], first_names: bool = False) -> list[int]:
        return self.people.turns_naming(tenant, taught_by, first_names)

    def turns_by(self, tenant: str, person: str, scope: Scope | None = None) -> list[int]:
        return self.people.turns_by(tenant, person, scope)
