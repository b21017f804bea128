"""What a store derived from one tenant's turns, in terms that do not depend on ids, so that a
store fed by several workers (that died and took over from each other) can be compared with
one a single process fed: every record is named by its owner and by the (session, step) of the
turns it names, never by a row id, and every kind is a multiset (a record made twice counts
twice).

The same SQL reads a SQLite file and a PostgreSQL schema (the tables and columns are the same).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Query = Callable[[str], Sequence[Sequence[Any]]]

_OBJECT = "CASE WHEN t.object IS NULL THEN t.value ELSE COALESCE(o.person, o.name) END"


@dataclass
class Derived:
    turns: int
    vectors: Counter[int]  # how many 'turn' vectors each turn has: {1: turns} when each has one
    clusters: Counter[tuple[str, frozenset[tuple[str, int]]]]  # (owner, members) per cluster
    sizes_off: list[tuple[str, int, int]]  # clusters whose size is not their member count
    summaries: Counter[tuple[Any, ...]]
    facts: Counter[tuple[Any, ...]]
    agenda: Counter[tuple[Any, ...]]
    triples: Counter[tuple[Any, ...]]
    aliases: Counter[tuple[Any, ...]]

    def duplicates(self, kind: str) -> list[Any]:
        """The records of ``kind`` found more than once (a summary of one step range, a cluster
        of the same turns, is made once even by one process)."""
        return [r for r, n in getattr(self, kind).items() if n > 1]

    def compared(self, other: Derived) -> dict[str, tuple[list[Any], list[Any]]]:
        """Per kind, what only this one has and what only ``other`` has: {} when they agree."""
        out = {}
        for kind in ("vectors", "clusters", "summaries", "facts", "agenda", "triples", "aliases"):
            mine, theirs = getattr(self, kind), getattr(other, kind)
            if mine != theirs:
                out[kind] = (sorted((mine - theirs).elements(), key=repr), sorted((theirs - mine).elements(), key=repr))
        if self.turns != other.turns:
            out["turns"] = ([self.turns], [other.turns])
        return out


def derived(query: Query, tenant: str) -> Derived:
    """What ``tenant``'s turns led to in the store ``query`` reads (``query(sql)`` -> rows)."""
    t = f"'{tenant}'"
    turns = query(f"SELECT COUNT(*) FROM turns WHERE tenant = {t}")[0][0]
    vectors = Counter(int(r[0]) for r in query(
        "SELECT COUNT(v.ref) FROM turns t LEFT JOIN vectors v ON v.kind = 'turn' AND v.ref = t.id"
        f" WHERE t.tenant = {t} GROUP BY t.id"))
    members: dict[Any, tuple[str, int, set[tuple[str, int]]]] = {}
    for cid, owner, size, session, step in query(
            "SELECT c.id, c.owner, c.size, t.session, t.step FROM clusters c JOIN cluster_members m"
            f" ON m.cluster_id = c.id JOIN turns t ON t.id = m.turn_id WHERE c.tenant = {t}"):
        members.setdefault(cid, (owner, int(size), set()))[2].add((session, int(step)))
    summaries = query(f"SELECT owner, session, step_from, step_to, text FROM summaries WHERE tenant = {t}")
    facts = query("SELECT owner, subject, category, key, value, status, mentions, round(confidence * 1000)"
                  f" FROM facts WHERE tenant = {t} AND deleted IS NULL")
    agenda = query(f"SELECT owner, person, day, what, status FROM agenda WHERE tenant = {t} AND deleted IS NULL")
    triples = query(f"SELECT t.owner, COALESCE(s.person, s.name), t.predicate, {_OBJECT}, t.qualifier,"
                    " t.valid_from, t.valid_to FROM triples t JOIN entities s ON s.id = t.subject"
                    f" LEFT JOIN entities o ON o.id = t.object WHERE t.tenant = {t}")
    aliases = query(f"SELECT person, alias, source, owner FROM aliases WHERE tenant = {t} AND removed IS NULL")
    return Derived(
        turns=int(turns), vectors=vectors,
        clusters=Counter((owner, frozenset(m)) for owner, _, m in members.values()),
        sizes_off=[(owner, size, len(m)) for owner, size, m in members.values() if size != len(m)],
        summaries=Counter(tuple(r) for r in summaries), facts=Counter(tuple(r) for r in facts),
        agenda=Counter(tuple(r) for r in agenda), triples=Counter(tuple(r) for r in triples),
        aliases=Counter(tuple(r) for r in aliases))
