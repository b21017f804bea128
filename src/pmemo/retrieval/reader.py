"""One context, or one search, read in one trip off the event loop, by a read plan (issue 45 §4):
ids first, then each kind of record once, nothing written.

1. The chat's small state in one call (``ReadPlanStore.chat_state``): the registry's versions
   and members the names are resolved against (``People.reading``), the speakers, the clock,
   the key lines, the session's latest summaries' ids.
2. The query read (``Retriever.ask``: its names, its vector, its keyword search started), and
   the sections' reads started (``Together``: at once on PostgreSQL): the recent turns, what is
   known of the people it is about, the graph around them, the episodic tier.
3. The retrieval ranked (``Retriever.rank``): every vector search in one call, the long-term
   records in one, the candidate pool in one.
4. Every turn any section shows read in one call: the best candidates, what replies tie them
   to, the source turns of the facts, plans, triples, summaries, diary days and key lines. The
   people and graph sections are built before it (``provenance.Pending`` notes what they show)
   and filled after (``provenance.fill``). Their lines are in the scaffolding's language, which
   the recalled lines count in: they are built in the one the pool's words of the best candidates
   give, and again, with a read of what they add, in the rare case the turns read tip it.

What the read recalled (clusters' hits, episodes' access counts) comes back to the caller, which
queues a job to count it: a read never writes the memory. A search is the same retrieval
unpacked: its hits with the people the query names, ranked together.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np

from ..blocks.model import Block, Where, in_context
from ..blocks.render import block_hits, section_writers
from ..config import Settings
from ..graph.names import EntityNames
from ..graph.section import graph_hits, graph_read
from ..models import ContextPack, Fact, Hit, Scope, Summary, Task, Triple, Turn
from ..stores.base import ChatState, EpisodeSignal, FullStore, TurnRef
from ..text import dialogue
from ..text.filler import content_free, filler, said_key
from ..text.lang import chat_language
from ..text.overlap import overlap
from ..tiers.episodes import Episodes
from ..tiers.people import People, facts_at
from . import hits as hitlib
from . import person, relevance, windows
from .asof import aware, epoch, made_by
from .context import assemble, shares
from .diary_recall import days_named
from .people_hits import TurnLookup
from .people_section import PeopleRead, fact_views, nearness, people_roles, people_sections, read_people
from .provenance import Pending, fill
from .retriever import OWNER_WIDE, Found, Retrieved, Retriever, later

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


@dataclass(frozen=True)
class _Asked:
    """One context's question: what, where, by whom, when, and what the chat said just before."""

    query: str
    owner: Scope
    session_id: str | None
    asked: datetime
    asker: str | None
    recent: Sequence[str]
    at: datetime | None  # asked then, knowing nothing said after (``asof``); None: now

    @property
    def until(self) -> float | None:
        return None if self.at is None else epoch(self.at)


@dataclass(frozen=True)
class _Sections:
    """The sections' reads, under way (``Together``)."""

    last: Future[list[Turn]]
    people: Future[PeopleRead | None]
    graph: Future[tuple[list[int], list[Triple]]]
    episodic: Future[tuple[list[EpisodeSignal], list[Task]]]
    facts: Future[list[Fact]] | None  # a private chat's user's (a group's come in by person)


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
        a = _Asked(query, owner, session_id, asked, asker, recent, aware(asked) if cutoff else None)
        state = self.store.chat_state(owner, session_id, LATEST_SUMMARIES if a.until is None else 0, key_sources=True)
        with self.people.reading(owner, state):
            q = self.retriever.ask(query, owner, None, state, a.until)
            card = self.settings.person_card
            roles = people_roles(self.people, owner, query, q.named, asker, recent, self.settings, card)
            sections = self._start(a, roles, q.named, q.qvec, state)
            found = self.retriever.rank(q, depth, state, asked.date(), asker, state.latest)
            return self._context(a, state, found, sections, budget, style, with_input)

    def _start(self, a: _Asked, roles: dict[str, str], named: Sequence[str], qvec: np.ndarray,
               state: ChatState) -> _Sections:
        """The sections' reads, started: each on its own where the store reads several at once.
        ``named``: the people the query names (the graph's roots with the entities it names)."""
        start, s, owner = self.retriever.together.start, self.settings, a.owner
        last = (start(self.store.turns.last_turns, owner, a.session_id, s.short_term_turns, a.until) if a.session_id
                else start(list))
        return _Sections(
            last, start(read_people, self.store, owner, roles, a.asker, a.asked.date(), s, True, a.at),
            start(graph_read, self.store.graph, self.entities, owner, a.query, named, s, a.until, state.entities),
            start(self.store.episodic, owner, qvec),
            None if owner.group_id else start(self.store.profile.facts, owner, a.at is not None))

    def _context(self, a: _Asked, state: ChatState, found: Found, sections: _Sections, budget: int,
                 style: str, with_input: bool) -> Read:
        """The sections built and filled from the one read of their turns, packed."""
        last, latest, pending = sections.last.result(), self._latest(a, state, found), Pending()
        owned, episodes = self._owner_tiers(a, found.meaning.qvec, state, sections, pending)
        near = self._nearness(a, sections.people.result(), found.meaning.qvec)
        guess = _guess(state, last, a, found)
        drafts = self._drafts(a, sections, pending, owned, near, guess, budget)
        turns = self.store.turns.get_turns([*found.turn_ids(sources=True), *pending.ids])
        got = self.retriever.finish(found, turns)
        names = self._names(a.owner)

        def frame(text: str) -> str:  # "thanks Alex!" is thanks, "高峰在吗" a roll call (a bare name is not)
            return names(text)[0]

        told_of = _told_of(got.named, sections.people.result(), sections.graph.result()[1])
        about = relevance.About(frozenset(got.named), told_of, lambda text: names(text)[1])
        tiers, told = self._recalled(a, got, latest, last, frame, found.pool.refs.values(), about)
        # the chat's language, for the scaffolding: what it holds and the query (bounded: chat_language)
        lang = _language([h.text for h in tiers["key"]], last, a, [h.text for h in tiers["mid_term"][:20]])
        if lang != guess:  # the recalled lines tipped it: the sections again, in its words (a rare read more)
            drafts = self._drafts(a, sections, _read_through(self.store, turns), owned, near, lang, budget)
        tiers.update({name: fill(hits, turns) for name, hits in drafts.items()})
        carded = {h.id for h in tiers["people"] if h.kind == "fact"}  # a private chat's user has a card too
        tiers["profile"] = [h for h in tiers["profile"] if h.id not in carded]
        restates = {**got.restates, **hitlib.restating("summary", latest), **episodes}
        if self.settings.context_fill != "budget":
            copies = got.copies | set(hitlib.copies(latest)) | episodes.keys()
            _earned(a, tiers, restates, frame, about.names_them, copies)
        blocks = in_context(self.blocks(), Where(a.owner.tenant_id, a.owner.agent_id, a.owner.group_id,
                                                  a.owner.user_id))
        tiers["blocks"] = block_hits(blocks)
        pack = assemble(a.query, tiers, shares(self.settings, tiers), budget, self.count,
                        section_writers(blocks, style), with_input, restates, lang,
                        self.settings.context_fill != "lean", told)
        pack = replace(pack, items=tuple(self.retriever.with_sources(list(pack.items), got.sources, turns)))
        shown = [int(h.id.split(":")[1]) for h in pack.items if h.kind == "episode"]
        return Read(pack, got.hits, shown)

    def _recalled(self, a: _Asked, got: Retrieved, latest: list[Summary], last: list[Turn], frame: Callable[[str], str],
                  heard: Iterable[TurnRef], about: relevance.About) -> tuple[dict[str, list[Hit]], frozenset[int]]:
        """The key, long-term, mid-term and short-term tiers of what the retrieval found; and,
        unless the context fills its budget, the recalled turns judged not worth a line (far
        below the best, a habit of talk, content-free): a summary, diary day or episode that
        restates only them and lines shown tells the reader nothing (``context.assemble``'s ``told``).
        ``frame``: a text without the people it names (``relevance.unnamed``); ``heard``: the
        candidates, where a habit of talk shows (``relevance.once``); ``about``: the people the query
        names, a turn about others no line (``relevance.About``)."""
        tiers = hitlib.context_tiers(got.turn_hits, got.derived, got.keys, latest, last, later)
        if got.windows:  # L2 windows (issue 20): a recalled window is one excerpt
            tiers["mid_term"] = windows.excerpts(self.store, tiers["mid_term"], got.windows, {t.id for t in last})
        mid = [h for h in tiers["mid_term"]
               if not (h.kind == "turn" and said_key(rest := frame(h.sources[0].content)) and filler(rest))]
        if self.settings.context_fill != "budget":  # a turn far below the best is no line
            mid = relevance.above(mid, self.settings.context_cut, keep=about.told_of)
            mid = [h for h in mid if about.bears_on(h)]
        # in every fill: the same words once, a habit of talk (to or of anyone) not at all
        tiers["mid_term"] = relevance.once(mid, frame, [(r.content, r.day) for r in heard])
        if self.settings.context_fill == "budget":
            return tiers, frozenset()
        kept = {t.id for h in tiers["mid_term"] for t in h.sources}
        return tiers, frozenset(t.id for h in got.turn_hits for t in h.sources) - kept

    def _drafts(self, a: _Asked, sections: _Sections, pending: TurnLookup, owned: dict[str, list[Hit]],
                near: Mapping[int, float], lang: str, budget: int) -> dict[str, list[Hit]]:
        """The people, agenda and graph sections in ``lang`` (and the tiers ``owned``), their
        turns asked of ``pending`` (``provenance.Pending``, or a lookup of turns read);
        ``near``: the facts' nearness to the query (``_nearness``)."""
        s, read = self.settings, sections.people.result()
        people = people_sections(read, self.store, a.owner, a.query, a.asked.date(), s, pending, True,
                                 at=a.at, lang=lang, budget=budget, count=self.count, near=near)
        told = {int(h.id.split(":")[1]) for h in people["people"] if h.kind == "fact"}  # graph (issue 20)
        roots, held = sections.graph.result()
        graph = graph_hits(roots, held, self.store, a.owner, a.query, told, s, pending,
                           read.known.people if read is not None else None) if held else []
        return {**owned, **people, "graph": graph}

    def _nearness(self, a: _Asked, read: PeopleRead | None, qvec: np.ndarray | None) -> dict[int, float]:
        """The people's facts' nearness to the query, read once for the sections of either
        language (none with person cards: their order is not by meaning)."""
        if read is None or self.settings.w_fact_meaning <= 0 or self.settings.person_card:
            return {}
        return nearness(self.store, [f for facts in fact_views(read, a.at).values() for f in facts], qvec,
                        self._passages)

    def _owner_tiers(self, a: _Asked, qvec: np.ndarray | None, state: ChatState, sections: _Sections,
                     pending: Pending) -> tuple[dict[str, list[Hit]], dict[str, frozenset[int]]]:
        """The user's facts (a group's come in by person, in the people section), the episodes
        and the running tasks; and the turns each episode only restates. Asked at a time: as
        they stood then (``asof``)."""
        s = self.settings
        said = state.now if a.at is None else epoch(a.at)
        now = said or time.time()
        facts: list[Hit] = []
        if sections.facts is not None:
            known = sections.facts.result()
            known = known if a.at is None else facts_at(known, a.at)
            facts = person.fact_hits(a.query, known, now, s, pending, s.context_fill != "budget")
        signals, tasks = sections.episodic.result()
        ranked = (self.episodes.rank(a.owner, qvec, s.episodes_in_context, said, a.until, signals)
                  if s.episodes_in_context else [])
        # an episode without lessons (offline: an extract of its turns, rules over them) restates them
        return ({"profile": facts, "episodic": person.task_hits(tasks) + person.episode_hits(ranked)},
                hitlib.restating("episode", (e for e, _, _ in ranked if not e.lessons)))

    def search(self, query: str, where: Scope, session_id: str | None, limit: int, asked: datetime,
               asker: str | None = None, cutoff: bool = False) -> Searched:
        """The best ``limit`` hits of every tier for ``query`` (blocking): turns, summaries, key
        lines, diary days and what is known of the people it names. With ``session_id``, turns
        and summaries are that session's; people's facts are the owner's, and their ``why`` says so.
        ``asker``: who asks; a query in the first person ranks their own words first. ``cutoff``:
        the search is asked at ``asked`` and knows nothing said after it (``asof``)."""
        at = aware(asked) if cutoff else None
        until = None if at is None else epoch(at)
        state = self.store.chat_state(where, session_id, key_sources=until is not None)
        with self.people.reading(where, state):
            q = self.retriever.ask(query, where, session_id, state, until)
            roles = people_roles(self.people, where, query, q.named, None, [], self.settings, False)
            read = self.retriever.together.start(read_people, self.store, where, roles, None, asked.date(),
                                                 self.settings, False, at)
            found = self.retriever.rank(q, limit, state, asked.date(), asker)
            pending = Pending()
            known = people_sections(read.result(), self.store, where, query, asked.date(), self.settings, pending,
                                    False, found.meaning.qvec, self._passages, at, stable=False)
            turns = self.store.turns.get_turns([*found.turn_ids(), *pending.ids])
            return self._searched(query, session_id, limit, self.retriever.finish(found, turns),
                                  fill(known["people"], turns), turns)

    def _searched(self, query: str, session_id: str | None, limit: int, found: Retrieved, people: list[Hit],
                  turns: Mapping[int, Turn]) -> Searched:
        if session_id is not None:  # what is known of people is the group's, as key lines are
            people = [replace(h, why=h.why + OWNER_WIDE) for h in people]
        chat = self.settings.w_chat_facts > 0 and bool(dialogue.lines(query))
        said = [h for h in found.turn_hits if not (h.kind == "turn" and content_free(h.sources[0]))]
        hits = hitlib.merge(said, found.derived, people, chat)[:limit]
        if any(h.kind in ("summary", "key", "diary") for h in hits):
            hits = self.retriever.with_sources(hits, found.sources, turns)
        return Searched(hits, found.hits)

    def _passages(self, texts: list[str]) -> np.ndarray:
        """Passages embedded for a read: through the cache, none written to it (a read writes nothing)."""
        return self.retriever.embed.passages(texts, keep=False)

    def _names(self, owner: Scope) -> Callable[[str], tuple[str, frozenset[str]]]:
        """Each text read once by the names the chat knows: without the people it names
        (``relevance.unnamed``), and the ids of those it names beyond doubt."""
        resolver = self.retriever.people
        seen: dict[str, tuple[str, frozenset[str]]] = {}

        def read(text: str) -> tuple[str, frozenset[str]]:
            if text not in seen:
                found = resolver.resolve(text, owner) if resolver is not None else []
                seen[text] = (relevance.unnamed(text, [(m.start, m.end) for m in found]),
                              frozenset(m.person_ids[0] for m in found if not m.ambiguous))
            return seen[text]

        return read

    def _latest(self, a: _Asked, state: ChatState, found: Found) -> list[Summary]:
        """The newest summaries of the session (``state``'s, read with the retrieval's); asked
        ``until`` a time, the newest made of turns said by then (each summary's turns read once,
        for their times)."""
        if a.until is None:
            return [found.latest[i] for i in state.latest if i in found.latest]
        wanted = LATEST_SUMMARIES * 4
        while True:  # the newest few, then more while too few of them were made by then
            newest = self.store.summaries.of_scope(a.owner, a.session_id, wanted)
            made = made_by(self.store.turns, newest, lambda m: m.source_ids, a.until)
            if len(made) >= LATEST_SUMMARIES or len(newest) < wanted:
                return made[-LATEST_SUMMARIES:]
            wanted *= 4


def _told_of(named: Sequence[str], read: PeopleRead | None, triples: Iterable[Triple]) -> set[int]:
    """The turns that told something of the people ``named`` (the person ids the query names):
    one of their facts, a name they go by or a relation of theirs was learned from it ("听说涛哥
    换到蓝鲸数据了", "btw Alexander Ross goes by Alex", "王磊是我同学"). A turn that only names them
    ("问下霓霓", "@周霓 考研加油！") told nothing of them."""
    if not named:
        return set()
    told = {turn for t in triples if t.subject in named or t.object in named for turn in t.sources}
    if read is not None:
        known = read.known
        told |= {t for p in named for f in known.facts.get(p, ()) for t in f.sources}
        told |= {a.turn_id for p in named if p in known.people for a in known.people[p].aliases if a.turn_id}
    return told


def _language(keys: Sequence[str], last: Sequence[Turn], a: _Asked, recalled: Sequence[str]) -> str:
    """The language of the context's scaffolding (``chat_language``): of the key lines, the recent
    turns, the query and the messages before it, and the ``recalled`` lines' words."""
    return chat_language([*keys, *(t.content for t in last), a.query, *a.recent, *recalled])


def _guess(state: ChatState, last: Sequence[Turn], a: _Asked, found: Found) -> str:
    """``_language`` before the turns are read: the pool's words of the best candidates stand for
    the recalled lines' (the sections are built in it; when the turns read say otherwise, again)."""
    said = {t.id for t in last}
    best = [r.content for i, _ in found.ranked.head[:20] if i not in said and (r := found.pool.refs.get(i)) is not None]
    return _language([k.text for k in state.keys], last, a, best)


def _read_through(store: FullStore, turns: Mapping[int, Turn]) -> TurnLookup:
    """A turn lookup over ``turns``, reading from ``store`` the ones not among them."""
    def lookup(ids: Iterable[int]) -> dict[int, Turn]:
        wanted = list(ids)
        rest = [i for i in wanted if i not in turns]
        return {**{i: turns[i] for i in wanted if i in turns}, **(store.turns.get_turns(rest) if rest else {})}

    return lookup


def _earned(a: _Asked, tiers: dict[str, list[Hit]], restates: Mapping[str, frozenset[int]],
            frame: Callable[[str], str], of_them: Callable[[str], bool], copies: Set[str]) -> None:
    """The summaries, episodes and diary days of ``tiers`` that earn their line as a recalled turn
    does (``relevance.earned``), in place: one sharing the query's words must name a person it
    names (``of_them``), if it names any; one of the ``copies`` by the words it adds to the kept
    lines; a diary day the query names is in by its date."""
    kept = {t.id: t.content for h in tiers["mid_term"] for t in h.sources}
    kinds = {"summary", "episode"} if days_named(a.query, a.asked.date()) else {"summary", "episode", "diary"}
    for name in ("long_term", "episodic"):
        tiers[name] = relevance.earned(tiers[name], restates, set(kept),
                                       lambda text: overlap(a.query, frame(text)) > 0 and of_them(text), kinds, copies,
                                       list(kept.values()))
