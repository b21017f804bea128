"""``graph`` and ``triples``: an entity named by a person id, a name or an alias, and the
triples around it as one group or private chat sees them (blocking; off the event loop).

What a chat sees is what was learned in it, and from a group, when the tenant allows it
(``private_facts_in_groups``), what people said about themselves in their private chat, as
``profile`` shows facts. An entity no triple of the view names is not found, whatever other
chats know of it, and the error says so in the same words as for a name nobody knows.
From two chats a functional predicate can hold two values at once (a private chat knew of
the new employer first): the newest holds, the other reads as closed by it (``settle``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from ..errors import InvalidInput, NotFound
from ..models import Entity, Graph, Person, Scope, Triple, epoch_of
from ..people.resolve import Resolver
from ..ports.graph import GraphPort, TripleView
from ..stores.base import PeopleStore
from .predicates import predicate

PREDICATE = re.compile(r"^[a-z][a-z_]{1,39}$")
MAX_NAME = 200


def view_of(scope: Scope, private_in_groups: bool) -> TripleView:
    return TripleView(scope.owner_scope(), private_in_groups and scope.group_id is not None)


def resolve(graph: GraphPort, registry: PeopleStore, people: Resolver, view: TripleView,
            name: str) -> list[Entity]:
    """The entities ``name`` stands for in the view: a person (by id, or by a name the resolver
    knows them by; ``registry``: who is registered), else the places, organisations and things
    of that name or alias that a triple of the view names. NotFound naming it otherwise."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise InvalidInput(f"an entity is a person id or a name of 1-{MAX_NAME} characters, got {str(name)[:40]!r}")
    name = name.strip()
    scope = view.scope
    tenant, agent = scope.tenant_id, scope.agent_id
    people_ = graph.find_entities(tenant, agent, persons=[name])
    if people_ or registry.get_people(tenant, [name]):
        return people_ or [Entity(0, "person", name, name)]
    things = [e for e in graph.find_entities(tenant, agent, name=name) if e.person_id is None]
    seen = graph.touches(view, [e.id for e in things])
    if seen:
        return [e for e in things if e.id in seen]
    found = [m for m in people.resolve(name, scope) if not m.ambiguous and m.end - m.start == len(name)]
    if len(found) == 1:
        pid = found[0].person_ids[0]
        return graph.find_entities(tenant, agent, persons=[pid]) or [Entity(0, "person", pid, pid)]
    raise NotFound(f"no person or entity {name!r} is known in {scope.owner}")


def graph(graph: GraphPort, registry: PeopleStore, people: Resolver, view: TripleView, name: str, hops: int,
          at: datetime | None) -> Graph:
    """``name``'s entity and every triple within ``hops`` (1 or 2) of it holding at ``at``
    (None: now), with the entities they connect."""
    if isinstance(hops, bool) or hops not in (1, 2):
        raise InvalidInput(f"hops must be 1 or 2, got {hops!r}")
    roots = resolve(graph, registry, people, view, name)
    ids = [e.id for e in roots if e.id]
    found = settle(graph.neighbourhood(view, ids, hops, _epoch(at))) if ids else []
    triples = named(registry, view.scope.tenant_id, found)
    wanted = {i for t in found for i in (t.subject_entity, t.object_entity) if i} - set(ids)
    nodes = _named_entities(registry, view.scope, [*roots, *graph.find_entities(
        view.scope.tenant_id, view.scope.agent_id, ids=sorted(wanted))])
    return Graph(nodes[0], tuple(nodes), tuple(triples))


def triples(graph: GraphPort, registry: PeopleStore, people: Resolver, view: TripleView, subject: str | None,
            name: str | None, at: datetime | None, history: bool) -> list[Triple]:
    """The view's triples about ``subject`` (None: anyone), of predicate ``name`` (None: any),
    holding at ``at`` (None: now), or every one said (``history``; with ``at``: said by then),
    oldest first."""
    if name is not None and (not isinstance(name, str) or not PREDICATE.match(name)):
        raise InvalidInput(f"predicate {str(name)[:40]!r} is invalid: use a snake_case name like works_at")
    ids = None
    if subject is not None:
        ids = [e.id for e in resolve(graph, registry, people, view, subject) if e.id]
        if not ids:
            return []
    found = graph.triples_about(view, ids, name, _epoch(at), history)
    return named(registry, view.scope.tenant_id, found if history else settle(found))


def settle(found: Sequence[Triple]) -> list[Triple]:
    """Of the values a functional predicate holds at once (learned in two chats), the newest
    holds; the others read as closed when it began. Nothing is written."""
    newest: dict[tuple[str, str, str | None], Triple] = {}
    for t in found:
        k = (t.subject, t.predicate, t.qualifier)
        if predicate(t.predicate).functional and t.current and (
                k not in newest or (t.valid_from, t.id) > (newest[k].valid_from, newest[k].id)):
            newest[k] = t
    out = []
    for t in found:
        winner = newest.get((t.subject, t.predicate, t.qualifier))
        if t.current and winner is not None and winner.id != t.id:
            t = dataclasses.replace(t, valid_to=max(winner.valid_from, t.valid_from))
        out.append(t)
    return out


def named(registry: PeopleStore, tenant: str, found: Sequence[Triple],
          known: Mapping[str, Person] | None = None) -> list[Triple]:
    """The triples with the display names of the people in them (their name now); ``known``:
    people read already, whose names are not read again."""
    ids = {k for t in found for k, kind in ((t.subject, t.subject_kind), (t.object, t.object_kind)) if kind == "person"}
    names = person_names(registry, tenant, ids, known)
    return [dataclasses.replace(t, subject_name=names.get(t.subject, t.subject_name),
                                object_name=names.get(t.object, t.object_name) if t.object_kind == "person"
                                else t.object_name) for t in found]


def person_names(registry: PeopleStore, tenant: str, ids: set[str],
                 read: Mapping[str, Person] | None = None) -> dict[str, str]:
    """A person's display name now; one never registered (a private chat's user, a speaker known
    only by a display name: ``name:<actor>``) by what is known. ``read``: people read already
    (those of ``ids`` among them are not read again; the rest are, unless there is none)."""
    read = read or {}
    rest = sorted(i for i in ids if i not in read)
    known = {**{i: read[i] for i in ids if i in read}, **(registry.get_people(tenant, rest) if rest else {})}
    return {i: known[i].name or i if i in known else i.removeprefix("name:") for i in ids}


def _named_entities(registry: PeopleStore, scope: Scope, entities: Sequence[Entity]) -> list[Entity]:
    names = person_names(registry, scope.tenant_id, {e.person_id for e in entities if e.person_id})
    return [dataclasses.replace(e, name=names[e.person_id]) if e.person_id else e for e in entities]


def _epoch(at: datetime | None) -> float | None:
    return None if at is None else epoch_of(at)
