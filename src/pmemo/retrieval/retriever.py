"""One retrieval end to end: the tier reads, fusion and hits, in one trip off the event loop.

The trip's thread embeds the query, then reads what the vector finds (turns, clusters,
summaries: each well under a millisecond, so together) while the keyword search runs on a
thread of the retriever's own; then it fuses, builds hits and counts the recalled clusters'
hits. The keyword search waits for the embedding: beside e5's threads on a 2-core box it
slowed the embedding by 3-4 ms (100k-turn store), more than it saved. Each trip costs a
thread wake-up and an event-loop wake-up, which on a busy 2-core box cost about as much as
one of those reads: three trips (keywords, meaning, fusion) took ~1 ms more per search than
one.

Derived hits (summaries, key lines) are ranked without their source turns; only the ones
a caller keeps get them (``with_sources``): a key line promoted from a cluster comes from
thousands of turns in a large store.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import numpy as np

from ..config import Settings
from ..embedders.cached import CachedEmbedder
from ..models import Diary, Hit, KeyLine, Scope, Summary, Turn
from ..people.resolve import Resolver
from ..stores.base import Store
from ..text import dialogue
from ..text.filler import filler
from . import hits as hitlib
from . import windows as l2
from .asker import first_person
from .asof import first_made, made_by
from .diary_recall import recall
from .replies import threaded
from .search import ClusterRecall, Dense, by_meaning, fuse, lexical, recall_clusters, second_meaning, stored_vectors
from .signals import quoted, without_spans, without_speakers

HIT_DEPTH = 10  # a recalled cluster counts a hit when one of its turns ranks this high
SUMMARY_DEPTH = 5  # summaries matched per query (they boost their turns; the context shows them)
DIARY_DEPTH = 3  # diary days recalled per query: the ones it names, else the nearest (issue 20)
OWNER_WIDE = " (owner-wide: not limited to one session)"


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


@dataclass(frozen=True)
class _Meaning:
    qvec: np.ndarray
    vector: list[tuple[int, float]]
    clusters: list[ClusterRecall]
    summaries: list[tuple[Summary, float]]
    windows: dict[int, l2.Recalled] = dataclasses.field(default_factory=dict)
    second: Dense | None = None  # the second encoder's channel (setting second_encoder)


class Retriever:
    def __init__(self, store: Store, embed: CachedEmbedder, settings: Settings, same_topic: float = 0.9,
                 people: Resolver | None = None) -> None:
        self.store = store
        self.people = people
        self.embed = embed
        self.settings = settings
        self.same_topic = same_topic  # the cluster threshold: cosine of turns on one topic
        self._keywords = ThreadPoolExecutor(thread_name_prefix="pmemo-keywords")
        # the second encoder embeds the query beside the first (numpy lets go of the GIL)
        self._second = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pmemo-query2")

    def close(self) -> None:
        self._keywords.shutdown(wait=True)
        self._second.shutdown(wait=True)

    def read(self, query: str, scope: Scope, session_id: str | None,
             depth: int, asked: date | None = None, asker: str | None = None,
             until: float | None = None) -> Retrieved:
        """Turn hits (the best ``depth``), derived hits, and the clusters recalled, whose hits a
        job counts (blocking: call it off the loop). ``asked``: the day the query is asked,
        from which its relative dates are read. ``asker``: the person id of who asks; a query
        in the first person ("what did I say…", "我上次说的…") is about their words, as one
        naming them would be (the speaker signal): a ranking, nobody else's turns are left out.
        ``until`` (epoch seconds): the query is asked then, and knows nothing said after
        (``asof``)."""
        # the keyword search needs no vector, nor the people the query names: it runs meanwhile
        keywords = self._keywords.submit(self._keywords_of, scope, query, session_id, until)
        try:
            found = self.people.resolve(query, scope) if self.people is not None else []
            # in a dialogue the speakers' labels say who talks, not whom the talk is about
            labels = dialogue.labels(query)
            found = [m for m in found if not any(m.start < end and start < m.end for start, end in labels)]
            named = tuple(dict.fromkeys(m.person_ids[0] for m in found if not m.ambiguous))
            # who is asked about is the speaker signal's; the words left say what about
            asked_about = without_speakers(without_spans(query, [(m.start, m.end) for m in found]),
                                           self.store.actors(scope))
            # the second encoder reads a conversation, not a question: on MADial's dialogues it
            # lifted R@5 by 0.05, on LoCoMo's questions it cost 0.03 (docs/HISTORY.md, Second encoder)
            second = self.embed.second if dialogue.lines(query) else None
            qvec2 = self._second.submit(second.query, asked_about) if second is not None else None
            qvec = self.embed.query(asked_about)
            meaning = self._by_meaning(qvec, scope, session_id, until)
            if second is not None and qvec2 is not None:
                meaning = replace(meaning, second=second_meaning(self.store, scope, qvec2.result(),
                                                                 second.model_id, session_id, until))
            return self._rank(query, scope, *keywords.result(), meaning, session_id, depth, asked, named,
                              asker if asker is not None and first_person(query) else None, until)
        finally:
            keywords.cancel()  # if the trip failed before it waited for them

    def _keywords_of(self, scope: Scope, query: str, session_id: str | None, until: float | None,
                     ) -> tuple[list[tuple[int, float]], list[list[tuple[int, float]]]]:
        """Keyword candidates of the whole query, and of each thing it quotes (when several)."""
        facets = quoted(query) if self.settings.w_facet > 0 else []
        qtf = self.settings.w_qtf
        return (lexical(self.store, scope, dialogue.spoken(query), session_id, qtf, until),
                [lexical(self.store, scope, f, session_id, qtf, until) for f in facets] if len(facets) > 1 else [])

    def _by_meaning(self, qvec: np.ndarray, scope: Scope, session_id: str | None,
                    until: float | None = None) -> _Meaning:
        summaries = self._matching_summaries(scope, qvec, session_id, until)
        if self.settings.window_tokens:  # L2 windows (issue 20): the vector candidates are windows' turns
            vector, via = l2.candidates(self.store, scope, qvec, self.embed.model_id, session_id,  # type: ignore[arg-type]
                                        until=until)
            clusters = recall_clusters(self.store, scope, qvec, self.settings.top_k_clusters)
            return _Meaning(qvec, vector, clusters, summaries, via)
        vector, clusters = by_meaning(self.store, scope, qvec, self.embed.model_id, self.settings, session_id,
                                      pieces=self.embed.splits, until=until)
        return _Meaning(qvec, vector, clusters, summaries)

    def _matching_summaries(self, scope: Scope, qvec: np.ndarray, session_id: str | None,
                            until: float | None = None) -> list[tuple[Summary, float]]:
        """The summaries nearest the query; with ``session_id``, that session's only; with
        ``until``, the ones made of turns said by then."""
        def nearest(k: int) -> list[tuple[Summary, float]]:
            found = self.store.nearest("summary", scope.key, qvec, k, self.embed.model_id)
            summaries = self.store.get_summaries(i for i, _ in found)
            return [(summaries[i], c) for i, c in found
                    if i in summaries and session_id in (None, summaries[i].scope.session_id)]

        return first_made(self.store, nearest, SUMMARY_DEPTH, lambda pair: pair[0].source_ids, until)

    def _rank(self, query: str, scope: Scope, keywords: list[tuple[int, float]],
              facets: list[list[tuple[int, float]]], m: _Meaning, session_id: str | None,
              depth: int, asked: date | None, named: tuple[str, ...] = (),
              asker: str | None = None, until: float | None = None) -> Retrieved:
        if filler(query):  # "在吗", "hi", "哈哈" ask about nothing: no summary, cluster or diary day is near them
            m = replace(m, summaries=[], clusters=[])
        scored = fuse(self.store, stored_vectors(self.store, "turn", len(m.qvec)), query,
                      m.qvec, keywords, m.vector, m.clusters,
                      [(s.source_ids, c) for s, c in m.summaries], self.settings, session_id,
                      self.same_topic, max(depth, HIT_DEPTH), facets, asked, frozenset(named), m.second,
                      asker, until)
        scored = threaded(scored, self.store, session_id, until)  # replies with what they answer (issue 44 §2)
        recalled = {c.cluster_id for c in m.clusters}
        top = {s.cluster for s in scored[:HIT_DEPTH] if s.cluster is not None}
        kept = scored[:depth]
        windows = self.store.max_steps(scope, [s.turn.session_id for s in kept])
        turn_hits = l2.labelled(hitlib.turn_hits(kept, windows, self.settings.short_term_turns), m.windows)
        keys = self.store.keys(scope, sources=until is not None)
        if until is not None:  # their sources were read only to see when they were said
            keys = [replace(k, source_ids=()) for k in made_by(self.store, keys, lambda k: k.source_ids, until)]
        diaries = [] if filler(query) else first_made(
            self.store, lambda k: recall(self.store, scope, query, m.qvec,  # type: ignore[arg-type]
                                         self.embed.model_id, asked, k),
            DIARY_DEPTH, lambda pair: pair[0].source_ids, until)
        # a diary day written without an LLM only restates its messages (a quiet day's digest is
        # its one message again): when they are all among the best hits (what any context packs;
        # a search returns them all), they stand for it
        shown = {s.turn.id for s in kept[:HIT_DEPTH]}
        diaries = [(d, c) for d, c in diaries if not _repeats(d, shown)]
        restates = {**hitlib.restating("summary", (s for s, _ in m.summaries)),
                    **hitlib.restating("diary", (d for d, _ in diaries if d.method == "digest"))}
        return Retrieved(turn_hits, self._derived_hits(query, m, keys, session_id is not None, diaries),
                         sorted(recalled & top), m.qvec, keys, named, m.windows, restates)

    def _derived_hits(self, query: str, m: _Meaning, keys: list[KeyLine], in_session: bool,
                      diaries: list[tuple[Diary, float]]) -> list[Hit]:
        key_vecs = self.embed.passages([k.text for k in keys]) if keys else None
        hits = hitlib.derived_hits(query, m.summaries, keys, key_vecs, m.qvec,
                                   [s for _, s in m.vector], self.settings, later, diaries)
        # a search in one session still shows the owner's key lines and diary days, and says they are owner-wide
        return [replace(h, why=h.why + OWNER_WIDE) if in_session and h.kind in ("key", "diary") else h
                for h in hits]

    def with_sources(self, hits: list[Hit]) -> list[Hit]:
        """The derived hits among ``hits``, given their source turns."""
        return hitlib.with_sources(hits, self._source_ids, self.store.get_turns)

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
            found.update((f"summary:{i}", s) for i, s in self.store.get_summaries(refs["summary"]).items())
        if refs["diary"]:
            found.update((f"diary:{i}", d) for i, d in self.store.get_diaries(refs["diary"]).items())  # type: ignore[attr-defined]
        found.update((f"key:{i}", self.store.get_key(i)) for i in refs["key"])
        return {hit_id: item.source_ids for hit_id, item in found.items() if item is not None}


def _repeats(diary: Diary, shown: set[int]) -> bool:
    """Whether a diary entry says nothing the turn hits ``shown`` do not: a digest of their
    words (an LLM's entry may say more), and of them only."""
    return diary.method == "digest" and bool(diary.source_ids) and shown.issuperset(diary.source_ids)


def later(ids: Any) -> dict[int, Turn]:
    """The turn lookup for derived hits while ranking: none yet (see ``with_sources``)."""
    return {}
