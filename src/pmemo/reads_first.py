"""Reads first: the background work of this process gives way while a read is under way.

A read (``search``, ``context``) and the background worker share the process's interpreter
lock and its cores: while the worker runs the rules over a long text or embeds a batch, a read
gets about half of both (on two cores its query is embedded on one thread instead of two), and
a small box's reads take twice as long. So the worker, at the points where it can pause
(between two embedding slices, two steps of a batch, two pieces of a long text), waits until
no read has been under way for ``QUIET_S``, at most ``MOST_S`` at a time: reads that come
without pause slow the background down (it still runs a burst of ``RUN_S`` between two pauses,
a fifth of the time at worst) but never stop it, and an idle process never waits. Waiting only
while a read is under way is not enough: a client that asks again at once starts its next read
in the middle of the slice that began in the gap.

The gate is the process's, as the interpreter lock and the cores are: every ``Memory`` of the
process reads through it and every worker thread gives way to all of them. Only a thread that
runs background work gives way (``background()``), so a writer's own segmenting (``add``) and
a read's own text pieces never wait.

A background thread may name what it does at each of its pause points besides waiting
(``background(at_pause)``): the worker embeds the turns of small writes there (pipelines/fresh.py),
so a quiet chat's message does not wait for the end of a long step of another tenant's batch.

>>> with background():
...     give_way()  # no read under way: no wait
0.0
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

MOST_S = 1.0  # the longest one pause of the background lasts
QUIET_S = 0.05  # how long no read must have been under way for the background to go on
RUN_S = 0.25  # the background runs at least this long between two pauses: a fifth of the time at worst

_reads = threading.Condition()
_under_way = 0
_ended = -float("inf")  # time.monotonic() the last read ended
_local = threading.local()


@contextlib.contextmanager
def reading() -> Iterator[None]:
    """Count a read under way while the block runs."""
    global _under_way, _ended
    with _reads:
        _under_way += 1
    try:
        yield
    finally:
        with _reads:
            _under_way -= 1
            if not _under_way:
                _ended = time.monotonic()
                _reads.notify_all()


@contextlib.contextmanager
def background(at_pause: Callable[[], object] | None = None) -> Iterator[None]:
    """Mark the calling thread as background work for the block: its ``give_way`` waits, then
    calls ``at_pause`` (if given)."""
    before = getattr(_local, "background", False), getattr(_local, "at_pause", None)
    _local.background, _local.resumed, _local.at_pause = True, -float("inf"), at_pause
    try:
        yield
    finally:
        _local.background, _local.at_pause = before


def reads_under_way() -> int:
    return _under_way


def give_way(most_s: float = MOST_S, quiet_s: float = QUIET_S) -> float:
    """In a background thread, wait until no read has been under way for ``quiet_s`` (at most
    ``most_s``), then run the thread's ``at_pause``; returns how long it waited. Elsewhere, or
    with reads quiet, returns at once."""
    if not getattr(_local, "background", False):
        return 0.0
    waited = _wait(most_s, quiet_s)
    if (at_pause := _local.at_pause) is not None:
        at_pause()
    return waited


def _wait(most_s: float, quiet_s: float) -> float:
    if not _under_way and time.monotonic() - _ended >= quiet_s:
        return 0.0
    if time.monotonic() - getattr(_local, "resumed", -float("inf")) < RUN_S:
        return 0.0  # a batch has many pause points: it pauses once a burst, not at each
    began = time.monotonic()
    deadline = began + most_s
    with _reads:
        while (now := time.monotonic()) < deadline:
            if _under_way:
                _reads.wait(deadline - now)
            elif (calm := now - _ended) < quiet_s:
                _reads.wait(min(quiet_s - calm, deadline - now))
            else:
                break
    _local.resumed = time.monotonic()
    return time.monotonic() - began


__all__ = ["MOST_S", "QUIET_S", "RUN_S", "background", "give_way", "reading", "reads_under_way"]
