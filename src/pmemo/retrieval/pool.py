"""Fusion of a candidate pool (pure): z-scored lexical and vector evidence plus bonuses, best first.

The pool is every candidate of the keyword and vector searches, the turns a reply ties them to,
and the turns around the strongest (``ReadPlanStore.turn_pool``: one read, light turn refs with
their reply links, vectors and sessions' last steps). ``rank`` weighs it all without a turn read
whole; the best are read with whatever else a context shows (``scored`` then makes them hits).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from ..config import Settings
from ..models import Turn
from ..stores.base import TurnPool, TurnRef
from ..text.dates import date_ranges, relative_ranges
from ..text.dialogue import says_something
from ..text.filler import filler, said_key, said_shape
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

FACET_DEPTH = 3  # a quoted thing's best keyword matches that get its bonus
MMR_DEPTH = 40
SEEDS = 20  # the strongest candidates of each retriever, whose neighbouring turns join the pool
# what a candidate passes on to the turns 1 and 2 steps before and after it: a fact is often
# told over a question, its answer and a follow-up ("anywhere you'd recommend?" → "Barcelona!"
# → "We loved the Sagrada Familia.")
NEIGHBOUR_REACH = {-1: 1.0, 1: 1.0, -2: 0.8, 2: 0.8}
# turn ids → (the ids found, their vectors as rows): ``search.stored_vectors``, ``pooled_vectors``
VectorLookup = Callable[[list[int]], tuple[list[int], np.ndarray]]
Found = list[tuple[int, float]]
Bonus = dict[str, tuple[float, np.ndarray]]


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
    found: Found
    vectors: VectorLookup


@dataclass(frozen=True)
class ClusterRecall:
    cluster_id: int
    similarity: float


@dataclass(frozen=True)
class Evidence:
    """What the query found, the pool's seeds: each channel's candidates, best first."""

    lexical: Found
    vector: Found
    clusters: list[ClusterRecall]
    summaries: list[tuple[tuple[int, ...], float]]  # (source turn ids, cosine) of the matching summaries
    facets: Sequence[Found] = ()
    second: Dense | None = None


@dataclass(frozen=True)
class Asked:
    """Who asks what, and when: what ranks the pool besides the evidence."""

    query: str
    qvec: np.ndarray | None
    asked: date | None = None
    speakers: frozenset[str] = frozenset()
    asker: str | None = None
    session_id: str | None = None
    until: float | None = None


@dataclass(frozen=True)
class Ranked:
    """The best of a pool, not read yet: (turn id, fused score), the turns each stands for
    (``fusion.once``), why each ranks, and the cluster of each candidate in a recalled one."""

    head: Found
    again: dict[int, list[int]]
    why: dict[int, str]
    membership: dict[int, int]


NOTHING = Ranked([], {}, {}, {})


def seeds(e: Evidence) -> tuple[list[int], list[int]]:
    """The pool's candidates (every channel's, each facet's best) and the strongest, whose
    neighbouring turns join it."""
    vector2 = e.second.found if e.second is not None else []
    found = ([i for found in (e.lexical, e.vector, vector2) for i, _ in found]
             + [i for found in e.facets for i, _ in found[:FACET_DEPTH]])
    return found, [i for i, _ in e.lexical[:SEEDS] + e.vector[:SEEDS] + vector2[:SEEDS]]


def pooled_vectors(pool: TurnPool, dim: int) -> VectorLookup:
    """``search.stored_vectors`` over the vectors a pool read brought (of ``dim``, a query's)."""

    def lookup(refs: list[int]) -> tuple[list[int], np.ndarray]:
        found = [(ref, vec) for ref in refs if (vec := pool.vectors.get(ref)) is not None and len(vec) == dim]
        rows = np.stack([vec for _, vec in found]) if found else np.zeros((0, dim), dtype=np.float32)
        return [ref for ref, _ in found], rows

    return lookup


def rank(pool: TurnPool, vectors: VectorLookup, e: Evidence, a: Asked, settings: Settings,
         same_topic: float = 0.9, limit: int | None = None, diverse: VectorLookup | None = None) -> Ranked:
    """The best ``limit`` of the pool (all by default). Every candidate gets its exact cosine,
    not only the vector top-k: the others' vectors come from ``vectors`` (``diverse``: the
    lookup MMR reads the head's from, the nearest ones' included; ``vectors`` by default). ``e.second``: a second
    encoder's candidates and cosines, one more z-scored signal (w_vector2). With ``a.session_id``
    only that session's turns rank, with ``a.until`` only those said by then. Filler ("哈哈",
    "在吗", "[图片]": ``text.filler``) is never a hit, and a query that is filler finds none; with
    ``w_repeats`` the same words said many times are one hit, the best-ranked, with the others
    in its ``again`` (``fusion.once``). The bonuses are ``bonuses``'."""
    refs = {i: t for i, t in pool.refs.items() if (a.session_id is None or t.session == a.session_id)
            and (a.until is None or t.epoch <= a.until)}
    if filler(a.query) or not refs:  # "在吗", "hi", "哈哈" ask about nothing: no turn is relevant to them
        return NOTHING
    # the weights of the recipe's preset for this scope (recipe.py): one scope per search
    settings = weights(settings, next(iter(refs.values())).scope_key)
    ids = sorted(refs)  # equal scores keep id order, whatever order a store read them in
    cosine = dict(e.vector)
    base = _base(vectors, e, a, settings, cosine, ids)
    found, _ = seeds(e)
    replies = {i: pool.links[i] for i in dict.fromkeys(found) if i in pool.links} if settings.w_reply > 0 else {}
    bonus, membership = bonuses(a, [refs[i] for i in ids], base, e, cosine, settings, replies)
    bonus["facet"] = (settings.w_facet, facet_bonus(ids, e.facets, FACET_DEPTH))
    final = weighted([(1.0, base), *bonus.values()], len(ids))
    order = best_first(final, best_first(base))
    ranked = list(zip([ids[k] for k in order], final[order].tolist(), strict=True))
    # with L2 windows a turn's vector is its window's: the turns of one window are not repeats
    if settings.w_diversity > 0 and a.qvec is not None and not settings.window_tokens:
        ranked = _diversify(diverse or vectors, ranked, same_topic, settings.w_diversity)
    ranked, again = _said_once(ranked, refs, settings)
    head = ranked[:limit]
    position = {i: k for k, i in enumerate(ids)}
    ranks = ({i: r for r, (i, _) in enumerate(e.lexical, 1)}, {i: r for r, (i, _) in enumerate(e.vector, 1)})
    return Ranked(head, again, {i: _why(i, position[i], ranks, cosine, bonus, len(again.get(i, ()))) for i, _ in head},
                  membership)


def _base(vectors: VectorLookup, e: Evidence, a: Asked, settings: Settings, cosine: dict[int, float],
          ids: list[int]) -> np.ndarray:
    """The weighted z-scores of the keyword and vector evidence (``cosine`` gets every candidate's)."""
    bm25 = dict(e.lexical)
    signals = [(settings.w_lexical, zscores(np.array([bm25.get(i, 0.0) for i in ids])))]
    if a.qvec is not None:
        signals.append((settings.w_vector, _cosines(vectors, a.qvec, cosine, ids)))
    if e.second is not None:
        signals.append((settings.w_vector2, _cosines(e.second.vectors, e.second.qvec, dict(e.second.found), ids)))
    return weighted(signals, len(ids))


def _said_once(ranked: Found, refs: Mapping[int, TurnRef], settings: Settings) -> tuple[Found, dict[int, list[int]]]:
    """``ranked`` without filler (laughter, greetings, "在吗" leave their places to turns that say
    something) and, with ``w_repeats``, the same words said many times as one (the others its
    ``again``; the same but for numbers give way)."""
    ranked = [(i, score) for i, score in ranked if not filler(refs[i].content)]
    if settings.w_repeats <= 0:
        return ranked, {}
    ranked, again = once(ranked, lambda i: said_key(refs[i].content))
    return give_way(ranked, lambda i: said_shape(refs[i].content), settings.w_repeats), again


def scored(ranked: Ranked, turns: Mapping[int, Turn]) -> list[Scored]:
    """The ranked head as hits to be: each with its turn and the turns it stands for, read."""
    return [Scored(turns[i], _squash(score), ranked.why[i], ranked.membership.get(i),
                   tuple(turns[j] for j in ranked.again.get(i, ()) if j in turns))
            for i, score in ranked.head if i in turns]


def wanted(ranked: Ranked) -> list[int]:
    """The turns ``scored`` reads: the head's, and those each stands for."""
    return [j for i, _ in ranked.head for j in (i, *ranked.again.get(i, ()))]


def _cosines(vectors: VectorLookup, qvec: np.ndarray, cosine: dict[int, float], ids: list[int]) -> np.ndarray:
    """Every candidate's z-scored cosine with ``qvec``: ``cosine`` (updated in place) holds the
    nearest ones'; the others' vectors are read in one call. One without a vector of this
    encoder yet (not embedded) gets the pool's lowest."""
    found, rows = vectors([i for i in ids if i not in cosine])
    cosine.update(zip(found, (rows @ qvec).tolist(), strict=True))
    pool = [cosine[i] for i in ids if i in cosine]
    floor = min(pool) if pool else 0.0
    return zscores(np.array([cosine.get(i, floor) for i in ids]))


def _diversify(vectors: VectorLookup, ranked: Found, same_topic: float, weight: float) -> Found:
    """MMR over the head: a turn that repeats a better one (cosine past the embedder's
    same-topic threshold) gives way to other evidence."""
    head = [i for i, _ in ranked[:MMR_DEPTH]]
    found, m = vectors(head)
    if len(found) != len(head) or same_topic >= 1.0:
        return ranked
    return mmr(ranked, np.clip((m @ m.T - same_topic) / (1.0 - same_topic), 0.0, 1.0), weight)


def bonuses(a: Asked, refs: list[TurnRef], base: np.ndarray, e: Evidence, cosine: dict[int, float],
            settings: Settings, replies: dict[int, list[int]]) -> tuple[Bonus, dict[int, int]]:
    """Each bonus's weight and per-candidate scores (in ``refs``' order), and the cluster of
    each candidate in one (when clusters were recalled): neighbour, reply (``replies``: turn id →
    the turns a reply ties it to), speaker (turns said by the people the query names,
    ``a.speakers`` by person id, else by display name), asker (their own turns that bear on a
    query in the first person and say something: ``dialogue.says_something``), date (the dates
    the query names, and its relative ones read from the day it is ``a.asked``), cluster,
    summary, recency, length, sums of money for a question about spending; penalties for
    questions, and for the assistant's replies when the query does not speak to the assistant."""
    n, texts = len(refs), [t.content for t in refs]
    in_cluster, membership = _in_clusters(refs, e.clusters)
    ranges = date_ranges(a.query) + (relative_ranges(a.query, a.asked) if a.asked else [])
    return {
        "cluster": (settings.w_cluster, in_cluster),
        "summary": (settings.w_summary, _covered(refs, e.summaries, cosine)),
        "neighbour": (settings.w_neighbour, _neighbours(refs, base, texts, settings)),
        "reply": (settings.w_reply, neighbour_bonus(np.maximum(base, 0.0), _tied(refs, replies))),
        "recency": (settings.w_recency, recency(np.array([t.epoch for t in refs]))),
        "speaker": (settings.w_speaker, _said_by_named(refs, a)),
        "asker": (settings.w_speaker, np.array([float(t.actor_id == a.asker and says_something(t.content))
                                                for t in refs]) * (base > 0.0)
                  if a.asker is not None else np.zeros(n)),
        "date": (settings.w_date, near_dates([t.day for t in refs], ranges) if ranges else np.zeros(n)),
        "question": (settings.w_question, -only_asks(texts)),
        "length": (settings.w_length, substance(texts)),
        "money": (settings.w_money, states_money(texts) if asks_money(a.query) else np.zeros(n)),
        "assistant": (settings.w_assistant, np.zeros(n) if addresses_assistant(a.query)
                      else -np.array([float(t.role == "assistant") for t in refs])),
    }, membership


def _in_clusters(refs: list[TurnRef], clusters: list[ClusterRecall]) -> tuple[np.ndarray, dict[int, int]]:
    """Each candidate's recalled cluster's rank bonus, and the cluster of each one in one."""
    recalled = {c.cluster_id: 1.0 - rank / max(len(clusters), 1) for rank, c in enumerate(clusters)}
    membership = {t.id: t.cluster for t in refs if t.cluster is not None} if recalled else {}
    in_cluster = (np.array([recalled.get(membership.get(t.id, -1), 0.0) for t in refs])
                  if membership else np.zeros(len(refs)))
    return in_cluster, membership


def _covered(refs: list[TurnRef], summaries: list[tuple[tuple[int, ...], float]],
             cosine: dict[int, float]) -> np.ndarray:
    """How strongly a matching summary covers each candidate (its cosine on the pool's scale)."""
    covered: dict[int, float] = {}
    pool = list(cosine.values())
    spread = (max(pool) - min(pool)) if pool else 0.0
    for sources, sim in summaries:
        strength = (sim - min(pool)) / spread if spread > 1e-9 else 0.0
        for turn_id in sources:
            covered[turn_id] = max(covered.get(turn_id, 0.0), min(max(strength, 0.0), 1.0))
    return np.array([covered.get(t.id, 0.0) for t in refs]) if covered else np.zeros(len(refs))


def _neighbours(refs: list[TurnRef], base: np.ndarray, texts: list[str], settings: Settings) -> np.ndarray:
    """What each candidate's neighbours pass on to it (``NEIGHBOUR_REACH``): words said n times
    in the pool pass on 1/n to each one's neighbours (a line said everywhere makes no place relevant)."""
    position = {t[1:4]: k for k, t in enumerate(refs)}  # (scope key, session, step) → position
    neighbours = np.array([[position.get((t.scope_key, t.session, t.step + d), -1)
                            for d in NEIGHBOUR_REACH] for t in refs])
    passed = np.maximum(base, 0.0)
    if settings.w_repeats > 0:
        words = [said_key(text) for text in texts]
        copies = Counter(words)
        passed = passed / np.array([copies[k] if k else 1 for k in words])
    return neighbour_bonus(passed, neighbours, list(NEIGHBOUR_REACH.values()))


def _said_by_named(refs: list[TurnRef], a: Asked) -> np.ndarray:
    """The speaker: a person the query names (any of their names), or for turns without a
    person id, a display name the query says."""
    named = mentioned({t.actor for t in refs if t.actor and t.actor_id is None}, a.query)
    if not (named or a.speakers):
        return np.zeros(len(refs))
    return np.array([float(t.actor_id in a.speakers if t.actor_id is not None else t.actor in named) for t in refs])


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
         cosine: dict[int, float], bonus: Bonus, repeats: int = 0) -> str:
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
