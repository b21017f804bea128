"""Memory strength (pure): how much a record still counts, from its age, importance and use.

    strength = max(floor, 0.5 ** (age / half_life'))
    half_life' = half_life * (1 + importance) * (1 + log1p(access_count) / 2)
    floor      = decay_floor * importance

Age is measured in conversation time (the newest turn of the scope, not the wall clock),
so a memory does not fade while nobody talks. Strength only ever *lowers* a score; the
sweeper, not the read path, decides what goes.

>>> strength(0.0, 0.5, 0)
1.0
>>> round(strength(90 * 86400, 0.0, 0), 3)
0.5
>>> strength(10**12, 0.8, 0) == 0.5 * 0.8
True
"""

from __future__ import annotations

import math

DAY = 86400.0


def strength(
    age_s: float,
    importance: float,
    access_count: int,
    half_life_days: float = 90.0,
    floor: float = 0.5,
) -> float:
    """0..1; non-increasing in age, non-decreasing in importance and access count."""
    importance = min(max(importance, 0.0), 1.0)
    if half_life_days <= 0:
        return 1.0
    half_life = (
        half_life_days * DAY * (1.0 + importance) * (1.0 + math.log1p(max(access_count, 0)) / 2)
    )
    raw = 0.5 ** (max(age_s, 0.0) / half_life)
    return max(min(max(floor, 0.0), 1.0) * importance, raw)


def recency(age_s: float, half_life_days: float) -> float:
    """1 now, 0.5 one half-life ago (conversation time); 1.0 when decay is off."""
    if half_life_days <= 0:
        return 1.0
    return 0.5 ** (max(age_s, 0.0) / (half_life_days * DAY))


def weighted_score(
    similarity: float,
    recency_: float,
    importance: float,
    weights: tuple[float, float, float] = (0.5, 0.3, 0.2),
) -> float:
    """The episodic score: similarity*0.5 + recency*0.3 + importance*0.2 by default."""
    w_sim, w_rec, w_imp = weights
    return w_sim * similarity + w_rec * recency_ + w_imp * importance
