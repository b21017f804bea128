"""The knowledge graph (issue 20) as a chat knows it, as ``mem.knowledge``: an entity's
neighbourhood, triples by subject and predicate at a time, what a model inferred about a person,
and a person's portrait. It takes the graph port (``store.graph``, pmemo.ports.GraphPort), the
people registry that resolves names, and the facts a portrait is drawn from.

>>> g = await mem.knowledge.graph("霓霓", hops=2, group_id="study")  # doctest: +SKIP
>>> [(t.subject, t.predicate, t.object) for t in g.triples]  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from .. import validate
from ..config import Settings
from ..graph import insights as graph_insights
from ..graph import read as graph_read
from ..llms.base import LLM
from ..models import Graph, Insight, PersonSummary, Triple, check_id
from ..people.resolve import Resolver
from ..ports.graph import GraphPort, TripleView
from ..stores.base import FullStore
from .args import scope_of


class GraphService:
    """Reads of the graph, in SQL over one chat's view (``private_facts_in_groups`` widens a
    group's view to its members' private chats)."""

    def __init__(self, graph: GraphPort, store: FullStore, people: Resolver, llm: LLM | None,
                 settings: Settings) -> None:
        self._graph = graph
        self._store = store  # the people registry's rows and the facts a portrait is drawn from
        self._people = people
        self._llm = llm
        self.settings = settings

    def _view(self, scope: dict[str, Any]) -> TripleView:
        return graph_read.view_of(scope_of(scope), self.settings.private_facts_in_groups)

    async def graph(self, /, entity: str, *, hops: int = 1, at: datetime | str | None = None,
                    **scope: Any) -> Graph:
        """An entity (a person id, or a name or alias of a person, place, organisation or thing)
        and its neighbourhood as a group or private chat knows it: the triples within ``hops``
        (1 or 2) of it that hold at ``at`` (default: now), and the entities they connect."""
        when = None if at is None else validate.timestamp(at, "at")
        return await asyncio.to_thread(graph_read.graph, self._graph, self._store, self._people,
                                       self._view(scope), entity, hops, when)

    async def triples(self, /, subject: str | None = None, *, predicate: str | None = None,
                      at: datetime | str | None = None, history: bool = False, **scope: Any) -> list[Triple]:
        """Triples a group or private chat learned, oldest first: about ``subject`` (a person id
        or an entity's name), of ``predicate`` (``works_at``, ``friend_of`` …), holding at ``at``
        (default: now); ``history=True``: every one ever said, closed ones with ``valid_to``."""
        when = None if at is None else validate.timestamp(at, "at")
        return await asyncio.to_thread(graph_read.triples, self._graph, self._store, self._people,
                                       self._view(scope), subject, predicate, when, bool(history))

    async def insights(self, /, person_id: str, **scope: Any) -> list[Insight]:
        """What a language model inferred about a person from what they said in a group or chat,
        with the turns it rests on: labelled inferred, never among the facts."""
        where = scope_of(scope).owner_scope()
        return await asyncio.to_thread(self._graph.insights, where, check_id("person_id", person_id))

    async def portrait(self, /, person_id: str, **scope: Any) -> PersonSummary:
        """A short portrait of a person as a group or chat knows them: from their facts and
        insights with a language model; offline, their facts, and it says so (``method``)."""
        where = scope_of(scope).owner_scope()
        return await asyncio.to_thread(graph_insights.portrait, self._graph, self._store, self._llm,
                                       self.settings, where, check_id("person_id", person_id))
