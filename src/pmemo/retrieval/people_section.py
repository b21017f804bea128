"""The people and agenda sections of a context: who, read in one call, then built (blocking; off the loop).

Who is in them: the asker, then the people the query and the recent messages name, by any
of their names (nicknames, old display names). What: the identity line and the facts learned
about each in this group or chat (never another group's), and their open plans near the day.

The person card (issue 44 §3, the setting ``person_card``): the people the question is about come
first — the ones it names, or, when it names nobody and says 她 / 他 / she / he, the one the recent
messages named last (``pronoun_person``) — then the asker, then the others the recent messages
named, latest first. Each card is whole: the section holds as many whole cards as its share of the
budget does (``fit_cards``), so a fact never stands under another person's line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

import numpy as np

from ..config import Settings
from ..models import Fact, Hit, Member, Person, Scope
from ..rules.sentences import unnamed
from ..stores.base import FullStore, PeopleKnown
from ..tiers.people import People, as_viewed, fact_owners
from .asof import epoch, member_at, person_at, stated_by
from .context import HEADERS_BY_LANGUAGE
from .people_hits import TurnLookup, agenda_hits, person_hits

# a third person the question means without naming (其他, 吉他 and 他们 are none); the gender it says
_PRONOUNS = ((re.compile(r"她(?!们)|\b(?:she|her|hers|herself)\b", re.I), "f"),
             (re.compile(r"\b(?:he|him|his|himself)\b", re.I), "m"),
             (re.compile(r"(?<![其吉])他(?![们人])|(?<![a-z])ta(?![a-z])|\b(?:they|them|their)\b", re.I), ""))
INPUT_ROOM = 24  # tokens a card's room leaves for the current message and its header (a short IM message)


def agenda_window(day: date, settings: Settings) -> tuple[date, date]:
    """The days whose plans are near ``day``: from ``agenda_after_days`` before it (a plan stays
    that long after its date) to ``agenda_ahead_days`` after it (and comes that early)."""
    return day - timedelta(days=settings.agenda_after_days), day + timedelta(days=settings.agenda_ahead_days)


def nearness(store: FullStore, facts: Sequence[Fact], qvec: np.ndarray | None,
             embed: Callable[[list[str]], np.ndarray] | None = None) -> dict[int, float]:
    """Each fact's nearness in meaning to the query: the mean of the best cosine of the turns
    that said it (their stored vectors, one read) and, with ``embed``, the cosine of the fact
    said of nobody (``unnamed``: embedded once, then cached by its words); none without a query
    vector. A chat about a birthday cake is nearer the allergy than the school; "is it raining
    where he lives" is nearer "lives in 闵行" than the turn that said it, "闵行人一枚"."""
    if qvec is None or not facts:
        return {}
    ids = {i for f in facts for i in f.sources}
    vecs = {i: v for i, v in store.vectors.get_vectors("turn", ids).items() if v.shape == qvec.shape} if ids else {}
    parts: dict[int, list[float]] = {f.id: [] for f in facts}
    for f in facts:
        if said := [float(vecs[i] @ qvec) for i in f.sources if i in vecs]:
            parts[f.id].append(max(said))
    if embed is not None:
        itself = embed([unnamed(f) for f in facts]) @ qvec
        for f, cosine in zip(facts, itself.tolist(), strict=True):
            parts[f.id].append(cosine)
    return {fid: sum(p) / len(p) if p else 0.0 for fid, p in parts.items()}


def pronoun_of(query: str) -> str | None:
    """The third person ``query`` means without naming: "f", "m", "" (either), or None (none).

    >>> [pronoun_of(q) for q in ("她对什么过敏来着", "what's his job?", "他是做什么的", "其他人呢", "who is Sam?")]
    ['f', 'm', '', None, None]
    """
    return next((gender for pattern, gender in _PRONOUNS if pattern.search(query)), None)


def pronoun_person(query: str, recent: Sequence[Sequence[str]], genders: Mapping[str, str],
                   asker: str | None) -> str | None:
    """Whom a question that names nobody means by 她 / 他 / she / he: the person the recent
    messages (``recent``: the people each names, oldest message first) named last, not the asker,
    and not someone known to be of the other sex than the pronoun says.

    >>> pronoun_person("她对什么过敏来着", [["ni"], ["tao"]], {"tao": "m"}, None)
    'ni'
    >>> pronoun_person("他干哪一行的", [["ni"], ["tao", "hao"]], {}, "hao"), pronoun_person("在吗", [["ni"]], {}, None)
    ('tao', None)
    """
    gender = pronoun_of(query)
    if gender is None:
        return None
    for names in reversed(recent):
        for person in reversed(names):
            if person != asker and not (gender and genders.get(person, gender) != gender):
                return person
    return None


def people_of(query: str, named: Sequence[str], asker: str | None, recent: Sequence[Sequence[str]],
              genders: Mapping[str, str], card: bool) -> dict[str, str]:
    """Who the people section is about, in order, with why (``people_hits.ROLES``). ``card``: the
    ones the question is about first (it names them, or its pronoun means one: ``pronoun_person``),
    then the asker, then the others the recent messages named, latest first; else as before issue
    44 §3: the asker, the named, the recent messages' people in their order.

    >>> people_of("她呢", [], "hao", [["ni"], ["tao"]], {"tao": "m"}, True)
    {'ni': 'pronoun', 'hao': 'asker', 'tao': 'recent'}
    >>> people_of("她呢", [], "hao", [["ni"], ["tao"]], {"tao": "m"}, False)
    {'hao': 'asker', 'ni': 'recent', 'tao': 'recent'}
    """
    roles: dict[str, str] = {}
    if not card:
        roles = {asker: "asker"} if asker else {}
        for person in named:
            roles.setdefault(person, "named")
        for names in recent:
            for person in names:
                roles.setdefault(person, "recent")
        return roles
    for person in named:
        roles.setdefault(person, "named")
    if not named and (meant := pronoun_person(query, recent, genders, asker)) is not None:
        roles[meant] = "pronoun"
    if asker:
        roles.setdefault(asker, "asker")
    for names in reversed(recent):
        for person in names:
            roles.setdefault(person, "recent")
    return roles


def fit_cards(hits: Sequence[Hit], room: int, cost: Callable[[Hit], int]) -> list[Hit]:
    """The cards (a person's line, then their facts) that fit ``room`` tokens, in order: a card
    whose line does not fit is left out whole, and a fact only comes with its person's line.

    >>> h = lambda i, kind: Hit(f"{kind}:{i}", kind, "people", "x" * i, 1.0, "", ())
    >>> [x.id for x in fit_cards([h(5, "person"), h(2, "fact"), h(3, "fact"), h(6, "person"), h(1, "fact")],
    ...                          9, lambda x: len(x.text))]  # fact:1 would fit, but not its person's line
    ['person:5', 'fact:2']
    """
    out: list[Hit] = []
    left, open_card = room, False
    for hit in hits:
        if hit.kind == "person":
            open_card = cost(hit) <= left
        if open_card and cost(hit) <= left:
            out.append(hit)
            left -= cost(hit)
    return out


@dataclass(frozen=True)
class PeopleRead:
    """What the people and agenda sections read of the people a context is about (``read_people``)."""

    roles: dict[str, str]  # person id → why they are in (``people_hits.ROLES``), in order
    known: PeopleKnown
    spoken: dict[str, tuple[float, float, int]] | None = None  # asked at a time: what each had said by then


def people_roles(people: People, scope: Scope, query: str, named: Sequence[str], asker: str | None,
                 recent: Sequence[str], settings: Settings, card: bool) -> dict[str, str]:
    """Who the people section is about, in order, with why (``people_of``), at most
    ``people_in_context``: the asker, the people the query names (``named``, as the retrieval
    resolved them) and those the recent messages name (any of their names). ``card``: the person
    card's order (the setting ``person_card`` in a context, not a search)."""
    owner = scope.owner_scope()
    mentioned = [people.named(text, owner) for text in recent]
    genders = people.genders(owner.tenant_id) if card and not named and recent and pronoun_of(query) else {}
    roles = people_of(query, named, asker, mentioned, genders, card)
    return {p: roles[p] for p in list(roles)[: settings.people_in_context]}


def read_people(store: FullStore, scope: Scope, roles: dict[str, str], asker: str | None, today: date,
                settings: Settings, with_agenda: bool = True, at: datetime | None = None) -> PeopleRead | None:
    """What is known of the people of ``roles`` in ``scope``'s chat, in one read
    (``ReadPlanStore.people_known``): who they are here, their facts learned in this group or
    chat (never another group's), and, ``with_agenda``, their open plans near ``today``. ``at``:
    asked then (``asof``): what each had said by then too (one more read)."""
    ids = list(roles)
    if not ids:
        return None
    owner = scope.owner_scope()
    facts = {pid: fact_owners(owner.owner, pid, settings.private_facts_in_groups) for pid in ids}
    owners = [owner.owner] + ([f"u:{asker}"] if asker and settings.private_facts_in_groups and owner.group_id else [])
    known = store.people_known(owner, ids, facts, (owners, *agenda_window(today, settings)) if with_agenda else None)
    return PeopleRead(roles, known, store.turns.spoken(owner, ids, epoch(at)) if at is not None else None)


def people_sections(read: PeopleRead | None, store: FullStore, scope: Scope, query: str, today: date,
                    settings: Settings, lookup: TurnLookup, with_agenda: bool = True,
                    qvec: np.ndarray | None = None, embed: Callable[[list[str]], np.ndarray] | None = None,
                    at: datetime | None = None, lang: str = "en", budget: int | None = None,
                    count: Callable[[str], int] | None = None, stable: bool = True,
                    near: Mapping[int, float] | None = None) -> dict[str, list[Hit]]:
    """The people and agenda sections of a context from what ``read_people`` read: each person
    with what was learned about them here, the facts nearest the query (``qvec``; ``embed``
    embeds passages for ``nearness``) first after the ones it names; and, ``with_agenda``, their
    open plans (``near``: the facts' nearness when the caller has it). ``lookup``: the turns behind
    them (``provenance.Pending`` in a context). ``at``:
    the read is asked then and knows nothing said after (``asof``): the facts as they stood, what
    each had said by then, the plans stated by then. ``lang``: the chat's language, the identity
    lines' words.

    With the setting ``person_card`` and ``stable`` (a context, not a search): person cards, in
    the order of ``people_of``, their facts in ``people_hits.card_order`` (no order by meaning),
    and, given the context's ``budget`` and its token ``count``, as many whole cards as the
    section's share holds (``fit_cards``)."""
    if read is None:
        return {"people": [], "agenda": []}
    owner, card = scope.owner_scope(), settings.person_card and stable
    here, found = _who(read, at)
    views = fact_views(read, at, found)
    if near is None:
        near = (nearness(store, [f for facts in views.values() for f in facts], qvec, embed)
                if settings.w_fact_meaning > 0 and not card else {})
    hits = [h for pid, facts in views.items()
            for h in person_hits(found[pid], here.get(pid), facts, query, read.roles[pid], lookup,
                                 settings.facts_per_person, owner.owner, near, lang, card)]
    if card and budget is not None and count is not None:
        header = HEADERS_BY_LANGUAGE[lang]["people"]
        room = int(settings.budget_people * max(budget - INPUT_ROOM, 0)) - count(header) - 2
        hits = fit_cards(hits, room, lambda h: count(f"- {h.text}") + 1)
    if not with_agenda:
        return {"people": hits, "agenda": []}
    return {"people": hits, "agenda": _plans(read, found, store, today, lookup, at)}


def fact_views(read: PeopleRead, at: datetime | None, found: Mapping[str, Person] | None = None,
               ) -> dict[str, list[Fact]]:
    """Each registered person's facts as the section shows them (``tiers.people.as_viewed``)."""
    found = _who(read, at)[1] if found is None else found
    return {pid: as_viewed(read.known.facts.get(pid, []), False, at) for pid in read.roles if pid in found}


def _who(read: PeopleRead, at: datetime | None) -> tuple[dict[str, Member], dict[str, Person]]:
    """The members among the people read, and every one registered (a member as seen in the
    chat); asked ``at`` a time, as they were then: a member who had said nothing yet is none,
    and each goes by the names they had then."""
    here = dict(read.known.members)
    if at is not None:
        spoken = read.spoken or {}
        here = {p: m for p, m in ((p, member_at(m, spoken.get(p))) for p, m in here.items()) if m is not None}
    found = {p: m.person for p, m in here.items()}  # people are read once: members first, then the rest
    found.update((p, person) for p, person in read.known.people.items() if p not in found)
    if at is not None:  # the names they went by then
        found = {p: person_at(person, at) for p, person in found.items()}
        here = {p: replace(m, person=found[p]) for p, m in here.items()}
    return here, found


def _plans(read: PeopleRead, found: dict[str, Person], store: FullStore, today: date, lookup: TurnLookup,
           at: datetime | None) -> list[Hit]:
    """The agenda section: the open plans read, stated by ``at`` when asked then."""
    items = read.known.agenda
    names = {p: found[p].name or p for p in found}
    if at is not None:  # a plan stated after the question is not known yet
        items = stated_by(store.turns, items, epoch(at))
    return agenda_hits(items, names, today, lookup([i.turn_id for i in items if i.turn_id is not None]))
