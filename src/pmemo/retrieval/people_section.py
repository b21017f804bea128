"""The people and agenda sections of a context, read in one place (blocking; off the loop).

Who is in them: the asker, then the people the query and the recent messages name, by any
of their names (nicknames, old display names). What: the identity line and the facts learned
about each in this group or chat (never another group's), and their open plans near the day.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta

import numpy as np

from ..config import Settings
from ..models import Fact, Hit, Scope
from ..rules.sentences import unnamed
from ..stores.base import FullStore
from ..tiers.people import People, profile_view
from .asof import epoch, member_at, person_at, stated_by
from .people_hits import agenda_hits, person_hits


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
    vecs = {i: v for i, v in store.get_vectors("turn", ids).items() if v.shape == qvec.shape} if ids else {}
    parts: dict[int, list[float]] = {f.id: [] for f in facts}
    for f in facts:
        if said := [float(vecs[i] @ qvec) for i in f.sources if i in vecs]:
            parts[f.id].append(max(said))
    if embed is not None:
        itself = embed([unnamed(f) for f in facts]) @ qvec
        for f, cosine in zip(facts, itself.tolist(), strict=True):
            parts[f.id].append(cosine)
    return {fid: sum(p) / len(p) if p else 0.0 for fid, p in parts.items()}


def context_people(store: FullStore, people: People, scope: Scope, query: str, named: Sequence[str],
                   asker: str | None, recent: Sequence[str], today: date, settings: Settings,
                   with_agenda: bool = True, qvec: np.ndarray | None = None,
                   embed: Callable[[list[str]], np.ndarray] | None = None,
                   at: datetime | None = None, lang: str = "en") -> dict[str, list[Hit]]:
    """The people and agenda sections of a context: the asker, then the people the query names
    (``named``, as the retrieval resolved them) and those the recent messages name (any of their
    names), each with what was learned about them in this group or chat, the facts nearest the
    query (``qvec``; ``embed`` embeds passages for ``nearness``) first after the ones it names;
    and, ``with_agenda``, their open plans near ``today``. ``at``: the read is asked then and
    knows nothing said after (``asof``): the facts as they stood, what each had said by then,
    the plans stated by then. ``lang``: the chat's language, the identity lines' words."""
    owner = scope.owner_scope()
    roles: dict[str, str] = {asker: "asker"} if asker else {}
    for person in named:
        roles.setdefault(person, "named")
    for text in recent:
        for person in people.named(text, owner):
            roles.setdefault(person, "recent")
    ids = list(roles)[: settings.people_in_context]
    if not ids:
        return {"people": [], "agenda": []}
    here = {m.person.id: m for m in store.members(owner, ids)}
    if at is not None:
        spoken = store.spoken(owner, ids, epoch(at))
        here = {p: m for p, m in ((p, member_at(m, spoken.get(p))) for p, m in here.items()) if m is not None}
    found = {p: m.person for p, m in here.items()}  # people are read once: members first, then the rest
    found.update(store.get_people(owner.tenant_id, [p for p in ids if p not in found]))
    if at is not None:  # the names they went by then
        found = {p: person_at(person, at) for p, person in found.items()}
        here = {p: replace(m, person=found[p]) for p, m in here.items()}
    owners = [owner.owner] + ([f"u:{asker}"] if asker and settings.private_facts_in_groups
                              and owner.group_id else [])
    views = {pid: profile_view(store, owner.tenant_id, owner.agent_id, pid, owner.owner, False,
                               settings.private_facts_in_groups, at) for pid in ids if pid in found}
    near = (nearness(store, [f for facts in views.values() for f in facts], qvec, embed)
            if settings.w_fact_meaning > 0 else {})
    hits: list[Hit] = []
    for pid, facts in views.items():
        hits.extend(person_hits(found[pid], here.get(pid), facts, query, roles[pid], store.get_turns,
                                settings.facts_per_person, owner.owner, near, lang))
    if not with_agenda:
        return {"people": hits, "agenda": []}
    items = store.agenda(owner.tenant_id, owner.agent_id, owners, [p for p in ids if p in found],
                         *agenda_window(today, settings), "open")
    names = {p: found[p].name or p for p in found}
    if at is not None:  # a plan stated after the question is not known yet
        items = stated_by(store, items, epoch(at))
    said = store.get_turns([i.turn_id for i in items if i.turn_id is not None])
    return {"people": hits, "agenda": agenda_hits(items, names, today, said)}
