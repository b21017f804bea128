"""L2 windows (pure): folding a chat's turns into runs of consecutive turns, each embedded
as one unit (issue 20 §3).

In a group chat one message says little ("哈哈", "+1", "明天呢？"); the few before and after
say what it is about. A window holds consecutive turns of one user or group up to ``size``
tokens; the next one starts with the last turns of it worth at most ``overlap`` tokens, so a
message at a window's edge is also seen with what follows it. A turn longer than ``size`` is
a window of its own (the embedder chunks it as it would a single message).

Sessions are the caller's convention (a day of a group, a thread, a connection): a window
crosses into the next session, except when it is at least half full at that point, so a
session long enough to be a window of its own is not mixed with the next, and a day of five
short messages is not embedded alone.

>>> ps = [Piece(i, 50, "s1") for i in range(1, 8)]
>>> closed, still = fold([], 0, ps, size=160, overlap=60)
>>> [[p.id for p in w] for w in closed], [p.id for p in still]
([[1, 2, 3], [3, 4, 5]], [5, 6, 7])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..models import Turn


class Piece(NamedTuple):
    """What folding needs of a turn."""

    id: int
    tokens: int
    session: str


def carry(window: Sequence[Piece], overlap: int) -> list[Piece]:
    """The last turns of a closed window that open the next one: as many as fit in
    ``overlap`` tokens, and never the whole window (the next one would repeat it).

    >>> [p.id for p in carry([Piece(1, 10, "s"), Piece(2, 20, "s"), Piece(3, 15, "s")], 40)]
    [2, 3]
    >>> carry([Piece(1, 10, "s")], 40)
    []
    """
    out: list[Piece] = []
    used = 0
    for piece in reversed(window[1:]):
        if used + piece.tokens > overlap:
            break
        out.append(piece)
        used += piece.tokens
    return out[::-1]


def fold(current: Sequence[Piece], fresh: int, new: Sequence[Piece], size: int,
         overlap: int) -> tuple[list[list[Piece]], list[Piece]]:
    """Add ``new`` turns (oldest first) to a chat's open window ``current``, whose last
    ``fresh`` turns are in no closed window yet; returns the windows that closed and the open
    one left. A window closes when the next turn would overflow ``size``, once it is full, or
    at a new session when it is at least half full; the overlap never crosses into another
    session.

    >>> closed, still = fold([], 0, [Piece(1, 300, "a"), Piece(2, 10, "a")], size=200, overlap=30)
    >>> [[p.id for p in w] for w in closed], [p.id for p in still]
    ([[1]], [2])
    >>> days = [Piece(1, 60, "d1"), Piece(2, 50, "d1"), Piece(3, 20, "d2"), Piece(4, 20, "d3")]
    >>> [[[p.id for p in w] for w in fold([], 0, days, size, overlap=30)[0]] for size in (300, 200)]
    [[], [[1, 2]]]
    >>> [p.id for p in fold([], 0, days, size=200, overlap=30)[1]]  # d2 starts afresh, d3 joins it
    [3, 4]
    """
    closed: list[list[Piece]] = []
    window = list(current)
    for piece in new:
        used = sum(p.tokens for p in window)
        crossing = bool(window) and piece.session != window[-1].session
        if fresh and (used + piece.tokens > size or (crossing and 2 * used >= size)):
            closed.append(window)
            window, fresh = carry(window, overlap), 0
            used = sum(p.tokens for p in window)
        if not fresh and window and (piece.session != window[-1].session or used + piece.tokens > size):
            window = []  # an overlap stays in its own session, and gives way to a long turn
        window.append(piece)
        fresh += 1
        if sum(p.tokens for p in window) >= size:
            closed.append(window)
            window, fresh = carry(window, overlap), 0
    return closed, window if fresh else []


def window_text(turns: Sequence[Turn]) -> str:
    """What a window embeds: its turns' words, one line each, without the speakers' names.

    Who said what is data on each turn (``actor_id``), matched by the speaker signal, as for a
    single message (issue 17): names inside the text would make every window of the same few
    members look alike, and a rename would change vectors. A query is embedded without the
    names it says, so the window is too.
    """
    return "\n".join(t.indexed for t in turns)
