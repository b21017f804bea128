"""A long text cut into pieces an encoder reads in one pass, at sentence or word boundaries.

e5 reads 512 tokens; the old cut of 1200 characters was ~300 tokens in English but ~800 in
Chinese, which the engine windowed again inside (a piece of two halves averaged). A piece here
is bounded by the encoder's own token count, so it is one pass in any language, and a long
turn keeps a vector per piece (``stores.parts``): its search takes the best piece.

>>> words = lambda text: len(text.split())  # a token per word, for the example
>>> split("one two. three four. five six seven", words, 4)
[('one two. three four. ', 4), ('five six seven', 3)]
>>> split("short", words, 4)
[('short', 1)]
"""

from __future__ import annotations

from collections.abc import Callable

# where a piece prefers to end, best first: a line, a sentence, a clause, a word
BOUNDARIES = ("\n", "。", "！", "？", ". ", "! ", "? ", "；", "，", "; ", ", ", " ")
LOOK_BACK = 0.25  # of a piece's length, searched back from its end for a boundary


def split(text: str, count: Callable[[str], int], limit: int) -> list[tuple[str, int]]:
    """``text`` in consecutive pieces of at most ~``limit`` tokens as ``count`` measures them,
    each with its count.

    Each piece's length is guessed from the characters per token so far, cut back until it
    fits, then ended at the best boundary in its last quarter (a sentence's last mark may
    stand just past the guess): ~2 counts a piece, each of one piece's characters."""
    total = count(text)
    if total <= limit:
        return [(text, total)]
    out: list[tuple[str, int]] = []
    start, n = 0, len(text)
    chars_per_token = n / max(total, 1)
    while start < n:
        end = min(n, start + max(1, int(limit * chars_per_token * 0.95)))
        while (tokens := count(text[start:end])) > limit and end - start > 1:
            end = start + max(1, int((end - start) * limit / tokens * 0.95))
        if end < n and (cut := _boundary(text, start, end)) != end:
            end, tokens = cut, count(text[start:cut])
        chars_per_token = max(1e-3, (end - start) / max(tokens, 1))
        out.append((text[start:end], tokens))
        start = end
    return out


def _boundary(text: str, start: int, end: int) -> int:
    """The end of a piece ``[start, end)`` moved to its best boundary, if one is near."""
    floor = end - int((end - start) * LOOK_BACK)
    for mark in BOUNDARIES:
        at = text.rfind(mark, floor, end + len(mark))
        if at > start:
            return at + len(mark)
    return end
