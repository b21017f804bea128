"""One context, or one search, read in one trip off the event loop: each thing once, nothing written.

The retrieval (one query embedding, keyword and vector candidates, key lines) feeds every
other tier: its query vector ranks the episodes, its key lines are the key section. The
latest summaries are read as two rows, the facts' source turns in one lookup. What the read
recalled (clusters' hits, episodes' access counts) comes back to the caller, which queues a
job to count it: a read never writes the memory. A search is the same retrieval unpacked: its
hits with the people the query names, ranked together.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np

from ..blocks.model import Block, Where, in_context
from ..blocks.render import block_hits, section_writers
from ..config import Settings
from ..graph.names import EntityNames
from ..graph.section import graph_hits
from ..models import ContextPack, Hit, Scope, Summary
from ..stores.base import FullStore
from ..text import dialogue
from ..text.filler import content_free
from ..text.lang import chat_language
from ..tiers.episodes import Episodes
from ..tiers.people import People, facts_at
from . import hits as hitlib
from . import person, relevance, windows
from .asof import aware, epoch, made_by
from .context import assemble, shares
from .people_section import context_people
from .retriever import OWNER_WIDE, Retriever, later

LATEST_SUMMARIES = 2  # the newest summaries of the session always come in


@dataclass(frozen=True)
class Read:
    pack: ContextPack
    clusters: list[int]  # recalled clusters, whose hits are to be counted
    episodes: list[int]  # episodes shown, whose access is to be counted


@dataclass(frozen=True)
class Searched:
    hits: list[Hit]
    clusters: list[int]  # recalled clusters, whose hits are to be counted


class ContextReader:
    def __init__(self, store: FullStore, retriever: Retriever, people: People, episodes: Episodes,
                 settings: Settings, count: Callable[[str], int],
                 blocks: Callable[[], Sequence[Block]] = tuple) -> None:
        self.blocks = blocks  # the memory blocks of every scope, as the folder holds them now
        self.entities = EntityNames(store.graph)  # graph (issue 20): the names of places, orgs and things
        self.store = store
        self.retriever = retriever
        self.people = people
        self.episodes = episodes
        self.settings = settings
        self.count = count

    def read(self, query: str, owner: Scope, session_id: str | None, budget: int, asked: datetime,
             asker: str | None, recent: Sequence[str], depth: int, style: str = "markdown",
             with_input: bool = True, cutoff: bool = False) -> Read:
        """The packed context of ``query`` in ``owner`` (blocking); ``style``: how the memory
        blocks are written ("markdown", or "memgpt" for the MemGPT/Letta layout). ``cutoff``:
        the context is asked at ``asked`` and knows nothing said after it (``asof``)."""
        store = self.store
        at = aware(asked) if cutoff else None
        until = None if at is None else epoch(at)
        found = self.retriever.read(query, owner, None, depth, asked.date(), asker, until)
        last = store.last_turns(owner, session_id, self.settings.short_term_turns, until) if session_id else []
        latest = self._latest_summaries(owner, session_id, until)
        tiers = hitlib.context_tiers(found.turn_hits, found.derived, found.keys, latest, last, later)
        if found.windows:  # L2 windows (issue 20): a recalled window is one excerpt
            tiers["mid_term"] = windows.excerpts(store, tiers["mid_term"], found.windows, {t.id for t in last})
        if self.settings.context_fill != "budget":  # a turn far below the best, or said again, is no line
            tiers["mid_term"] = relevance.once(relevance.above(tiers["mid_term"], self.settings.context_cut,
                                                               keep=self._names(found.named, owner)))
        owned, episodes = self._owner_tiers(query, owner, found.qvec, at)
        # the chat's language, for the scaffolding: what it holds and the query (bounded: chat_language)
        lang = chat_language([*(h.text for h in tiers["key"]), *(t.content for t in last), query, *recent,
                              *(h.text for h in tiers["mid_term"][:20])])
        tiers.update(owned)
        restates = {**found.restates, **hitlib.restating("summary", latest), **episodes}
        tiers.update(context_people(store, self.people, owner, query, found.named, asker, recent, asked.date(),
                                    self.settings, qvec=found.qvec, embed=self.retriever.embed.passages, at=at,
                                    lang=lang, budget=budget, count=self.count))
        told = {int(h.id.split(":")[1]) for h in tiers["people"] if h.kind == "fact"}  # graph (issue 20)
        tiers["graph"] = graph_hits(store.graph, store, self.entities, owner, query, found.named, told, self.settings,
                                    store.get_turns, until)
        blocks = in_context(self.blocks(), Where(owner.tenant_id, owner.agent_id, owner.group_id, owner.user_id))
        tiers["blocks"] = block_hits(blocks)
        pack = assemble(query, tiers, shares(self.settings, tiers), budget, self.count,
                        section_writers(blocks, style), with_input, restates, lang,
                        self.settings.context_fill != "lean")
        pack = replace(pack, items=tuple(self.retriever.with_sources(list(pack.items))))
        shown = [int(h.id.split(":")[1]) for h in pack.items if h.kind == "episode"]
        return Read(pack, found.hits, shown)

    def search(self, query: str, where: Scope, session_id: str | None, limit: int, asked: datetime,
               asker: str | None = None, cutoff: bool = False) -> Searched:
        """The best ``limit`` hits of every tier for ``query`` (blocking): turns, summaries, key
        lines, diary days and what is known of the people it names. With ``session_id``, turns
        and summaries are that session's; people's facts are the owner's, and their ``why`` says so.
        ``asker``: who asks; a query in the first person ranks their own words first. ``cutoff``:
        the search is asked at ``asked`` and knows nothing said after it (``asof``)."""
        at = aware(asked) if cutoff else None
        found = self.retriever.read(query, where, session_id, limit, asked.date(), asker,
                                    None if at is None else epoch(at))
        known = context_people(self.store, self.people, where, query, found.named, None, [], asked.date(),
                               self.settings, False, found.qvec, self.retriever.embed.passages, at, stable=False)
        people = known["people"]
        if session_id is not None:  # what is known of people is the group's, as key lines are
            people = [replace(h, why=h.why + OWNER_WIDE) for h in people]
        chat = self.settings.w_chat_facts > 0 and bool(dialogue.lines(query))
        said = [h for h in found.turn_hits if not (h.kind == "turn" and content_free(h.sources[0]))]
        hits = hitlib.merge(said, found.derived, people, chat)[:limit]
        if any(h.kind in ("summary", "key", "diary") for h in hits):
            hits = self.retriever.with_sources(hits)
        return Searched(hits, found.hits)

    def _names(self, named: Sequence[str], owner: Scope) -> Callable[[Hit], bool]:
        """Whether a recalled turn names one of the people ``named`` (person ids the query names)."""
        about, resolver = set(named), self.retriever.people
        if not about or resolver is None:
            return lambda _: False
        return lambda hit: hit.kind == "turn" and any(not m.ambiguous and m.person_ids[0] in about
                                                      for m in resolver.resolve(hit.text, owner))

    def _latest_summaries(self, owner: Scope, session_id: str | None, until: float | None) -> list[Summary]:
        """The newest summaries of the session; asked ``until`` a time, the newest made of turns
        said by then (each summary's turns read once, for their times)."""
        if until is None:
            return self.store.summaries(owner, session_id, LATEST_SUMMARIES)
        wanted = LATEST_SUMMARIES * 4
        while True:  # the newest few, then more while too few of them were made by then
            newest = self.store.summaries(owner, session_id, wanted)
            made = made_by(self.store, newest, lambda m: m.source_ids, until)
            if len(made) >= LATEST_SUMMARIES or len(newest) < wanted:
                return made[-LATEST_SUMMARIES:]
            wanted *= 4

    def _owner_tiers(self, query: str, owner: Scope, qvec: np.ndarray | None, at: datetime | None = None,
                     ) -> tuple[dict[str, list[Hit]], dict[str, frozenset[int]]]:
        """The user's facts (a group's come in by person, in the people section), the episodes
        and the running tasks; and the turns each episode only restates. ``at``: as they stood
        then (``asof``)."""
        store, s = self.store, self.settings
        said = store.conversation_now(owner) if at is None else epoch(at)
        now = said or time.time()
        known = store.facts(owner) if at is None else facts_at(store.facts(owner, history=True), at)
        facts = [] if owner.group_id else person.fact_hits(query, known, now, s, store.get_turns)
        ranked = (self.episodes.rank(owner, qvec, s.episodes_in_context, said, None if at is None else epoch(at))
                  if s.episodes_in_context else [])
        # an episode without lessons (offline: an extract of its turns, rules over them) restates them
        return ({"profile": facts,
                 "episodic": person.task_hits(store.tasks(owner, "running")) + person.episode_hits(ranked)},
                hitlib.restating("episode", (e for e, _, _ in ranked if not e.lessons)))
