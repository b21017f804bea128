"""Turn retrieval's candidates: lexical (FTS5 bm25) and vector (``pool`` fuses them). The vector
searches of a retrieval are made in one read (``Retriever._by_meaning``); the helpers here read
more of them, for a query asked ``until`` a time (``said_by_nearest``), and the second encoder's."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..models import Scope
from ..stores import parts
from ..stores.base import Store, TurnStore, VectorStore
from ..text.segment import term_counts
from .pool import Dense, VectorLookup

POOL = 100  # candidates per retriever
QTF_CAP = 8  # a word said more often still counts 8 times: bounds a pasted text's keyword query


def lexical(store: Store, scope: Scope, query: str, session_id: str | None,
            qtf: float = 1.0, until: float | None = None) -> list[tuple[int, float]]:
    """Keyword candidates: bm25 over the query's content words (``keyword_terms``); with
    ``until`` (epoch seconds), of the turns said by then."""
    return store.turns.lexical(scope, keyword_terms(query, qtf), POOL, session_id, until)


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
        when = store.turns.turn_times(i for i, _ in part)
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
        return store.vectors.nearest("turn2", scope.key, qvec, n, model)

    found = nearest(k) if until is None else said_by_nearest(store, nearest, k, until)
    return Dense(qvec, found, stored_vectors(store, "turn2", len(qvec)))


def stored_vectors(store: VectorStore, kind: str, dim: int) -> VectorLookup:
    """The stored vectors of ids of one ``kind``, as rows of ``dim`` (a query's): one left
    by an earlier embedder of another size, not embedded again yet, counts as missing."""

    def lookup(refs: list[int]) -> tuple[list[int], np.ndarray]:
        found = [(ref, vec) for ref, vec in store.vectors.get_vectors(kind, refs).items() if len(vec) == dim]
        rows = np.stack([vec for _, vec in found]) if found else np.zeros((0, dim), dtype=np.float32)
        return [ref for ref, _ in found], rows

    return lookup
