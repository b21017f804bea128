"""Hit-count decay: hits lose half their weight every half-life, so stale interest fades.

>>> decayed(8.0, 86400.0, 86400.0)
4.0
"""

from __future__ import annotations


def decayed(value: float, elapsed_s: float, half_life_s: float) -> float:
    """``value`` after ``elapsed_s`` seconds; monotone non-increasing in elapsed time."""
    if half_life_s <= 0:
        return value
    return value * 0.5 ** (max(elapsed_s, 0.0) / half_life_s)
