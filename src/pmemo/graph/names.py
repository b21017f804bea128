"""Finding the entities a text names (no LLM): the people resolver's automaton over every name
and alias of a tenant's places, organisations and things, rebuilt when a new name was learned.

People are not in it: the registry's resolver names them (aliases, nicknames, old names).
An entity id stands where the resolver keeps a person id, so its matching rules (Chinese as
substrings that respect the words of the text, Latin names as whole words) are the same.
"""

from __future__ import annotations

import threading

from ..people.resolve import AliasEntry, AliasIndex
from ..ports.graph import GraphPort


class EntityNames:
    """The tenant and agent's entity names in one automaton each, shared by every read."""

    def __init__(self, graph: GraphPort) -> None:
        self.graph = graph
        self._lock = threading.Lock()
        self._indexes: dict[tuple[str, str], tuple[int, AliasIndex]] = {}

    def index(self, tenant: str, agent: str, version: int | None = None) -> AliasIndex:
        """The automaton of the tenant's entity names; ``version``: their version, when the
        caller read it (``ReadPlanStore.chat_state``), else read here."""
        version = self.graph.entity_version(tenant) if version is None else version
        cached = self._indexes.get((tenant, agent))
        if cached is None or cached[0] != version:
            with self._lock:
                entries = [AliasEntry(alias, str(eid), "name") for alias, eid in self.graph.entity_names(tenant, agent)]
                cached = (version, AliasIndex(entries, of_people=False))  # places and things
                self._indexes[(tenant, agent)] = cached
        return cached[1]

    def find(self, text: str, tenant: str, agent: str, version: int | None = None) -> list[int]:
        """The entity ids ``text`` names, in order of appearance (a name two entities share: both)."""
        index = self.index(tenant, agent, version)
        if index.empty:
            return []
        return list(dict.fromkeys(int(e) for m in index.find(text) for e in m.person_ids))
