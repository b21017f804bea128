"""The parts of a long turn: one vector per piece the embedder read (kind ``part``).

A turn longer than one piece keeps its ``turn`` vector (the mean of its pieces: clustering,
fusion and the windows read it as before) and a ``part`` vector per piece, whose best cosine
is the turn's in a search (``retrieval.retriever.Retriever._vector``). A part's ref is its turn's id
times ``PER_TURN`` plus its index: the ``vectors`` table needs no second key, a turn's parts are
one range of its primary key, and a deleted turn takes them along in the same statement (the
``turns_parts_gone`` triggers of both stores' migrations, which hold the same number).

>>> ref(7, 2), turn_of(ref(7, 2)), span(7)
(458754, 7, (458752, 524287))
"""

from __future__ import annotations

KIND = "part"
PER_TURN = 1 << 16  # parts a turn can have (~25M tokens); turn ids stay below 2**47


def ref(turn_id: int, index: int) -> int:
    """The ref of a turn's ``index``-th part."""
    if not 0 <= index < PER_TURN:
        raise ValueError(f"a turn has at most {PER_TURN} parts")
    return turn_id * PER_TURN + index


def turn_of(part_ref: int) -> int:
    """The turn a part belongs to."""
    return part_ref // PER_TURN


def span(turn_id: int) -> tuple[int, int]:
    """The first and last ref a turn's parts can have (both included)."""
    return turn_id * PER_TURN, turn_id * PER_TURN + PER_TURN - 1
