"""Reads first: the background work of this process gives way while a read is under way.

A read (``search``, ``context``) and the background worker share the process's interpreter
lock and its cores: while the worker runs the rules over a long text or embeds a batch, a read
gets about half of both, and a small box's reads take twice as long. So the worker, at the
points where it can pause (between two embedding slices, two steps of a batch, two pieces of a
long text), waits while a read is under way, at most ``most_s`` at a time: a steady stream of
reads slows the background down but never stops it, and an idle process never waits.

The gate is the process's, as the interpreter lock and the cores are: every ``Memory`` of the
process reads through it and every worker thread gives way to all of them. Only a thread that
runs background work gives way (``background()``), so a writer's own segmenting (``add``) and
a read's own text pieces never wait.

>>> with background():
...     give_way()  # no read under way: no wait
0.0
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

MOST_S = 0.1  # the longest one pause of the background lasts

_reads = threading.Condition()
_under_way = 0
_local = threading.local()


@contextlib.contextmanager
def reading() -> Iterator[None]:
    """Count a read under way while the block runs."""
    global _under_way
    with _reads:
        _under_way += 1
    try:
        yield
    finally:
        with _reads:
            _under_way -= 1
            if not _under_way:
                _reads.notify_all()


@contextlib.contextmanager
def background() -> Iterator[None]:
    """Mark the calling thread as background work for the block: its ``give_way`` waits."""
    before = getattr(_local, "background", False)
    _local.background = True
    try:
        yield
    finally:
        _local.background = before


def reads_under_way() -> int:
    return _under_way


def give_way(most_s: float = MOST_S) -> float:
    """In a background thread, wait while a read is under way (at most ``most_s``); returns
    how long it waited. Elsewhere, or with no read under way, returns at once."""
    if not _under_way or not getattr(_local, "background", False):
        return 0.0
    began = time.monotonic()
    with _reads:
        _reads.wait_for(lambda: not _under_way, most_s)
    return time.monotonic() - began


__all__ = ["MOST_S", "background", "give_way", "reading", "reads_under_way"]
