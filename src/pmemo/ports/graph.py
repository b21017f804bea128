"""The graph port: entities, triples with validity times and sources, and insights (issue 20).

What the graph's consumers (``pmemo.graph``, the context's "Related facts", forgetting) ask of a
store, and nothing else; a store gives it as ``store.graph``. It imports only the models, so a
consumer that takes it depends on no backend. One contract suite
(tests/contract/test_graph_contract.py) runs it on SQLite and on Postgres.

>>> triples = store.graph.triples_about(TripleView(scope), None, "works_at", None, False)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from ..models import Entity, Insight, Scope, Triple


class EntityRef(NamedTuple):
    """An entity as a statement names it: a person by id, anything else by kind and name."""

    kind: str  # models.ENTITY_KINDS
    name: str
    person: str | None = None
    aliases: tuple[str, ...] = ()


class NewTriple(NamedTuple):
    """A triple to record, learned at ``at`` (epoch seconds) from ``turn_id``. ``functional``:
    one value at a time (a new one closes the old); ``symmetric``: the same either way round;
    ``ends``: the statement ends the open triple saying this ("no longer likes cats")."""

    subject: EntityRef
    predicate: str
    object: EntityRef | None  # None: ``value`` is a literal
    value: str
    qualifier: str | None
    at: float
    confidence: float
    turn_id: int | None
    fact_id: int | None = None
    functional: bool = False
    symmetric: bool = False
    ends: bool = False
    closes: tuple[str, ...] = ()  # predicates whose open triple about the same object this one ends


class TripleView(NamedTuple):
    """Whose triples a read sees: those learned in ``scope``'s owner, and from a group, when
    ``private``, what people said about themselves in their own private chat."""

    scope: Scope
    private: bool = False


class GraphPort(Protocol):
    """Entities, triples and insights of every tenant. Each call is one transaction; inside a
    store's ``tx()`` it joins that one."""

    # ---- writes ------------------------------------------------------------------------------
    def add_triples(self, scope: Scope, items: Sequence[NewTriple]) -> list[tuple[int, str]]:
        """Record what a batch of turns said, in order: each item adds a triple, reinforces the
        same open one (another source) or ends one ("no longer likes"). A new value of a
        functional predicate closes the open one (valid_to = the new valid_from, closed_by = the
        new id). Returns (triple id, "added" | "reinforced" | "ended" | "skipped") per item; a
        re-run turn is "skipped"."""
        ...
    def end_fact_triples(self, fact_id: int, at: float) -> None:
        """The open triples saying a fact end at ``at`` (its value was corrected by hand)."""
        ...
    def drop_triples(self, ids: list[int]) -> dict[int, str]:
        """Delete triples ("deleted"); what they closed stays closed, as a deleted fact's history
        stays history. An entity no triple names any more goes with its names."""
        ...
    def triples_forget(self, turn_ids: list[int]) -> dict[int, str]:
        """After turns are deleted: a triple only they said goes ("deleted"), one others said too
        keeps them ("rebuilt"), a triple a deleted one had closed is current again ("reopened");
        an entity no triple names any more goes with its names."""
        ...

    # ---- entities ----------------------------------------------------------------------------
    def entity_version(self, tenant: str) -> int:
        """Counts the tenant's new entity names: a name index built at one version is good until it moves."""
        ...
    def entity_names(self, tenant: str, agent: str) -> list[tuple[str, int]]:
        """(name or alias, entity id) of every entity that is not a person (people are named by
        the registry's aliases)."""
        ...
    def find_entities(self, tenant: str, agent: str, *, name: str | None = None, persons: Sequence[str] = (),
                      ids: Sequence[int] = ()) -> list[Entity]:
        """By a name or alias (any case), by person ids, or by ids; with their aliases."""
        ...
    def graph_entities_with(self, triple_ids: list[int]) -> list[int]:
        """The entities these triples name (a forget snapshots them: it may delete them)."""
        ...

    # ---- triples -----------------------------------------------------------------------------
    def touches(self, view: TripleView, entities: Sequence[int]) -> set[int]:
        """Those of ``entities`` that some triple in the view (at any time) names."""
        ...
    def triples_about(self, view: TripleView, subjects: Sequence[int] | None, predicate: str | None,
                      at: float | None, history: bool) -> list[Triple]:
        """The view's triples whose subject is one of ``subjects`` (None: any), of ``predicate``
        (None: any), holding at ``at`` (None: now), or all of them (``history``; with ``at``, all
        those begun by then); oldest first."""
        ...
    def neighbourhood(self, view: TripleView, roots: Sequence[int], hops: int, at: float | None) -> list[Triple]:
        """The view's triples holding at ``at`` (None: current) within ``hops`` of ``roots``: hop 1
        is every triple naming a root (as subject or object); hop 2 adds those naming the
        entities hop 1 reached."""
        ...
    def get_triples(self, ids: Sequence[int]) -> list[Triple]:
        """Triples by id with their entities' names and source turns, oldest first."""
        ...
    def triples_with(self, turn_ids: list[int]) -> list[int]:
        """Triples a turn said, and the ones those closed (a forget reopens them)."""
        ...
    def fact_triples(self, fact_id: int) -> list[int]:
        """The triples that say a profile fact (a hand-deleted fact takes them along)."""
        ...

    # ---- insights ----------------------------------------------------------------------------
    def replace_insights(self, scope: Scope, person: str,
                         rows: Sequence[tuple[str, float, Sequence[int]]]) -> None:
        """The person's insights in the scope become ``rows`` (text, confidence, evidence turns)."""
        ...
    def insights(self, scope: Scope, person: str | None = None) -> list[Insight]:
        """The scope's insights (about ``person``), most confident first."""
        ...
    def insights_with(self, turn_ids: list[int]) -> list[int]: ...
    def insights_forget(self, turn_ids: list[int]) -> list[int]:
        """An insight whose evidence loses a turn goes: it was inferred from what is forgotten."""
        ...
    def queue_insights(self, scope: Scope, person: str, new: int, every: int) -> bool:
        """Count ``new`` triples learned about a person in a scope; once ``every`` have come since
        the last time, queue one ``insights`` job for them there (True), unless one is still
        waiting: it will read these too (coalesced). The count and the job are one transaction."""
        ...
