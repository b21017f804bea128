"""Decay (pure): every half-life in pmemo, in one place.

One curve, ``value * 0.5 ** (elapsed / half_life)``, read three ways:

* ``decayed``  — a cluster's hit count fades between hits, so stale interest does not
  promote a key line (``hit_half_life_days``);
* ``recency``  — how recent an episode is, 1 now and 0.5 one half-life ago
  (``episode_recency_half_life_days``);
* ``strength`` — how much a long-term record still counts, its half-life stretched by
  importance and use, with a floor (``decay_half_life_days``, ``decay_floor``):

      strength   = max(floor, 0.5 ** (age / half_life'))
      half_life' = half_life * (1 + importance) * (1 + log1p(access_count) / 2)
      floor      = decay_floor * importance

Ages are measured in conversation time (the newest turn of the scope, not the wall clock),
so a memory does not fade while nobody talks. Decay only ever *lowers* a score; the
sweeper, not the read path, decides what goes. A half-life of 0 or less turns decay off.

This module sits beside ``models`` rather than in ``forgetting/``: the tiers (hits,
episodes) and the forgetting sweeper both use it, and forgetting builds on the tiers.

>>> decayed(8.0, 86400.0, 86400.0)
4.0
>>> strength(0.0, 0.5, 0)
1.0
>>> round(strength(90 * 86400, 0.0, 0), 3)
0.5
>>> strength(10**12, 0.8, 0) == 0.5 * 0.8
True
>>> recency(30 * 86400, 30)
0.5
"""

from __future__ import annotations

import math

DAY = 86400.0


def decayed(value: float, elapsed_s: float, half_life_s: float) -> float:
    """``value`` after ``elapsed_s`` seconds; monotone non-increasing in elapsed time.

    >>> decayed(3.0, -5.0, 10.0), decayed(3.0, 1e9, 0.0)
    (3.0, 3.0)
    """
    if half_life_s <= 0:
        return value
    return value * 0.5 ** (max(elapsed_s, 0.0) / half_life_s)


def recency(age_s: float, half_life_days: float) -> float:
    """1 now, 0.5 one half-life ago (conversation time); 1.0 when decay is off."""
    return decayed(1.0, age_s, half_life_days * DAY)


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
    return max(min(max(floor, 0.0), 1.0) * importance, decayed(1.0, age_s, half_life))
