"""How many cores other processes keep busy: read from /proc/stat, so Linux only.

The e5 engine splits one query over all cores, and its threads meet ~100 times per query.
Each time, all threads must be running at once. When another process holds a core, the
engine waits at every meeting, and one thread does better (see ``e5.py``). Processes
that run under ``nice`` give their core back at once, so their time is not counted.

>>> readings = iter([(1000, 100), (1200, 200), (1400, 250)])  # (all, busy) jiffies
>>> own = iter([0.0, 0.5, 1.0])  # this process's CPU seconds: 50 jiffies each time
>>> c = Contention(window=0.0, read=readings.__next__, own=own.__next__, ticks=100)
>>> c.others() is None, c.others(), c.others()
(True, 0.25, 0.0)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # jiffies a second
Reading = tuple[int, int]  # (jiffies in all, jiffies busy at full priority)


def read_proc_stat(path: str = "/proc/stat") -> Reading:
    """All CPU time and the busy time at full priority so far, in jiffies, summed over cores.

    The ``cpu`` line reads: user nice system idle iowait irq softirq steal. Steal counts
    as busy (a neighbour on the host has the core); nice does not.
    """
    with open(path, "rb") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    user, _nice, system, _idle, _iowait, irq, softirq, steal = fields
    return sum(fields), user + system + irq + softirq + steal


def own_cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system


class Contention:
    """The share of all CPU time that other processes used at full priority since the last
    reading (readings at least ``window`` seconds apart; one in between repeats the last)."""

    def __init__(self, window: float = 0.25, read: Callable[[], Reading] = read_proc_stat,
                 own: Callable[[], float] = own_cpu_seconds,
                 clock: Callable[[], float] = time.monotonic, ticks: int = TICKS) -> None:
        self.window, self.ticks = window, ticks
        self._read, self._own, self._clock = read, own, clock
        self._at: float | None = None
        self._prev: tuple[int, int, float] = (0, 0, 0.0)
        self._last: float | None = None

    def others(self) -> float | None:
        """0.0 (nobody else) to 1.0 (every core); None before the first interval or where
        /proc/stat cannot be read."""
        now = self._clock()
        if self._at is not None and now - self._at < self.window:
            return self._last
        try:
            total, busy = self._read()
        except (OSError, ValueError):
            return None
        own = self._own()
        if self._at is not None:
            d_total, d_busy = total - self._prev[0], busy - self._prev[1]
            d_own = (own - self._prev[2]) * self.ticks
            self._last = min(1.0, max(0.0, d_busy - d_own) / d_total) if d_total > 0 else 0.0
        self._at, self._prev = now, (total, busy, own)
        return self._last
