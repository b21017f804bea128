"""The "Related facts" section of a context (blocking; off the loop): the entities a query
names and what is known around them, one hop out, one sentence per triple.

Who is named: the people the retrieval resolved in the query (any of their names), and the
places, organisations and things whose names or aliases the query holds (``EntityNames``,
no LLM). What comes in: the current triples of this chat's view that name one of them, the
ones about them first. A triple that says a fact the people section already shows is left
out: the context says each thing once. ``graph_read`` reads them, ``graph_hits`` makes the lines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from ..config import Settings
from ..models import Hit, Person, Scope, Triple, Turn
from ..ports.graph import GraphPort
from ..stores.base import PeopleStore
from ..text.overlap import overlap
from .names import EntityNames
from .read import named, settle, view_of
from .sentences import triple_sentence

TurnLookup = Callable[[Iterable[int]], dict[int, Turn]]


def graph_read(graph: GraphPort, names: EntityNames, scope: Scope, query: str, people: Sequence[str],
               settings: Settings, until: float | None = None,
               version: int | None = None) -> tuple[list[int], list[Triple]]:
    """The entities around which the section is (the people, ``people``, person ids, and the
    entities ``query`` names; ``version``: the tenant's entity names' version when the caller
    read it) and the triples one hop out of them in this chat's view. ``until`` (epoch seconds):
    the ones that held then, as they stood (one closed later was current)."""
    if not settings.graph_in_context:
        return [], []
    owner = scope.owner_scope()
    tenant, agent = owner.tenant_id, owner.agent_id
    roots = [e.id for e in graph.find_entities(tenant, agent, persons=people)] if people else []
    roots += names.find(query, tenant, agent, version)
    if not roots:
        return [], []
    held = graph.neighbourhood(view_of(owner, settings.private_facts_in_groups), roots, 1, until)
    if until is not None:
        held = [dataclasses.replace(t, valid_to=None) if t.valid_to is not None and t.valid_to.timestamp() > until
                else t for t in held]
    return roots, held


def graph_hits(roots: Sequence[int], held: Sequence[Triple], registry: PeopleStore, scope: Scope, query: str,
               shown_facts: Collection[int], settings: Settings, lookup: TurnLookup,
               known: Mapping[str, Person] | None = None) -> list[Hit]:
    """Up to ``graph_in_context`` hits for the triples ``graph_read`` read, the ones about its
    roots first; none whose fact ``shown_facts`` holds. ``known``: people read already (their
    names are not read again)."""
    about = set(roots)
    found = [t for t in settle(held) if t.current and (t.fact_id is None or t.fact_id not in shown_facts)]
    said = {t.id: triple_sentence(t) for t in named(registry, scope.tenant_id, found, known)}
    score = {t.id: round((1.0 if t.subject_entity in about else 0.7) + 0.3 * overlap(query, said[t.id]), 6)
             for t in found}
    kept = sorted(found, key=lambda t: (-score[t.id], -t.confidence, -t.valid_from.timestamp(), t.id))
    kept = kept[: settings.graph_in_context]
    turns = lookup([i for t in kept for i in t.sources])
    return [Hit(f"triple:{t.id}", "triple", "graph", said[t.id], score[t.id],
                f"{t.predicate} of an entity the query names; learned in {t.learned_in}, confidence {t.confidence:.2f}",
                tuple(turns[i] for i in t.sources if i in turns), t.valid_from) for t in kept]
