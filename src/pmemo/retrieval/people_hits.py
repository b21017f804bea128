"""Hits for the people section of a context and a search (pure): who someone is, what is known
about them, and what is coming up for them, each as one sentence in the source's language.

A person's card (issue 44 §3, ``card=True``): their line, then their facts, each once, the ones
the query asks about first (it says their kind or their words), then the most telling kinds
(``TELLING``: who they are, work or study, home, health, family, pets, plans, then likes, habits,
opinions). Nothing in that order depends on a query that asks about none of them, so the card
reads the same bytes from one message to the next (a provider's prompt cache reuses it).

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
ROLES = {"asker": "is asking", "named": "is named", "recent": "was named in the recent messages",
         "pronoun": "is whom the question's pronoun means (the recent messages named them last)"}
# the kinds of fact by how much they tell who someone is (a card lists them in this order after the
# ones the query asks about): the rules' key families and the statement model's (statements.kinds)
TELLING: tuple[tuple[str, ...], ...] = (
    ("name", "preferred_name", "called", "tone"),  # identity: names and how to be addressed
    ("employer", "job", "work_status", "work", "school", "major", "study"),  # work or study
    ("home_city", "home"),
    ("allergy", "diet", "health"),
    ("relationship", "family"),
    ("pet", "pets"),
    ("event", "plans", "birthday"),
    ("opinion", "favorite", "likes", "like"),
    ("habit", "habits"),
    ("view",),
)
_RANK = {family: rank for rank, families in enumerate(TELLING) for family in families}


def telling(key: str) -> int:
    """How telling a fact of ``key`` is: its kind's place in ``TELLING`` (lower tells more).

    >>> [telling(k) for k in ("preferred_name", "employer", "allergy:花生", "pet:cat", "opinion:螺蛳粉", "zzz")]
    [0, 1, 3, 5, 7, 10]
    """
    return _RANK.get(key.partition(":")[0], len(TELLING))


def person_hits(person: Person, here: Member | None, facts: Sequence[Fact], query: str, role: str,
                lookup: TurnLookup, limit: int, owner: str | None = None,
                near: Mapping[int, float] | None = None, lang: str = "en", card: bool = False) -> list[Hit]:
    """The person's identity line (its words in ``lang``), then up to ``limit`` facts: the ones
    the query names first, then the ones nearest it in meaning (``near``: fact id → cosine),
    then the most important. ``card``: the person card instead (``card_order``): each fact once,
    the ones the query names first, then the most telling, never by meaning."""
    name = person.name or person.id
    line = identity_line(person, here, owner, lang)
    facts = [f for f in facts if not (f.key in NAME_KEYS and f.value in line)]  # the card says it already
    taught = [a.turn_id for a in person.aliases if a.turn_id is not None and a.source in SAID_IN_A_CHAT
              and (owner is None or a.learned_in == owner)]
    said = {f.id: fact_sentence(name, f.category, f.key, f.value) for f in facts}
    # the sentence without their names (the query found them by one; "希望被叫作霓霓" is not
    # asked by naming 霓霓), or the kind of fact
    names = sorted({name, *person.names, *(a.alias for a in person.aliases)}, key=len, reverse=True)
    asks = {f.id: 1.0 if asks_about(query, f.key) else overlap(query, _unnamed(said[f.id], names))
            for f in facts}
    if card:
        ranked = card_order(facts, asks, said)[:limit]
    else:
        near = near or {}
        ranked = sorted(facts, key=lambda f: (-asks[f.id], -near.get(f.id, 0.0), -f.importance, -f.confidence,
                                              -f.last_seen.timestamp(), f.id))[:limit]
    turns = lookup([*taught, *(i for f in ranked for i in f.sources)])
    why = f"{ROLES.get(role, role)}"
    out = [Hit(f"person:{person.id}", "person", "people", line, 1.0, why,
               tuple(turns[i] for i in taught if i in turns), None)]
    for f in ranked:
        out.append(Hit(f"fact:{f.id}", "fact", "people", said[f.id], round(0.5 + 0.5 * asks[f.id], 6),
                       f"about {name}, {why}; confidence {f.confidence:.2f}, said {f.mentions}×",
                       tuple(turns[i] for i in f.sources if i in turns), f.last_seen))
    return out


def card_order(facts: Sequence[Fact], asks: Mapping[int, float], said: Mapping[int, str]) -> list[Fact]:
    """A card's facts: the ones the query asks about (``asks``: fact id → how much, 0 for none)
    first, then by ``telling``, then the surest and the most said; each once (``once``)."""
    ranked = sorted(facts, key=lambda f: (-asks[f.id], telling(f.key), -f.importance, -f.confidence,
                                          -f.mentions, f.id))
    return once(ranked, said)


def once(facts: Sequence[Fact], said: Mapping[int, str]) -> list[Fact]:
    """``facts`` without one that says again what an earlier one says: the same sentence, or a
    value an earlier fact of the same kind already holds ("华东理工大学" after "我是华东理工大学心理学专业的").

    >>> from datetime import UTC, datetime
    >>> from pmemo.models import Scope
    >>> t = datetime(2026, 12, 1, tzinfo=UTC)
    >>> def f(i, key, value):
    ...     return Fact(i, Scope(), "fact", key, value, 0.9, 1, t, t, t, None, None, "explicit", (i,), "current")
    >>> facts = [f(1, "study", "我是华东理工大学心理学专业的"), f(2, "school", "华东理工大学"),
    ...          f(3, "allergy:花生", "allergic")]
    >>> said = {1: "周霓：我是华东理工大学心理学专业的", 2: "周霓在华东理工大学读书", 3: "周霓对花生过敏"}
    >>> [x.id for x in once(facts, said)]
    [1, 3]
    """
    out: list[Fact] = []
    seen: set[str] = set()
    for fact in facts:
        kind, value = telling(fact.key), _value(fact).lower()
        if said[fact.id] in seen or any(telling(k.key) == kind and len(value) > 1 and value in _value(k).lower()
                                        and k.key != fact.key for k in out):
            continue
        seen.add(said[fact.id])
        out.append(fact)
    return out


def _value(fact: Fact) -> str:
    """What a fact holds: its value, or the thing its key names ("allergy:花生" → 花生)."""
    family, _, thing = fact.key.partition(":")
    return thing if thing and fact.value.lower() in ("allergic", "likes", "dislikes", "loves", "hates") else fact.value


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
