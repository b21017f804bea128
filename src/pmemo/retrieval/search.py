"""Turn retrieval: lexical (FTS5 bm25) and vector candidates, cluster recall, fused."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from ..config import Settings
from ..models import Scope, Turn
from ..stores import parts
from ..stores.base import Store, TurnRef, TurnStore, VectorStore
from ..text.dates import date_ranges, relative_ranges
from ..text.dialogue import says_something
from ..text.filler import filler, said_key, said_shape
from ..text.segment import term_counts
from .fusion import best_first, give_way, mmr, once, weighted
from .recipe import weights
from .signals import (
    addresses_assistant,
    asks_money,
    facet_bonus,
    mentioned,
    near_dates,
    neighbour_bonus,
    only_asks,
    recency,
    states_money,
    substance,
    zscores,
)

POOL = 100  # candidates per retriever
QTF_CAP = 8  # a word said more often still counts 8 times: bounds a pasted text's keyword query
FACET_DEPTH = 3  # a quoted thing's best keyword matches that get its bonus
MMR_DEPTH = 40
SEEDS = 20  # the strongest candidates of each retriever, whose neighbouring turns join the pool
# what a candidate passes on to the turns 1 and 2 steps before and after it: a fact is often
# told over a question, its answer and a follow-up ("anywhere you'd recommend?" → "Barcelona!"
# → "We loved the Sagrada Familia.")
NEIGHBOUR_REACH = {-1: 1.0, 1: 1.0, -2: 0.8, 2: 0.8}
# turn ids → (the ids found, their vectors as rows): ``stored_vectors``
VectorLookup = Callable[[list[int]], tuple[list[int], np.ndarray]]


@dataclass(frozen=True)
class Scored:
    turn: Turn
    score: float
    why: str
    cluster: int | None = None  # the turn's cluster, when fusion read it (clusters were recalled)
    also: tuple[Turn, ...] = ()  # the lower-ranked turns that said the same words (``fusion.once``)


@dataclass(frozen=True)
class Dense:
    """The second dense channel (setting second_encoder): the query embedded by that encoder,
    its nearest turns (kind "turn2"), and the lookup of the other candidates' vectors."""

    qvec: np.ndarray
    found: list[tuple[int, float]]
    vectors: VectorLookup


@dataclass(frozen=True)
class ClusterRecall:
    cluster_id: int
    similarity: float


def lexical(store: Store, scope: Scope, query: str, session_id: str | None,
            qtf: float = 1.0, until: float | None = None) -> list[tuple[int, float]]:
    """Keyword candidates: bm25 over the query's content words (``keyword_terms``); with
    ``until`` (epoch seconds), of the turns said by then."""
    return store.lexical(scope, keyword_terms(query, qtf), POOL, session_id, until)


def keyword_terms(query: str, qtf: float = 1.0) -> list[str]:
    """The query's content words, one said n times (at most ``QTF_CAP``) given 1 + ``qtf`` ×
    (n - 1) times: BM25's query-term frequency. A question seldom says a word twice; a
    conversation comes back to its topic (a chat that says "奶奶" in three lines is about
    grandma). Setting ``w_qtf``; measured in the README.

    >>> keyword_terms("pizza or pasta? pizza!"), keyword_terms("pizza or pasta? pizza!", 0.0)
    (['pizza', 'pizza', 'pasta'], ['pizza', 'pasta'])
    >>> len(keyword_terms("pizza " * 20)), len(keyword_terms("pizza " * 20, 0.5))
    (8, 4)
    """
    return [term for term, n in term_counts(query) for _ in range(round(1 + qtf * (min(n, QTF_CAP) - 1)))]


def by_meaning(store: Store, scope: Scope, qvec: np.ndarray, model: str,
               settings: Settings, session_id: str | None, cluster_floor: float = 0.0,
               pieces: bool = False, until: float | None = None,
               ) -> tuple[list[tuple[int, float]], list[ClusterRecall]]:
    """Vector candidates (turns of embedding ``model``) and the recalled clusters. Each read
    is well under a millisecond; the caller runs them together, beside the keyword search.
    With ``pieces`` (the embedder cuts long texts), a long turn's cosine is its best part's.
    A search in one session reads five times as many (``fuse`` keeps that session's); one asked
    ``until`` a time keeps as many as it would have read of the turns said by then
    (``said_by_nearest``): when nothing was said later, the very same."""
    k = POOL if session_id is None else POOL * 5

    def nearest(n: int) -> list[tuple[int, float]]:
        found = store.nearest("turn", scope.key, qvec, n, model)
        return best_per_turn(found, store.nearest(parts.KIND, scope.key, qvec, n, model), n) if pieces else found

    return (nearest(k) if until is None else said_by_nearest(store, nearest, k, until),
            recall_clusters(store, scope, qvec, settings.top_k_clusters, cluster_floor))


def said_by_nearest(store: TurnStore, nearest: Callable[[int], list[tuple[int, float]]], k: int,
                    until: float) -> list[tuple[int, float]]:
    """The ``k`` nearest candidates said by ``until``: the ``k`` nearest, and when some of them
    were said later, five times as many, kept in order (``said_by``)."""
    found = nearest(k)
    kept = said_by(store, found, until, k)
    return kept if len(kept) == len(found) or len(found) < k else said_by(store, nearest(k * 5), until, k)


def said_by(store: TurnStore, found: list[tuple[int, float]], until: float,
            k: int | None = None) -> list[tuple[int, float]]:
    """The first ``k`` (all by default) candidates among ``found`` (turn id, score) said at or
    before ``until``, in order. Their times are read ``k`` at a time, until there are enough:
    when little was said later, one read of ``k``."""
    step = k or len(found)
    out: list[tuple[int, float]] = []
    for start in range(0, len(found), max(step, 1)):
        part = found[start:start + step]
        when = store.turn_times(i for i, _ in part)
        out += [(i, score) for i, score in part if when.get(i, math.inf) <= until]
        if k is not None and len(out) >= k:
            return out[:k]
    return out


def best_per_turn(turns: list[tuple[int, float]], found: list[tuple[int, float]],
                  k: int) -> list[tuple[int, float]]:
    """The ``k`` best turns by their vector or their best part (``found``: part refs), best
    first, equal ones by id: a long turn counts by the piece that says what was asked.

    >>> best_per_turn([(1, 0.5), (2, 0.4)], [(parts.ref(2, 3), 0.9), (parts.ref(2, 0), 0.6)], 5)
    [(2, 0.9), (1, 0.5)]
    """
    best = dict(turns)
    for ref, cosine in found:
        turn_id = parts.turn_of(ref)
        if cosine > best.get(turn_id, -math.inf):
            best[turn_id] = cosine
    return sorted(best.items(), key=lambda hit: (-hit[1], hit[0]))[:k]


def second_meaning(store: Store, scope: Scope, qvec: np.ndarray, model: str,
                   session_id: str | None, until: float | None = None) -> Dense:
    """The second encoder's vector candidates ("turn2" vectors of its ``model``); ``until`` as
    for ``by_meaning``."""
    k = POOL if session_id is None else POOL * 5

    def nearest(n: int) -> list[tuple[int, float]]:
        return store.nearest("turn2", scope.key, qvec, n, model)

    found = nearest(k) if until is None else said_by_nearest(store, nearest, k, until)
    return Dense(qvec, found, stored_vectors(store, "turn2", len(qvec)))


def stored_vectors(store: VectorStore, kind: str, dim: int) -> VectorLookup:
    """The stored vectors of ids of one ``kind``, as rows of ``dim`` (a query's): one left
    by an earlier embedder of another size, not embedded again yet, counts as missing."""

    def lookup(refs: list[int]) -> tuple[list[int], np.ndarray]:
        found = [(ref, vec) for ref, vec in store.get_vectors(kind, refs).items() if len(vec) == dim]
        rows = np.stack([vec for _, vec in found]) if found else np.zeros((0, dim), dtype=np.float32)
        return [ref for ref, _ in found], rows

    return lookup


def recall_clusters(store: Store, scope: Scope, qvec: np.ndarray, k: int,
                    floor: float = 0.0) -> list[ClusterRecall]:
    """Top-k clusters by centroid similarity; only ones at least ``floor`` similar count."""
    return [ClusterRecall(i, sim) for i, sim in store.nearest_clusters(scope, qvec, k) if sim >= floor]


def fuse(store: Store, vectors: VectorLookup, query: str, qvec: np.ndarray | None,
         lexical: list[tuple[int, float]], vector: list[tuple[int, float]],
         clusters: list[ClusterRecall], summaries: list[tuple[tuple[int, ...], float]],
         settings: Settings, session_id: str | None, same_topic: float = 0.9,
         limit: int | None = None, facets: Sequence[list[tuple[int, float]]] = (),
         asked: date | None = None, speakers: frozenset[str] = frozenset(),
         second: Dense | None = None, asker: str | None = None, until: float | None = None) -> list[Scored]:
    """Fuse z-scored lexical and vector evidence, plus bonuses (neighbour, speaker, date (the
    dates the query names, and its relative ones read from the day it is ``asked``; speaker:
    turns said by the people the query names, ``speakers`` by person id, else by display name),
    cluster, summary, recency, length, the best keyword matches of each thing the query quotes
    in ``facets``, sums of money for a question about spending; penalties for questions, and
    for the assistant's replies when the query does not speak to the assistant) and MMR.
    Every candidate gets its exact cosine, not only the vector top-k: the others' vectors come
    from ``vectors`` (``stored_vectors``, one read for all). ``second``: a second encoder's
    candidates and cosines, one more z-scored signal (w_vector2). ``asker``: the person id of who
    asks a query in the first person ("what did I say…"): their turns that bear on it (relevance
    above the pool's mean) and say something (``dialogue.says_something``: not only "ok",
    "收到", a greeting) get the speaker's bonus; their small talk does not, so it never pushes
    the others' answers out. ``until`` (epoch seconds): only turns said by then are candidates
    or neighbours (a search asked then knows nothing said after). The best ``limit`` are returned
    (all by default); the whole pool is scored either way, on light turn refs: only the turns
    returned are read whole. Filler ("哈哈", "在吗", "[图片]": ``text.filler``) is never a hit,
    and a query that is filler finds none; with ``w_repeats`` the same words said many times are
    one hit, the best-ranked, with the others in its ``also`` (``fusion.once``)."""
    if filler(query):  # "在吗", "hi", "哈哈" ask about nothing: no turn is relevant to them
        return []
    vector2 = second.found if second is not None else []
    found = ([i for found in (lexical, vector, vector2) for i, _ in found]
             + [i for found in facets for i, _ in found[:FACET_DEPTH]])
    # the turns tied to a candidate by a reply are candidates too: an answer that is only
    # "@提问的人 四十" is found through its question (issue 44 §2)
    replies = store.reply_links(found) if settings.w_reply > 0 else {}
    # one read: the candidates, the turns they answer or that answer them, and the turns around
    # the best of them (NEIGHBOUR_REACH)
    refs = store.turn_refs(found + [i for tied in replies.values() for i in tied],
                           radius=max(NEIGHBOUR_REACH),
                           around=[i for i, _ in lexical[:SEEDS] + vector[:SEEDS] + vector2[:SEEDS]])
    if session_id is not None:
        refs = {i: t for i, t in refs.items() if t.session == session_id}
    if until is not None:
        refs = {i: t for i, t in refs.items() if t.epoch <= until}
    if not refs:
        return []
    # the weights of the recipe's preset for this scope (recipe.py): one scope per search
    settings = weights(settings, next(iter(refs.values())).scope_key)
    ids = sorted(refs)  # equal scores keep id order, whatever order a store read them in
    bm25 = dict(lexical)
    cosine = dict(vector)
    signals = [(settings.w_lexical, zscores(np.array([bm25.get(i, 0.0) for i in ids])))]
    if qvec is not None:
        signals.append((settings.w_vector, _cosines(vectors, qvec, cosine, ids)))
    if second is not None:
        signals.append((settings.w_vector2, _cosines(second.vectors, second.qvec, dict(vector2), ids)))
    base = weighted(signals, len(ids))
    ranges = date_ranges(query) + (relative_ranges(query, asked) if asked else [])
    bonus, membership = _bonuses(query, [refs[i] for i in ids], base, clusters, summaries,
                                 cosine, settings, ranges, speakers, asker, replies)
    bonus["facet"] = (settings.w_facet, facet_bonus(ids, facets, FACET_DEPTH))
    final = weighted([(1.0, base), *bonus.values()], len(ids))
    order = best_first(final, best_first(base))
    ranked = list(zip([ids[k] for k in order], final[order].tolist(), strict=True))
    # with L2 windows a turn's vector is its window's: the turns of one window are not repeats
    if settings.w_diversity > 0 and qvec is not None and not settings.window_tokens:
        ranked = _diversify(vectors, ranked, same_topic, settings.w_diversity)
    # laughter, greetings, "在吗" are never a hit: they leave their places to turns that say something
    ranked = [(i, score) for i, score in ranked if not filler(refs[i].content)]
    again: dict[int, list[int]] = {}
    if settings.w_repeats > 0:  # the same words said many times are one hit, the others its sources;
        ranked, again = once(ranked, lambda i: said_key(refs[i].content))  # the same but for numbers give way
        ranked = give_way(ranked, lambda i: said_shape(refs[i].content), settings.w_repeats)
    head = ranked[:limit]
    turns = store.get_turns([j for i, _ in head for j in (i, *again.get(i, ()))])
    position = {i: k for k, i in enumerate(ids)}
    ranks = ({i: r for r, (i, _) in enumerate(lexical, 1)}, {i: r for r, (i, _) in enumerate(vector, 1)})
    return [Scored(turns[i], _squash(score), _why(i, position[i], ranks, cosine, bonus, len(again.get(i, ()))),
                   membership.get(i), tuple(turns[j] for j in again.get(i, ()) if j in turns))
            for i, score in head if i in turns]


def _cosines(vectors: VectorLookup, qvec: np.ndarray, cosine: dict[int, float], ids: list[int]) -> np.ndarray:
    """Every candidate's z-scored cosine with ``qvec``: ``cosine`` (updated in place) holds the
    nearest ones'; the others' vectors are read in one call. One without a vector of this
    encoder yet (not embedded) gets the pool's lowest."""
    found, rows = vectors([i for i in ids if i not in cosine])
    cosine.update(zip(found, (rows @ qvec).tolist(), strict=True))
    pool = [cosine[i] for i in ids if i in cosine]
    floor = min(pool) if pool else 0.0
    return zscores(np.array([cosine.get(i, floor) for i in ids]))


def _diversify(vectors: VectorLookup, ranked: list[tuple[int, float]], same_topic: float,
               weight: float) -> list[tuple[int, float]]:
    """MMR over the head: a turn that repeats a better one (cosine past the embedder's
    same-topic threshold) gives way to other evidence."""
    head = [i for i, _ in ranked[:MMR_DEPTH]]
    found, m = vectors(head)
    if len(found) != len(head) or same_topic >= 1.0:
        return ranked
    return mmr(ranked, np.clip((m @ m.T - same_topic) / (1.0 - same_topic), 0.0, 1.0), weight)


def _bonuses(query: str, refs: list[TurnRef], base: np.ndarray,
             clusters: list[ClusterRecall], summaries: list[tuple[tuple[int, ...], float]],
             cosine: dict[int, float], settings: Settings, ranges: list[tuple[date, date]],
             speakers: frozenset[str] = frozenset(), asker: str | None = None,
             replies: dict[int, list[int]] | None = None,
             ) -> tuple[dict[str, tuple[float, np.ndarray]], dict[int, int]]:
    """Each bonus's weight and per-candidate scores (in ``refs``' order), and the cluster of
    each candidate in one (when clusters were recalled). ``replies``: turn id → the turns a reply
    ties it to (``Store.reply_links``)."""
    n = len(refs)
    recalled = {c.cluster_id: 1.0 - rank / max(len(clusters), 1) for rank, c in enumerate(clusters)}
    membership = {t.id: t.cluster for t in refs if t.cluster is not None} if recalled else {}
    in_cluster = (np.array([recalled.get(membership.get(t.id, -1), 0.0) for t in refs])
                  if membership else np.zeros(n))
    covered: dict[int, float] = {}
    pool = list(cosine.values())
    spread = (max(pool) - min(pool)) if pool else 0.0
    for sources, sim in summaries:
        strength = (sim - min(pool)) / spread if spread > 1e-9 else 0.0
        for turn_id in sources:
            covered[turn_id] = max(covered.get(turn_id, 0.0), min(max(strength, 0.0), 1.0))
    position = {t[1:4]: k for k, t in enumerate(refs)}  # (scope key, session, step) → position
    neighbours = np.array([[position.get((t.scope_key, t.session, t.step + d), -1)
                            for d in NEIGHBOUR_REACH] for t in refs])
    texts = [t.content for t in refs]
    passed = np.maximum(base, 0.0)
    if settings.w_repeats > 0:  # words said n times in the pool pass on 1/n to each one's neighbours:
        words = [said_key(text) for text in texts]  # a line said everywhere makes no place relevant
        copies = Counter(words)
        passed = passed / np.array([copies[k] if k else 1 for k in words])
    # the speaker: a person the query names (any of their names), or for turns without a
    # person id, a display name the query says
    named = mentioned({t.actor for t in refs if t.actor and t.actor_id is None}, query)
    said = (np.array([float(t.actor_id in speakers if t.actor_id is not None else t.actor in named)
                      for t in refs]) if named or speakers else np.zeros(n))
    return {
        "cluster": (settings.w_cluster, in_cluster),
        "summary": (settings.w_summary, np.array([covered.get(t.id, 0.0) for t in refs]) if covered
                    else np.zeros(n)),
        "neighbour": (settings.w_neighbour, neighbour_bonus(passed, neighbours, list(NEIGHBOUR_REACH.values()))),
        "reply": (settings.w_reply, neighbour_bonus(np.maximum(base, 0.0), _tied(refs, replies or {}))),
        "recency": (settings.w_recency, recency(np.array([t.epoch for t in refs]))),
        "speaker": (settings.w_speaker, said),
        "asker": (settings.w_speaker, np.array([float(t.actor_id == asker and says_something(t.content))
                                                for t in refs]) * (base > 0.0)
                  if asker is not None else np.zeros(n)),
        "date": (settings.w_date, near_dates([t.day for t in refs], ranges) if ranges
                 else np.zeros(n)),
        "question": (settings.w_question, -only_asks(texts)),
        "length": (settings.w_length, substance(texts)),
        "money": (settings.w_money, states_money(texts) if asks_money(query) else np.zeros(n)),
        "assistant": (settings.w_assistant, np.zeros(n) if addresses_assistant(query)
                      else -np.array([float(t.role == "assistant") for t in refs])),
    }, membership


def _tied(refs: list[TurnRef], replies: dict[int, list[int]], most: int = 4) -> np.ndarray:
    """Each candidate's reply links as positions in ``refs`` (-1: none), at most ``most``: the
    question an answer answers, the answers to a question (``neighbour_bonus``'s neighbours).

    >>> from pmemo.stores.base import TurnRef
    >>> refs = [TurnRef(i, "k", "s", i, None, 0.0, None, "", "user", None, None) for i in (5, 6, 9)]
    >>> _tied(refs, {5: [9], 9: [5, 44]}).tolist()
    [[2], [-1], [0]]
    """
    position = {t.id: k for k, t in enumerate(refs)}
    rows = [[position[i] for i in replies.get(t.id, ()) if i in position][:most] for t in refs]
    width = max((len(r) for r in rows), default=0)
    return np.array([r + [-1] * (width - len(r)) for r in rows], dtype=np.intp).reshape(len(refs), width)


def _squash(score: float) -> float:
    """A 0..1 display score (logistic of the fused z-score sum); the ranking is unchanged."""
    return 1.0 / (1.0 + math.exp(-max(min(score, 30.0), -30.0)))


def _why(turn_id: int, position: int, ranks: tuple[dict[int, int], dict[int, int]],
         cosine: dict[int, float], bonus: dict[str, tuple[float, np.ndarray]], repeats: int = 0) -> str:
    lex_rank, vec_rank = ranks[0].get(turn_id), ranks[1].get(turn_id)
    why = []
    if lex_rank:
        why.append(f"keywords (bm25 rank {lex_rank})")
    if turn_id in cosine:
        why.append(f"meaning (cosine {cosine[turn_id]:.3f}" + (f", rank {vec_rank})" if vec_rank else ")"))
    for name, text in (("cluster", "in a recalled cluster"), ("summary", "covered by a matching summary"),
                       ("neighbour", "next to a strong match"), ("asker", "said by the asker"),
                       ("reply", "a reply ties it to a strong match")):
        if bonus[name][1][position] > 0.5:
            why.append(text)
    if repeats:
        why.append(f"said {repeats + 1} times")
    return "; ".join(why)
