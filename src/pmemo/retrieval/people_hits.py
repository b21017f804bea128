"""Hits for the people section of a context and a search (pure): who someone is, what is known
about them, and what is coming up for them, each as one sentence in the source's language.

>>> from datetime import date
>>> from pmemo.models import Scope
>>> [h.text for h in agenda_hits([AgendaItem(1, Scope(), "ni", date(2026, 12, 23), "考研", "12月23日考研",
...                                          None)], {"ni": "周霓"}, date(2026, 12, 22), {})]
['周霓 12月23日考研（明天）']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date

from ..models import SAID_IN_A_CHAT, AgendaItem, Fact, Hit, Member, Person, Turn
from ..people.identity import identity_line
from ..rules.sentences import asks_about, fact_sentence, plan_sentence
from ..text.overlap import overlap

NAME_KEYS = ("name", "preferred_name")  # facts that only name the person: their card lists their names
TurnLookup = Callable[[Iterable[int]], dict[int, Turn]]
ROLES = {"asker": "is asking", "named": "is named", "recent": "was named in the recent messages"}


def person_hits(person: Person, here: Member | None, facts: Sequence[Fact], query: str, role: str,
                lookup: TurnLookup, limit: int, owner: str | None = None,
                near: Mapping[int, float] | None = None, lang: str = "en") -> list[Hit]:
    """The person's identity line (its words in ``lang``), then up to ``limit`` facts: the ones
    the query names first, then the ones nearest it in meaning (``near``: fact id → cosine),
    then the most important."""
    name = person.name or person.id
    card = identity_line(person, here, owner, lang)
    facts = [f for f in facts if not (f.key in NAME_KEYS and f.value in card)]  # the card says it already
    taught = [a.turn_id for a in person.aliases if a.turn_id is not None and a.source in SAID_IN_A_CHAT
              and (owner is None or a.learned_in == owner)]
    said = {f.id: fact_sentence(name, f.category, f.key, f.value) for f in facts}
    # the sentence without their names (the query found them by one; "希望被叫作霓霓" is not
    # asked by naming 霓霓), or the kind of fact
    names = sorted({name, *person.names, *(a.alias for a in person.aliases)}, key=len, reverse=True)
    asks = {f.id: 1.0 if asks_about(query, f.key) else overlap(query, _unnamed(said[f.id], names))
            for f in facts}
    near = near or {}
    ranked = sorted(facts, key=lambda f: (-asks[f.id], -near.get(f.id, 0.0), -f.importance, -f.confidence,
                                          -f.last_seen.timestamp(), f.id))[:limit]
    turns = lookup([*taught, *(i for f in ranked for i in f.sources)])
    why = f"{ROLES.get(role, role)}"
    out = [Hit(f"person:{person.id}", "person", "people", card, 1.0, why,
               tuple(turns[i] for i in taught if i in turns), None)]
    for f in ranked:
        out.append(Hit(f"fact:{f.id}", "fact", "people", said[f.id], round(0.5 + 0.5 * asks[f.id], 6),
                       f"about {name}, {why}; confidence {f.confidence:.2f}, said {f.mentions}×",
                       tuple(turns[i] for i in f.sources if i in turns), f.last_seen))
    return out


def _unnamed(text: str, names: Sequence[str]) -> str:
    for name in names:
        text = text.replace(name, " ")
    return text


def agenda_hits(items: Sequence[AgendaItem], names: dict[str, str], today: date,
                turns: dict[int, Turn]) -> list[Hit]:
    """Open plans as lines with how far away they are, soonest first; ``turns`` the ones
    that said them."""
    return [Hit(f"agenda:{i.id}", "agenda", "agenda",
                plan_sentence(names.get(i.person_id or "", i.person_id or ""), i.what, i.day, today),
                1.0, f"{i.what} on {i.day:%Y-%m-%d}",
                (turns[i.turn_id],) if i.turn_id in turns else (), None)
            for i in sorted(items, key=lambda i: (abs((i.day - today).days), i.id))]
