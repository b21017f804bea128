"""Turn retrieval: lexical (FTS5 bm25) and vector candidates, cluster recall, fused."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import numpy as np

from ..config import Settings
from ..models import Scope, Turn
from ..stores.base import Store
from ..text.segment import query_terms
from .fusion import max_normalised, weighted
from .signals import above_floor, neighbour_bonus, recency
from .vector_index import VectorIndex

POOL = 100  # candidates per retriever


@dataclass(frozen=True)
class Scored:
    turn: Turn
    score: float
    why: str


@dataclass(frozen=True)
class ClusterRecall:
    cluster_id: int
    similarity: float


async def candidates(store: Store, index: VectorIndex, scope: Scope, query: str,
                     qvec: np.ndarray | None, settings: Settings, session_id: str | None,
                     cluster_floor: float = 0.0) -> tuple[list[tuple[int, float]], list[tuple[int, float]], list[ClusterRecall]]:
    """The three tier reads, run concurrently."""
    terms = list(query_terms(query))
    lexical = asyncio.to_thread(store.lexical, scope, terms, POOL, session_id)
    if qvec is None:
        return await lexical, [], []
    vector = asyncio.to_thread(index.search, scope.key, qvec, POOL if session_id is None else POOL * 5)
    clusters = asyncio.to_thread(recall_clusters, store, scope, qvec, settings.top_k_clusters,
                                 cluster_floor)
    return await asyncio.gather(lexical, vector, clusters)


def recall_clusters(store: Store, scope: Scope, qvec: np.ndarray, k: int,
                    floor: float = 0.0) -> list[ClusterRecall]:
    """Top-k clusters by centroid similarity; only ones at least ``floor`` similar count."""
    ids, centroids, _ = store.centroids(scope)
    if not ids or centroids.shape[1] != qvec.shape[0]:
        return []
    sims = centroids @ qvec
    top = np.argsort(-sims, kind="stable")[:k]
    return [ClusterRecall(ids[int(i)], float(sims[int(i)])) for i in top if sims[int(i)] >= floor]


def fuse(store: Store, lexical: list[tuple[int, float]], vector: list[tuple[int, float]],
         clusters: list[ClusterRecall], settings: Settings, session_id: str | None) -> list[Scored]:
    """Weighted fusion of lexical, vector, recency, cluster and neighbour signals."""
    lex = max_normalised(dict(lexical))
    vec = above_floor(dict(vector))
    recalled = {c.cluster_id: 1.0 - rank / max(len(clusters), 1) for rank, c in enumerate(clusters)}
    membership = store.cluster_of([*lex, *vec]) if recalled else {}
    in_cluster = {t: recalled[c] for t, c in membership.items() if c in recalled}
    turns = store.get_turns([*lex, *vec])
    if session_id is not None:
        turns = {i: t for i, t in turns.items() if t.session_id == session_id}
    ids = list(turns)
    base = dict(weighted([
        (settings.w_lexical, {i: lex.get(i, 0.0) for i in ids}),
        (settings.w_vector, {i: vec.get(i, 0.0) for i in ids}),
        (settings.w_recency, recency({i: turns[i].timestamp.timestamp() for i in ids})),
        (0.05, {i: in_cluster.get(i, 0.0) for i in ids}),
    ]))
    position = {(t.scope.key, t.session_id, t.step): i for i, t in turns.items()}
    neighbours = {
        i: [n for n in (position.get((t.scope.key, t.session_id, t.step + d)) for d in (-1, 1)) if n]
        for i, t in turns.items()
    }
    bonus = neighbour_bonus(base, neighbours)
    final = weighted([(1.0, base), (settings.w_neighbour, bonus)])
    lex_rank = {i: r for r, (i, _) in enumerate(lexical, 1)}
    vec_rank = {i: r for r, (i, _) in enumerate(vector, 1)}
    vec_raw = dict(vector)
    out = []
    for turn_id, score in final:
        why = []
        if turn_id in lex_rank:
            why.append(f"keywords (bm25 rank {lex_rank[turn_id]})")
        if turn_id in vec_rank:
            why.append(f"meaning (cosine {vec_raw[turn_id]:.3f}, rank {vec_rank[turn_id]})")
        if turn_id in in_cluster:
            why.append("in a recalled cluster")
        if bonus.get(turn_id, 0.0) > 0.5:
            why.append("next to a strong match")
        out.append(Scored(turns[turn_id], score, "; ".join(why)))
    return out
