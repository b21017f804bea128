"""People on PostgreSQL: what is its own of the people port (``stores/people_sql.py`` is the
rest): a batch of aliases filed in one statement, a call's reads sent in one round trip; and
who speaks where, kept with the turns.

Who spoke where is noted with the turns, in their transaction (``PostgresTurns.add_turns`` calls
``note_speakers``). Every alias write bumps the tenant's alias version (in ``meta``,
in the same transaction), so a resolver built from the aliases knows when it is stale with one
key read. Rows are written in one order (people, members, aliases; sorted within each), so two
writers never wait on each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import psycopg

from ...ports.people import NewAlias
from ..alias_key import ALIAS_OWNER, EARLIER_SET, EARLIER_WHERE
from ..people_sql import Read, SQLPeople
from ..sql import Args, Dialect, Exec, Row
from .database import Database
from .dialect import PostgresLink, placeholders

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


class PostgresPeople(SQLPeople):
    """The people port on Postgres: ``add_aliases`` in one statement, ``_reads`` in one round trip."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        super().__init__(PostgresLink(db), dialect)
        self._db = db

    def _holding(self, x: Exec, names: str, held: Callable[[str], str], args: Args) -> list[int]:
        """On Postgres, the names first, then the turns whose pairs (``text_pairs``, a GIN index)
        hold all of a name's: the planner takes the index for a name it is given, not for one a
        join brings (it scanned the tenant's turns)."""
        aliases = [r["alias"] for r in x.rows(names, args)]
        if not aliases:
            return []
        return [r["id"] for r in x.rows(" UNION ".join(
            f"SELECT t.id FROM turns t WHERE text_pairs(lower(t.content)) @> text_pairs(:a{i}){held(f':a{i}')}"
            for i in range(len(aliases))) + " ORDER BY 1", {**args, **{f"a{i}": a for i, a in enumerate(aliases)}})]

    def _reads(self, reads: Sequence[Read]) -> list[list[Row]]:
        return self._db.reads([(placeholders(sql), args, "dicts") for sql, args in reads])

    def add_aliases(self, tenant: str, rows: Sequence[NewAlias]) -> int:
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
