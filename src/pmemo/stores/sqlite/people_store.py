"""SQLite rows for people: the registry, the names they go by, where they speak.

A mixin ``SQLiteStore`` inherits. Every alias write bumps the tenant's alias version (in
``meta``, in the same transaction), so a resolver built from the aliases knows when it is
stale with one key read.
"""

from __future__ import annotations

import sqlite3
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ...models import Alias, Member, Person, Scope, Turn, strongest
from ..alias_key import ALIAS_OWNER, EARLIER_SET, EARLIER_WHERE
from ..base import NewAlias, NewSign
from ..speakers import as_seen_in, tally
from .codec import utc

# a display name outranks what pmemo guessed; what a person registered outranks all


_INSERT_ALIAS = ("INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen, turn_id)"
                 " VALUES(?,?,?,?,?,?,?,?)")
_EARLIER = (f" ON CONFLICT(tenant, person, alias, source, ({ALIAS_OWNER})) DO UPDATE SET {EARLIER_SET}"
            f" WHERE {EARLIER_WHERE.format(old='aliases', new='excluded')}")
_MEMBERS = ("SELECT person, first_seen, last_seen, messages, chars, han, asks FROM members"
            " WHERE tenant=? AND agent=? AND owner=?")


class PeopleRows:
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

    # ---- written with turns ----------------------------------------------------------------
    def _note_speakers(self, conn: sqlite3.Connection, turns: Sequence[Turn]) -> None:
        """Who spoke where (first/last seen, messages) and the display names they used, in the
        turns' own transaction; a new name for a known id is a rename (the old one stays)."""
        seen, names = tally(turns)
        if not seen:
            return
        now = time.time()
        conn.executemany(
            "INSERT INTO people(tenant, person, name, created, updated) VALUES(?,?,NULL,?,?)"
            " ON CONFLICT DO NOTHING", {(k[0], k[3], now, now) for k in seen})
        conn.executemany(
            "INSERT INTO members(tenant, agent, owner, person, first_seen, last_seen, messages, chars, han, asks)"
            " VALUES(?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET"
            " first_seen=MIN(first_seen, excluded.first_seen), last_seen=MAX(last_seen, excluded.last_seen),"
            " messages=messages+excluded.messages, chars=chars+excluded.chars, han=han+excluded.han,"
            " asks=asks+excluded.asks",
            [(*k, v[0], v[1], *map(int, v[2:])) for k, v in seen.items()])
        fresh = set()
        for (tenant, person, name), (lo, hi, owner) in names.items():
            if conn.execute("INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen)"
                            " VALUES(?,?,?,'name',?,?,?) ON CONFLICT DO NOTHING",
                            (tenant, person, name, owner, lo, hi)).rowcount:
                fresh.add(tenant)
            else:
                conn.execute("UPDATE aliases SET first_seen=MIN(first_seen, ?), last_seen=MAX(last_seen, ?)"
                             " WHERE tenant=? AND person=? AND alias=? AND source='name'",
                             (lo, hi, tenant, person, name))
        for tenant in fresh:  # the resolver changes only when a name is new
            self._bump_aliases(conn, tenant)

    # ---- the registry -----------------------------------------------------------------------
    def add_person(self, tenant: str, person: str, name: str | None, aliases: Iterable[str],
                   member_of: Scope | None = None) -> None:
        """Create or update a person; aliases are merged (a removed one given again is back).
        ``member_of``: a group or private chat they belong to before they speak there."""
        now = time.time()
        with self._tx() as conn:
            if member_of is not None:
                conn.execute("INSERT INTO members(tenant, agent, owner, person, first_seen, last_seen, messages)"
                             " VALUES(?,?,?,?,?,?,0) ON CONFLICT DO NOTHING",
                             (member_of.tenant_id, member_of.agent_id, member_of.owner, person, now, now))
            conn.execute(
                "INSERT INTO people(tenant, person, name, created, updated) VALUES(?,?,?,?,?)"
                " ON CONFLICT DO UPDATE SET name=COALESCE(excluded.name, name), updated=excluded.updated",
                (tenant, person, name, now, now))
            given = [a for a in dict.fromkeys([*([name] if name else []), *aliases])]
            conn.executemany("UPDATE aliases SET removed=NULL WHERE tenant=? AND person=? AND alias=?",
                             [(tenant, person, a) for a in given])
            conn.executemany(
                "INSERT INTO aliases(tenant, person, alias, source, owner, first_seen, last_seen)"
                " VALUES(?,?,?,'registered',NULL,?,?) ON CONFLICT DO UPDATE SET last_seen=excluded.last_seen",
                [(tenant, person, a, now, now) for a in given])
            self._bump_aliases(conn, tenant)

    def add_aliases(self, tenant: str, rows: Sequence[NewAlias]) -> int:
        """Aliases pmemo found (learned, mentions, generated); one a person had removed stays
        removed. Returns how many are new."""
        if not rows:
            return 0
        added = 0
        with self._tx() as conn:
            for r in rows:
                if conn.execute("SELECT 1 FROM aliases WHERE tenant=? AND person=? AND alias=?"
                                " AND removed IS NOT NULL", (tenant, r.person, r.alias)).fetchone():
                    continue
                conn.execute("INSERT INTO people(tenant, person, name, created, updated) VALUES(?,?,NULL,?,?)"
                             " ON CONFLICT DO NOTHING", (tenant, r.person, r.at, r.at))
                row = (tenant, r.person, r.alias, r.source, r.owner, r.at, r.at, r.turn_id)
                cur = conn.execute(_INSERT_ALIAS + " ON CONFLICT DO NOTHING", row)
                if not cur.rowcount:  # met again: it keeps its earliest sighting
                    conn.execute(_INSERT_ALIAS + _EARLIER, row)
                added += cur.rowcount
            if added:
                self._bump_aliases(conn, tenant)
        return added

    def remove_alias(self, tenant: str, person: str, alias: str) -> int:
        """Mark an alias removed (every source of it); returns how many rows it had."""
        with self._tx() as conn:
            n = conn.execute("UPDATE aliases SET removed=? WHERE tenant=? AND person=? AND alias=?"
                             " AND removed IS NULL", (time.time(), tenant, person, alias)).rowcount
            if n:
                self._bump_aliases(conn, tenant)
        return n

    @staticmethod
    def _bump_aliases(conn: sqlite3.Connection, tenant: str) -> None:
        conn.execute("INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT DO UPDATE"
                     " SET value=CAST(value AS INTEGER)+1", (f"aliases:{tenant}",))

    def alias_version(self, tenant: str) -> int:
        row = self._read.execute("SELECT value FROM meta WHERE key=?", (f"aliases:{tenant}",)).fetchone()
        return int(row[0]) if row else 0

    def alias_rows(self, tenant: str) -> list[tuple[str, str, str, str | None]]:
        """(alias, person, source, owner) of every alias in use in the tenant."""
        return [tuple(r) for r in self._read.execute(
            "SELECT alias, person, source, owner FROM aliases WHERE tenant=? AND removed IS NULL", (tenant,))]

    def add_signs(self, tenant: str, rows: Sequence[NewSign]) -> int:
        """Gender evidence (people/guesses.py); a row seen again adds nothing. Returns how many are new."""
        if not rows:
            return 0
        with self._tx() as conn:
            added = sum(conn.execute(
                "INSERT INTO person_signs(tenant, person, source, gender, turn_id, at) VALUES(?,?,?,?,?,?)"
                " ON CONFLICT DO NOTHING", (tenant, *r)).rowcount for r in rows)
            if added:
                conn.execute("INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT DO UPDATE"
                             " SET value=CAST(value AS INTEGER)+1", (f"signs:{tenant}",))
        return added

    def sign_version(self, tenant: str) -> int:
        row = self._read.execute("SELECT value FROM meta WHERE key=?", (f"signs:{tenant}",)).fetchone()
        return int(row[0]) if row else 0

    def signs(self, tenant: str) -> list[tuple[str, str, str, int]]:
        """(person, source, gender, how many) of the tenant's gender evidence."""
        return [tuple(r) for r in self._read.execute(
            "SELECT person, source, gender, COUNT(*) FROM person_signs WHERE tenant=?"
            " GROUP BY person, source, gender ORDER BY person, source, gender", (tenant,))]

    def member_ids(self, scope: Scope) -> set[str]:
        return {r[0] for r in self._read.execute(
            "SELECT person FROM members WHERE tenant=? AND agent=? AND owner=?",
            (scope.tenant_id, scope.agent_id, scope.owner))}

    def get_people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        """The people with these ids that exist in the tenant, with their names and aliases."""
        return self._people(tenant, ids)

    def _people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        rows = self._read.execute(f"SELECT person, name FROM people WHERE tenant=? AND person IN ({marks})",
                                  (tenant, *wanted)).fetchall()
        if not rows:
            return {}
        aliases: dict[str, list[Alias]] = defaultdict(list)
        for r in self._read.execute(
                "SELECT person, alias, source, owner, first_seen, last_seen, turn_id FROM aliases"
                f" WHERE tenant=? AND person IN ({marks}) AND removed IS NULL ORDER BY first_seen, alias",
                (tenant, *wanted)):
            aliases[r[0]].append(Alias(r[1], r[2], r[3], utc(r[4]), utc(r[5]), r[6]))
        activity = {r[0]: r[1:] for r in self._read.execute(
            f"SELECT person, MIN(first_seen), MAX(last_seen), SUM(messages) FROM members"
            f" WHERE tenant=? AND person IN ({marks}) GROUP BY person", (tenant, *wanted))}
        out = {}
        for person, registered in rows:
            known = aliases.get(person, [])
            names = tuple(a.alias for a in known if a.source == "name")
            latest = max((a for a in known if a.source == "name"), key=lambda a: a.last_seen, default=None)
            lo, hi, n = activity.get(person, (None, None, 0))
            out[person] = Person(person, tenant, latest.alias if latest else registered, names,
                                 strongest(known), utc(lo) if lo else None, utc(hi) if hi else None,
                                 int(n or 0))
        return out

    def members(self, scope: Scope, people: Sequence[str] | None = None) -> list[Member]:
        """The members of the scope's owner (a group or private chat), latest speaker first, then
        those who never spoke; ``people``: only those. A nickname learned in another group is
        what was said there: it is not among a member's aliases here."""
        return self._members(scope, people)

    def _members(self, scope: Scope, people: Sequence[str] | None = None) -> list[Member]:
        sql, args = _MEMBERS, [scope.tenant_id, scope.agent_id, scope.owner]
        if people is not None:
            sql, args = sql + f" AND person IN ({','.join('?' * len(people))})", [*args, *people]
        # who spoke latest first; members who never spoke (registered in the group) last
        rows = self._read.execute(sql + " ORDER BY messages = 0, last_seen DESC, person", args).fetchall()
        found = {p: as_seen_in(person, scope.owner)
                 for p, person in self._people(scope.tenant_id, [r[0] for r in rows]).items()}
        return [Member(found[r[0]], scope.owner, utc(r[1]), utc(r[2]), *r[3:]) for r in rows if r[0] in found]

    def turns_by(self, tenant: str, person: str, scope: Scope | None = None) -> list[int]:
        """The turns a person said, in one group or chat (``scope``'s owner) or anywhere in the tenant."""
        if scope is None:
            rows = self._read.execute("SELECT id FROM turns WHERE tenant=? AND actor_id=? ORDER BY id",
                                      (tenant, person))
        else:
            rows = self._read.execute("SELECT id FROM turns WHERE scope_key=? AND actor_id=? ORDER BY id",
                                      (scope.key, person))
        return [r[0] for r in rows]

    def turns_naming(self, tenant: str, taught_by: list[int]) -> list[int]:
        """The tenant's user turns, other than ``taught_by``, whose text holds an alias one of
        ``taught_by`` taught (a scan of the tenant's turns, made only when one did)."""
        ids = [int(i) for i in taught_by]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [r[0] for r in self._read.execute(
            f"SELECT DISTINCT t.id FROM (SELECT DISTINCT lower(alias) AS alias FROM aliases WHERE tenant=?"
            f" AND turn_id IN ({marks}) AND removed IS NULL) a JOIN turns t ON t.tenant=?"
            f" AND instr(lower(t.content), a.alias) > 0 WHERE t.role='user' AND t.id NOT IN ({marks}) ORDER BY t.id",
            (tenant, *ids, tenant, *ids))]

    def person_owners(self, tenant: str, person: str) -> list[str]:
        """Where a person spoke (owners), oldest first."""
        return [r[0] for r in self._read.execute(
            "SELECT owner FROM members WHERE tenant=? AND person=? ORDER BY first_seen", (tenant, person))]
