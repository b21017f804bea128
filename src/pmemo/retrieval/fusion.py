"""Score fusion (pure): per-candidate signals → one order-stable ranking.

Equal scores keep the order given (best_first). Per-candidate signals are arrays, one
score per position: a search weighs a few hundred candidates and dicts of them cost more
than the arithmetic.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)


def weighted(signals: Sequence[tuple[float, np.ndarray]], size: int) -> np.ndarray:
    """Weighted sum of already-normalised signals, each one score per candidate position.

    >>> weighted([(1.0, np.array([0.5, 1.0])), (2.0, np.array([1.0, 0.0]))], 2).tolist()
    [2.5, 1.0]
    """
    total = np.zeros(size)
    for weight, signal in signals:
        total = total + weight * np.asarray(signal, dtype=float)
    return total


def best_first(scores: np.ndarray, ties: np.ndarray | None = None) -> np.ndarray:
    """Candidate positions by score, best first; equal scores keep their order in ``ties``
    (a permutation of the positions; by default position order).

    >>> best_first(np.array([0.2, 0.9, 0.2])).tolist()
    [1, 0, 2]
    >>> best_first(np.array([0.2, 0.9, 0.2]), np.array([2, 1, 0])).tolist()
    [1, 2, 0]
    """
    values = np.asarray(scores, dtype=float)
    order = np.arange(len(values)) if ties is None else np.asarray(ties, dtype=np.intp)
    return order[np.argsort(-values[order], kind="stable")]


def mmr(ranked: Sequence[tuple[K, float]], redundancy: np.ndarray, weight: float,
        ) -> list[tuple[K, float]]:
    """Maximal marginal relevance over the head of ``ranked``: each next pick is the item
    whose score minus ``weight`` × its redundancy with an earlier pick (``redundancy[i, j]``
    in 0..1, for the first ``len(redundancy)`` items) is best, so near-repeats of one line
    make room for other evidence. A head item's score becomes that marginal score, and the
    tail's are capped below the head's last, so the list stays sorted by score.

    >>> same = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1]], dtype=float)
    >>> mmr([("a1", 3.0), ("a2", 2.9), ("b1", 2.5)], same, 1.0)
    [('a1', 3.0), ('b1', 2.5), ('a2', 1.9)]
    """
    depth = min(len(redundancy), len(ranked))
    scores = np.array([score for _, score in ranked[:depth]], dtype=float)
    worst = np.zeros(depth)  # each item's redundancy with what is already picked
    left = np.ones(depth, dtype=bool)
    out: list[tuple[K, float]] = []
    for _ in range(depth):
        marginal = np.where(left, scores - weight * worst, -np.inf)
        pick = int(np.argmax(marginal))
        out.append((ranked[pick][0], float(marginal[pick])))
        left[pick] = False
        worst = np.maximum(worst, redundancy[pick, :depth])
    floor = out[-1][1] if out else np.inf
    return out + [(key, min(score, floor)) for key, score in ranked[depth:]]
