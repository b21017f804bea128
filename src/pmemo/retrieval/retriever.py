"""One retrieval, planned (issue 45 §4): what the query finds first, then each kind read once.

``ask`` reads nothing but the query: the people it names (the registry's state is the caller's,
``ReadPlanStore.chat_state``), its embedding, and the keyword search started on a thread of the
retriever's own (it needs no vector; beside e5's threads on a 2-core box it slowed the
embedding by 3-4 ms, so it waits for it). ``rank`` makes the reads that need the vector: every
vector search in one call (turns, summaries, diary days, clusters), the long-term records it
found with the caller's latest summaries in one, the candidate pool in one (``pool.rank`` weighs
it). The turns are not read there: the best ones, those replies tie them to, and every source
turn any section of a context shows are read in one call by the caller (``Found.turn_ids``),
and ``finish`` makes the hits of them.

Derived hits (summaries, key lines, diary days) are ranked without their source turns; the ones
a caller keeps get them (``with_sources``), from the turns read with the rest where their ids
were known (``Retrieved.sources``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Protocol, TypeVar

import numpy as np

from ..config import Settings
from ..embedders.cached import CachedEmbedder
from ..models import Diary, Hit, KeyLine, Scope, Summary, Turn
from ..people.resolve import Resolver
from ..stores import parts
from ..stores.base import CLUSTERS, ChatState, DiaryStore, ReadPlanStore, Store, TurnPool
from ..text import dialogue
from ..text.filler import filler
from . import hits as hitlib
from . import windows as l2
from .asker import first_person
from .asof import first_made, made_by
from .diary_recall import candidates as diary_candidates
from .diary_recall import days_named, recall, with_records
from .pool import NEIGHBOUR_REACH, Asked, ClusterRecall, Dense, Evidence, Ranked, pooled_vectors, rank, scored, seeds
from .pool import wanted as ranked_turns
from .replies import threaded, tied_to
from .search import POOL, best_per_turn, lexical, said_by_nearest, second_meaning, stored_vectors
from .signals import quoted, without_spans, without_speakers
from .together import Together

HIT_DEPTH = 10  # a recalled cluster counts a hit when one of its turns ranks this high
SUMMARY_DEPTH = 5  # summaries matched per query (they boost their turns; the context shows them)
DIARY_DEPTH = 3  # diary days recalled per query: the ones it names, else the nearest (issue 20)
DIARY_TURNS = 200  # a context reads its diary days' turns with the rest up to this many (``Found.turn_ids``)
OWNER_WIDE = " (owner-wide: not limited to one session)"
R = TypeVar("R")
Keywords = tuple[list[tuple[int, float]], list[list[tuple[int, float]]]]


class RetrievalStore(Store, ReadPlanStore, DiaryStore, Protocol):
    """What a retrieval reads: turns and vectors, the read plan's calls, diary days."""


@dataclass(frozen=True)
class Retrieved:
    turn_hits: list[Hit]
    derived: list[Hit]  # summaries and key lines, sources not yet filled in
    hits: list[int]  # recalled clusters whose hit a job will count (a read writes nothing itself)
    qvec: np.ndarray | None = None  # the query's embedding, for the other tiers of a context
    keys: list[KeyLine] = dataclasses.field(default_factory=list)  # the key lines read, without sources
    named: tuple[str, ...] = ()  # the people the query names (person ids, first named first)
    windows: dict[int, l2.Recalled] = dataclasses.field(default_factory=dict)  # turn → its L2 window
    # derived hit id → the turns it only restates (context.assemble drops it when it shows them all)
    restates: dict[str, frozenset[int]] = dataclasses.field(default_factory=dict)
    # derived hit id → its source turns' ids, where the read knew them (``with_sources``)
    sources: dict[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # derived hit ids of records made of their turns' own words (an extractive summary, a diary digest)
    copies: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Question:
    """A query as ``ask`` read it: who it names, its vector (and the second encoder's), and
    its keyword search under way."""

    query: str
    scope: Scope
    session_id: str | None
    until: float | None
    named: tuple[str, ...]
    qvec: np.ndarray
    keywords: Future[Keywords]
    second: Future[np.ndarray] | None = None


@dataclass(frozen=True)
class _Meaning:
    qvec: np.ndarray
    vector: list[tuple[int, float]]
    clusters: list[ClusterRecall]
    summaries: list[tuple[Summary, float]]
    windows: dict[int, l2.Recalled] = dataclasses.field(default_factory=dict)
    second: Dense | None = None  # the second encoder's channel (setting second_encoder)
    diaries: list[tuple[Diary, float]] = dataclasses.field(default_factory=list)
    records: dict[int, Summary] = dataclasses.field(default_factory=dict)  # every summary read, by id


@dataclass(frozen=True)
class Found:
    """A retrieval ranked, its turns not read yet: ``turn_ids`` are the ones ``finish`` needs."""

    question: Question
    depth: int
    meaning: _Meaning
    pool: TurnPool
    ranked: Ranked
    keys: list[KeyLine]

    @property
    def latest(self) -> dict[int, Summary]:
        """Every summary the read brought, by id (the caller's latest ones among them)."""
        return self.meaning.records

    def turn_ids(self, sources: bool = False) -> list[int]:
        """The turns ``finish`` reads: the best candidates', those they stand for and those
        replies tie them to; with ``sources``, the derived records' source turns too (a context
        shows its key lines and most of its summaries; the diary days it recalls only when they
        are few, DIARY_TURNS: a day it leaves out would be read for nothing, a packed one's are
        read after, ``with_sources``)."""
        head = [[i, *self.ranked.again.get(i, ())] for i, _ in self.ranked.head]
        ids = [*ranked_turns(self.ranked), *tied_to(head, self.pool.links)]
        if not sources:
            return ids
        known = self.sources()
        days = [i for hit, found in known.items() if hit.startswith("diary:") for i in found]
        return [*ids, *(i for hit, found in known.items() if not hit.startswith("diary:") for i in found),
                *(days if len(days) <= DIARY_TURNS else [])]

    def sources(self) -> dict[str, tuple[int, ...]]:
        """Derived hit id → its source turns' ids, where known: summaries, diary days, and key
        lines read with theirs."""
        known = {f"summary:{i}": s.source_ids for i, s in self.meaning.records.items()}
        known.update((f"diary:{d.id}", d.source_ids) for d, _ in self.meaning.diaries)
        known.update((f"key:{k.id}", k.source_ids) for k in self.keys if k.source_ids)
        return known


class Retriever:
    def __init__(self, store: RetrievalStore, embed: CachedEmbedder, settings: Settings, same_topic: float = 0.9,
                 people: Resolver | None = None) -> None:
        self.store = store
        self.people = people
        self.embed = embed
        self.settings = settings
        self.same_topic = same_topic  # the cluster threshold: cosine of turns on one topic
        self._keywords = ThreadPoolExecutor(thread_name_prefix="pmemo-keywords")
        # the second encoder embeds the query beside the first (numpy lets go of the GIL)
        self._second = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pmemo-query2")
        self.together = Together(bool(getattr(store, "parallel_reads", False)))  # reads at once (together.py)

    def close(self) -> None:
        self._keywords.shutdown(wait=True)
        self._second.shutdown(wait=True)
        self.together.close()

    def ask(self, query: str, scope: Scope, session_id: str | None, state: ChatState,
            until: float | None = None) -> Question:
        """The query read (blocking): the people it names (``self.people``, which reads the
        registry's versions from ``state``), its keyword search started, its vector. ``until``
        (epoch seconds): the query is asked then, and knows nothing said after (``asof``)."""
        keywords = self._keywords.submit(self._keywords_of, scope, query, session_id, until)
        try:
            found = self.people.resolve(query, scope) if self.people is not None else []
            # in a dialogue the speakers' labels say who talks, not whom the talk is about
            labels = dialogue.labels(query)
            found = [m for m in found if not any(m.start < end and start < m.end for start, end in labels)]
            named = tuple(dict.fromkeys(m.person_ids[0] for m in found if not m.ambiguous))
            # who is asked about is the speaker signal's; the words left say what about
            asked_about = without_speakers(without_spans(query, [(m.start, m.end) for m in found]), state.actors)
            # the second encoder reads a conversation, not a question: on MADial's dialogues it
            # lifted R@5 by 0.05, on LoCoMo's questions it cost 0.03 (docs/HISTORY.md, Second encoder)
            second = self.embed.second if dialogue.lines(query) else None
            qvec2 = self._second.submit(second.query, asked_about) if second is not None else None
            return Question(query, scope, session_id, until, named, self.embed.query(asked_about), keywords, qvec2)
        except BaseException:
            keywords.cancel()
            raise

    def _keywords_of(self, scope: Scope, query: str, session_id: str | None, until: float | None) -> Keywords:
        """Keyword candidates of the whole query, and of each thing it quotes (when several)."""
        facets = quoted(query) if self.settings.w_facet > 0 else []
        qtf = self.settings.w_qtf
        return (lexical(self.store, scope, dialogue.spoken(query), session_id, qtf, until),
                [lexical(self.store, scope, f, session_id, qtf, until) for f in facets] if len(facets) > 1 else [])

    def rank(self, q: Question, depth: int, state: ChatState, asked: date | None = None,
             asker: str | None = None, latest: Sequence[int] = ()) -> Found:
        """The vector's reads (``_by_meaning``; ``latest``: summary ids read with the ones it
        finds), the candidate pool read and ranked: the best ``depth`` (at least HIT_DEPTH).
        ``asked``: the day the query is asked, from which its relative dates are read. ``asker``:
        the person id of who asks; a query in the first person ("what did I say…", "我上次说的…")
        is about their words, as one naming them would be (a ranking: nobody else's turns are
        left out). The key lines are ``state``'s."""
        try:
            m = self._by_meaning(q, asked, latest)
            keywords, facets = q.keywords.result()
        finally:
            q.keywords.cancel()  # if the trip failed before it waited for them
        if q.second is not None and self.embed.second is not None:
            m = replace(m, second=second_meaning(self.store, q.scope, q.second.result(), self.embed.second.model_id,
                                                 q.session_id, q.until))
        if filler(q.query):  # "在吗", "hi", "哈哈" ask about nothing: no summary, cluster or diary day is near them
            m = replace(m, summaries=[], clusters=[], diaries=[])
        e = Evidence(keywords, m.vector, m.clusters, [(s.source_ids, c) for s, c in m.summaries], facets, m.second)
        who = Asked(q.query, m.qvec, asked, frozenset(q.named), asker if asker is not None and first_person(q.query)
                    else None, q.session_id, q.until)
        found, around = seeds(e)
        pool = self.store.turn_pool(found, max(NEIGHBOUR_REACH), around, tied=self.settings.w_reply > 0,
                                    vectors="turn", known=[i for i, _ in m.vector])
        ranked = rank(pool, pooled_vectors(pool, len(m.qvec)), e, who, self.settings, self.same_topic,
                      max(depth, HIT_DEPTH), stored_vectors(self.store, "turn", len(m.qvec)))
        return Found(q, depth, m, pool, ranked, self._keys(state, q.until))

    def _keys(self, state: ChatState, until: float | None) -> list[KeyLine]:
        """The key lines (``state``'s); asked ``until`` a time, the ones made by then."""
        keys = list(state.keys)
        if until is None:
            return keys
        return made_by(self.store.turns, keys, lambda k: k.source_ids, until)

    def _by_meaning(self, q: Question, asked: date | None, latest: Sequence[int]) -> _Meaning:
        """Every vector search of the query in one read (turns, or L2 windows; summaries;
        diary days unless it names days; clusters), then the summaries and diary days found
        with the ``latest`` summaries in one (``first_made`` reads more, asked ``until`` a time)."""
        s, model, k = self.settings, self.embed.model_id, POOL if q.session_id is None else POOL * 5
        days = filler(q.query) or bool(days_named(q.query, asked))
        wanted = [("summary", SUMMARY_DEPTH), *([] if days else [("diary", DIARY_DEPTH)]), (CLUSTERS, s.top_k_clusters)]
        if not s.window_tokens:
            wanted += [("turn", k), *([(parts.KIND, k)] if self.embed.splits else [])]
        near = self.store.nearest_kinds(q.scope, q.qvec, wanted, model)
        clusters = [ClusterRecall(i, sim) for i, sim in near[CLUSTERS] if sim >= 0.0]
        via: dict[int, l2.Recalled] = {}
        if s.window_tokens:  # L2 windows (issue 20): the vector candidates are windows' turns
            vector, via = l2.candidates(self.store, q.scope, q.qvec, model, q.session_id, until=q.until)  # type: ignore[arg-type]
        else:
            vector = self._vector(q, near, k)
        found_days = [] if filler(q.query) else diary_candidates(
            self.store, q.scope, q.query, q.qvec, model, asked, DIARY_DEPTH, lambda n: near["diary"])  # type: ignore[arg-type]
        summaries, diaries = self.store.long_term([*(i for i, _ in near["summary"]), *latest],
                                                  [i for i, _ in found_days])
        return _Meaning(q.qvec, vector, clusters, self._summaries(q, near["summary"], summaries), via,
                        diaries=self._diaries(q, asked, found_days, diaries), records=summaries)

    def _vector(self, q: Question, near: Mapping[str, list[tuple[int, float]]], k: int) -> list[tuple[int, float]]:
        """The turns nearest the query: by their vector or their best part (a long turn counts by
        the piece that says what was asked); asked ``until`` a time, those said by then."""
        def nearest(n: int) -> list[tuple[int, float]]:
            if n == k:
                return best_per_turn(near["turn"], near[parts.KIND], n) if self.embed.splits else near["turn"]
            vectors, model = self.store.vectors, self.embed.model_id
            found = vectors.nearest("turn", q.scope.key, q.qvec, n, model)
            return (best_per_turn(found, vectors.nearest(parts.KIND, q.scope.key, q.qvec, n, model), n)
                    if self.embed.splits else found)

        return nearest(k) if q.until is None else said_by_nearest(self.store, nearest, k, q.until)

    def _summaries(self, q: Question, near: list[tuple[int, float]],
                   read: dict[int, Summary]) -> list[tuple[Summary, float]]:
        """The summaries nearest the query; with ``session_id``, that session's only; with
        ``until``, the ones made of turns said by then."""
        def matching(found: list[tuple[int, float]], summaries: dict[int, Summary]) -> list[tuple[Summary, float]]:
            return [(summaries[i], c) for i, c in found
                    if i in summaries and q.session_id in (None, summaries[i].scope.session_id)]

        def more(n: int) -> list[tuple[Summary, float]]:
            found = self.store.vectors.nearest("summary", q.scope.key, q.qvec, n, self.embed.model_id)
            return matching(found, self.store.summaries.get_summaries(i for i, _ in found))

        return self._made(matching(near, read), more, SUMMARY_DEPTH, lambda pair: pair[0].source_ids, q.until)

    def _diaries(self, q: Question, asked: date | None, found: list[tuple[int, float]],
                 read: dict[int, Diary]) -> list[tuple[Diary, float]]:
        if filler(q.query):
            return []

        def more(n: int) -> list[tuple[Diary, float]]:
            return recall(self.store, q.scope, q.query, q.qvec, self.embed.model_id, asked, n)  # type: ignore[arg-type]

        return self._made(with_records(found, read), more, DIARY_DEPTH, lambda pair: pair[0].source_ids, q.until)

    def _made(self, first: list[R], more: Callable[[int], list[R]], depth: int,
              sources: Callable[[R], Iterable[int]], until: float | None) -> list[R]:
        """``asof.first_made`` over ``first`` (what the plan's reads found), reading ``more``
        only when, asked ``until`` a time, some of them were made later."""
        return first_made(self.store.turns, lambda n: first if n == depth else more(n), depth, sources, until)

    def finish(self, found: Found, turns: Mapping[int, Turn]) -> Retrieved:
        """The hits of a ranked retrieval, given the turns read (``Found.turn_ids``)."""
        q, m, s = found.question, found.meaning, self.settings
        ranked = threaded(scored(found.ranked, turns), found.pool.links, turns, q.session_id, q.until)
        recalled = {c.cluster_id for c in m.clusters}
        top = {r.cluster for r in ranked[:HIT_DEPTH] if r.cluster is not None}
        kept = ranked[:found.depth]
        steps = dict(found.pool.last_steps)
        if missing := {r.turn.session_id for r in kept} - steps.keys():  # a reply from another session
            steps.update(self.store.turns.max_steps(q.scope, missing))
        turn_hits = l2.labelled(hitlib.turn_hits(kept, steps, s.short_term_turns), m.windows)
        # a diary day written without an LLM only restates its messages (a quiet day's digest is
        # its one message again): when they are all among the best hits (what any context packs;
        # a search returns them all), they stand for it
        shown = {r.turn.id for r in kept[:HIT_DEPTH]}
        diaries = [(d, c) for d, c in m.diaries if not _repeats(d, shown)]
        restates = {**hitlib.restating("summary", (x for x, _ in m.summaries)),
                    **hitlib.restating("diary", (d for d, _ in diaries if d.method == "digest"))}
        keys = [replace(k, source_ids=()) for k in found.keys]  # ranked without them (``with_sources``)
        return Retrieved(turn_hits, self._derived_hits(q.query, m, keys, q.session_id is not None, diaries),
                         sorted(recalled & top), m.qvec, keys, q.named, m.windows, restates, found.sources(),
                         frozenset(hitlib.copies((x for x, _ in m.summaries), (d for d, _ in diaries))))

    def _derived_hits(self, query: str, m: _Meaning, keys: list[KeyLine], in_session: bool,
                      diaries: list[tuple[Diary, float]]) -> list[Hit]:
        key_vecs = self.embed.passages([k.text for k in keys], keep=False) if keys else None
        hits = hitlib.derived_hits(query, m.summaries, keys, key_vecs, m.qvec,
                                   [s for _, s in m.vector], self.settings, later, diaries)
        # a search in one session still shows the owner's key lines and diary days, and says they are owner-wide
        return [replace(h, why=h.why + OWNER_WIDE) if in_session and h.kind in ("key", "diary") else h
                for h in hits]

    def with_sources(self, hits: list[Hit], known: Mapping[str, tuple[int, ...]] | None = None,
                     turns: Mapping[int, Turn] | None = None) -> list[Hit]:
        """The derived hits among ``hits``, given their source turns: ``known`` source ids and
        ``turns`` read where the caller has them, the store's otherwise."""
        def source_ids(bare: list[Hit]) -> dict[str, tuple[int, ...]]:
            have = {h.id: known[h.id] for h in bare if known and h.id in known}
            rest = [h for h in bare if h.id not in have]
            return {**have, **(self._source_ids(rest) if rest else {})}

        def lookup(ids: Iterable[int]) -> dict[int, Turn]:
            wanted = list(ids)
            have = {i: turns[i] for i in wanted if turns is not None and i in turns}
            rest = [i for i in wanted if i not in have]
            return {**have, **(self.store.turns.get_turns(rest) if rest else {})}

        return hitlib.with_sources(hits, source_ids, lookup)

    def _source_ids(self, hits: list[Hit]) -> dict[str, tuple[int, ...]]:
        """The source turn ids of derived ``hits`` (by hit id): one read for the summaries, one
        for the diary days, one per key line (a search shows few)."""
        refs: dict[str, list[int]] = {"summary": [], "diary": [], "key": []}
        for hit in hits:
            kind, _, ref = hit.id.partition(":")
            if kind in refs:
                refs[kind].append(int(ref))
        found: dict[str, Any] = {}
        if refs["summary"]:
            found.update((f"summary:{i}", s) for i, s in self.store.summaries.get_summaries(refs["summary"]).items())
        if refs["diary"]:
            found.update((f"diary:{i}", d) for i, d in self.store.diary.get_diaries(refs["diary"]).items())
        found.update((f"key:{i}", self.store.key_lines.get_key(i)) for i in refs["key"])
        return {hit_id: item.source_ids for hit_id, item in found.items() if item is not None}


def _repeats(diary: Diary, shown: set[int]) -> bool:
    """Whether a diary entry says nothing the turn hits ``shown`` do not: a digest of their
    words (an LLM's entry may say more), and of them only."""
    return diary.method == "digest" and bool(diary.source_ids) and shown.issuperset(diary.source_ids)


def later(ids: Any) -> dict[int, Turn]:
    """The turn lookup for derived hits while ranking: none yet (see ``with_sources``)."""
    return {}
