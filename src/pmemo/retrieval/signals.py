"""Turning raw retrieval scores into comparable 0..1 signals (pure)."""

from __future__ import annotations

from typing import Mapping, TypeVar

K = TypeVar("K")


def above_floor(scores: Mapping[K, float]) -> dict[K, float]:
    """Cosines rescaled so the weakest candidate is 0 and the best 1.

    Embedding cosines sit in a narrow high band (e5: 0.75-0.9), so the raw value says
    little; the distance above the weakest retrieved candidate is what separates them.
    """
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    span = high - low
    if span <= 1e-9:
        return {key: 1.0 for key in scores}
    return {key: (value - low) / span for key, value in scores.items()}


def recency(times: Mapping[K, float]) -> dict[K, float]:
    """Newest candidate 1, oldest 0 (conversation time, not wall-clock)."""
    return above_floor(times)


def neighbour_bonus(scores: Mapping[K, float], neighbours: Mapping[K, list[K]]) -> dict[K, float]:
    """Each candidate's best neighbouring candidate's score: context often spans adjacent turns."""
    return {key: max((scores.get(n, 0.0) for n in neighbours.get(key, [])), default=0.0)
            for key in scores}
