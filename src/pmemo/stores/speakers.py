"""Who spoke where, tallied from a batch of new turns: what every store writes into its
members and aliases tables in the turns' own transaction (pure, shared by the backends)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..models import SAID_IN_A_CHAT, Person, Turn, epoch_of

# (tenant, agent, owner, person) → [first seen, last seen, messages, chars, mostly-Han, asks]
Seen = dict[tuple[str, str, str, str], list[float]]
# (tenant, person, display name) → (first seen, last seen, owner it was first used in, turn first seen)
Names = dict[tuple[str, str, str], tuple[float, float, str, int]]


def mostly_han(text: str) -> bool:
    han = sum("\u4e00" <= c <= "\u9fff" for c in text)
    latin = sum(c.isascii() and c.isalpha() for c in text)
    return han > latin


def tally(turns: Sequence[Turn]) -> tuple[Seen, Names]:
    """The speakers of ``turns`` (those with an ``actor_id``) per chat, and the display names
    they used; a new name for a known id is a rename (the store keeps the old one too)."""
    seen: Seen = {}
    names: Names = {}
    for t in turns:
        if t.actor_id is None:
            continue
        at = epoch_of(t.timestamp)
        key = (t.scope.tenant_id, t.scope.agent_id, t.scope.owner, t.actor_id)
        row = seen.setdefault(key, [at, at, 0, 0, 0, 0])
        row[0], row[1], row[2] = min(row[0], at), max(row[1], at), row[2] + 1
        row[3] += len(t.content)
        row[4] += mostly_han(t.content)
        row[5] += t.content.rstrip().endswith(("?", "？", "吗"))
        if t.actor:
            name_key = (t.scope.tenant_id, t.actor_id, t.actor)
            lo, hi, owner, first = names.get(name_key, (at, at, t.scope.owner, t.id))
            names[name_key] = (min(lo, at), max(hi, at), owner, first if lo <= at else t.id)
    return seen, names


def as_seen_in(person: Person, owner: str) -> Person:
    """A person as a group sees them: a nickname learned in another group is not theirs here."""
    kept = tuple(a for a in person.aliases if a.source not in SAID_IN_A_CHAT or a.learned_in == owner)
    return dataclasses.replace(person, aliases=kept) if len(kept) != len(person.aliases) else person
