"""Score fusion (pure): per-candidate signals → one order-stable ranking.

Equal scores keep the order given (best_first). Per-candidate signals are arrays, one
score per position: a search weighs a few hundred candidates and dicts of them cost more
than the arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
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


def once(ranked: Sequence[tuple[K, float]], key: Callable[[K], str | None],
         ) -> tuple[list[tuple[K, float]], dict[K, list[K]]]:
    """``ranked`` with each set of items of the same ``key`` (the same words said again) as its
    best-ranked item, and that item's repeats (ranked lower, in order); an item whose key is
    None or empty is its own. The same words said many times are one hit: five copies of one
    question must not take five of a search's five places.

    >>> once([(1, 3.0), (2, 2.0), (3, 1.5), (4, 1.0)], {1: "a", 2: "b", 3: "a", 4: ""}.get)
    ([(1, 3.0), (2, 2.0), (4, 1.0)], {1: [3]})
    """
    first: dict[str, K] = {}
    out: list[tuple[K, float]] = []
    repeats: dict[K, list[K]] = {}
    for item, score in ranked:
        said = key(item)
        if said and said in first:
            repeats.setdefault(first[said], []).append(item)
            continue
        if said:
            first[said] = item
        out.append((item, score))
    return out, repeats


def give_way(ranked: Sequence[tuple[K, float]], shape: Callable[[K], str | None], penalty: float,
             ) -> list[tuple[K, float]]:
    """``ranked`` (best first) with each item whose ``shape`` an earlier item has (the same
    words but for their numbers: "AA一下，每人6块" after "AA一下，每人12块", a daily "打卡 今日学习4小时")
    scored ``penalty`` lower, and the list sorted again (equal scores keep their order). One
    routine line with a new number each time takes one of the best places, not all of them; the
    others stay in the list, below.

    >>> give_way([("a6", 3.0), ("a12", 2.9), ("q", 2.5), ("a8", 2.4)], {"a6": "a#", "a12": "a#", "a8": "a#"}.get, 1.0)
    [('a6', 3.0), ('q', 2.5), ('a12', 1.9), ('a8', 1.4)]
    """
    seen: set[str] = set()
    scored: list[tuple[K, float]] = []
    for item, score in ranked:
        form = shape(item)
        scored.append((item, score - penalty if form and form in seen else score))
        if form:
            seen.add(form)
    order = best_first(np.array([score for _, score in scored], dtype=float))
    return [scored[i] for i in order]
