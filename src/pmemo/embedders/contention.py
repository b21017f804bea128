"""How busy the cores are at this process's priority: read from /proc/stat, so Linux only.

The e5 engine splits one query over all cores, and its threads meet ~100 times per query.
Each time, all threads must be running at once. When anything else holds a core, the engine
waits at every meeting, and one thread does better (see ``e5.py``). "Anything else" is this
process's own threads too (a background batch, other reads: on two cores a query beside one
busy Python thread of its own took p50 400-550 ms on two threads and 38-42 ms on one), and
niced processes when this process is niced itself (a niced process gives its core back only to
one that is not). So the busy time counted is every process's at full priority, this one's
included, plus the niced time when this process runs under nice.

>>> readings = iter([(1000, 100), (1200, 200), (1400, 200)])  # (all, busy) jiffies
>>> c = Contention(window=0.0, read=readings.__next__)
>>> c.busy() is None, c.busy(), c.busy()
(True, 0.5, 0.0)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

Reading = tuple[int, int]  # (jiffies in all, jiffies busy)


def niced() -> bool:
    """Whether this process runs under ``nice`` (a positive niceness)."""
    try:
        return os.getpriority(os.PRIO_PROCESS, 0) > 0
    except (AttributeError, OSError):
        return False


def read_proc_stat(path: str = "/proc/stat", count_nice: bool = False) -> Reading:
    """All CPU time and the busy time so far, in jiffies, summed over cores.

    The ``cpu`` line reads: user nice system idle iowait irq softirq steal. Steal counts
    as busy (a neighbour on the host has the core); nice only with ``count_nice``.
    """
    with open(path, "rb") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return sum(fields), user + system + irq + softirq + steal + (nice if count_nice else 0)


def read_at_our_priority() -> Reading:
    """``read_proc_stat``, counting niced time when this process is niced itself."""
    return read_proc_stat(count_nice=niced())


class Contention:
    """The share of all CPU time that was busy at this process's priority (its own included)
    since the last reading (readings at least ``window`` seconds apart; one in between repeats
    the last)."""

    def __init__(self, window: float = 0.25, read: Callable[[], Reading] = read_at_our_priority,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self._read, self._clock = read, clock
        self._at: float | None = None
        self._prev: tuple[int, int] = (0, 0)
        self._last: float | None = None

    def busy(self) -> float | None:
        """0.0 (idle) to 1.0 (every core); None before the first interval or where /proc/stat
        cannot be read."""
        now = self._clock()
        if self._at is not None and now - self._at < self.window:
            return self._last
        try:
            total, busy = self._read()
        except (OSError, ValueError):
            return None
        if self._at is not None:
            d_total, d_busy = total - self._prev[0], busy - self._prev[1]
            self._last = min(1.0, max(0.0, d_busy / d_total)) if d_total > 0 else 0.0
        self._at, self._prev = now, (total, busy)
        return self._last
