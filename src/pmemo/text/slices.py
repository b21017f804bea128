"""Long texts in bounded pieces (pure): what the rules and the segmenter read at a time.

A turn may hold 100,000 characters (a key held down, a pasted log). Read in one go by the
rules' few hundred patterns, it would hold the interpreter for seconds: ``re`` keeps the GIL
for the whole of a match, so every other request of the process waits. Read in pieces of at
most ``LIMIT`` characters, each call is short, and the worker hands the GIL over between
pieces (``handing_over``). A text within ``LIMIT`` is one piece, itself: an ordinary message
is read exactly as before.

A piece ends after the last sentence mark that fits (。！？!? a line break, ". "), else
after a clause mark or a space, else wherever the limit falls (a run of one character).

>>> text = "我喜欢猫。" * 3
>>> [text[a:b] for a, b in spans(text, 12)]
['我喜欢猫。我喜欢猫。', '我喜欢猫。']
>>> spans("short", 12)
[(0, 5)]
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

from ..reads_first import give_way

# Facts come from statements, which are short: in the public dialogue sets (LoCoMo, MADial,
# LongMemEval) 38 of 354,356 sentences run past 400 characters, and no Chinese run past 30.
LIMIT = 400

_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s)")
_SOFT_BREAK = re.compile(r"[，,；;、：:\s]")

T = TypeVar("T")


def spans(text: str, limit: int = LIMIT) -> list[tuple[int, int]]:
    """(start, end) of each piece of ``text``, in order, none longer than ``limit``, together
    the whole text. Linear: each window of ``limit`` characters is scanned once."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    out: list[tuple[int, int]] = []
    start, size = 0, len(text)
    while size - start > limit:
        end = _cut(text, start, start + limit)
        out.append((start, end))
        start = end
    out.append((start, size))
    return out


def _cut(text: str, start: int, stop: int) -> int:
    """Where the piece that starts at ``start`` ends, at most ``stop``: after its last sentence
    mark, else after its last soft break, else at ``stop``."""
    for pattern in (_SENTENCE_END, _SOFT_BREAK):
        last = None
        for last in pattern.finditer(text, start, stop):  # noqa: B007 - the last one is wanted
            pass
        if last is not None and last.end() > start:
            return last.end()
    return stop


def pieces(text: str, limit: int = LIMIT) -> list[str]:
    """The pieces of ``text`` (``spans``) as strings.

    >>> pieces("a b c", 2)
    ['a ', 'b ', 'c']
    """
    return [text[a:b] for a, b in spans(text, limit)]


def handing_over(items: Iterable[T]) -> Iterator[T]:
    """``items`` one by one, letting other threads run between two of them.

    ``time.sleep(0)`` releases the GIL: the event loop and the readers of other tenants get it
    between two pieces of a long text, instead of after the whole of it; in the background
    worker, a read under way gets the pause (``reads_first``).
    """
    for i, item in enumerate(items):
        if i and not give_way():
            time.sleep(0)
        yield item


__all__ = ["LIMIT", "handing_over", "pieces", "spans"]
