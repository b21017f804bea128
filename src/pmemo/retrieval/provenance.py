"""Source turns read once (issue 45 §4): the sections of a context are built before the turns
are read, and their hits get their source turns after, from the one read of every turn the
context needs.

A section asks for its turns through ``Pending``, a turn lookup that notes the ids and answers
each with a stand-in turn (an id, nothing said); a line of the people, agenda or graph section
is its text, so packing never looks at them. ``fill`` swaps the stand-ins for the turns read
and leaves out the ones not found, as a lookup that read them at once would have.

>>> pending = Pending()
>>> hit = Hit("fact:1", "fact", "people", "周霓在腾讯工作", 1.0, "", tuple(pending([7, 9]).values()))
>>> pending.ids
[7, 9]
>>> said = Turn(7, Scope.of(group_id="g", session_id="s"), 1, "user", "我在腾讯上班", "周霓", datetime(2026, 1, 1))
>>> [t.content for t in fill([hit], {7: said})[0].sources]
['我在腾讯上班']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from ..models import Hit, Scope, Turn

_PENDING = Scope("\x00pending", "\x00pending", "\x00pending", None)  # whose turns are stand-ins
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)


class Pending:
    """A turn lookup that reads nothing: it notes the ids asked for (``ids``, in order, each
    once) and answers each with a stand-in."""

    def __init__(self) -> None:
        self._ids: dict[int, None] = {}

    @property
    def ids(self) -> list[int]:
        return list(self._ids)

    def __call__(self, ids: Iterable[int]) -> dict[int, Turn]:
        out = {}
        for i in ids:
            self._ids.setdefault(i)
            out[i] = Turn(i, _PENDING, 0, "", "", None, _NEVER)
        return out


def fill(hits: Sequence[Hit], turns: Mapping[int, Turn]) -> list[Hit]:
    """``hits`` with their stand-in sources (``Pending``'s) swapped for ``turns``; a stand-in
    whose turn was not read (forgotten meanwhile) is left out."""
    out = []
    for hit in hits:
        if any(t.scope is _PENDING for t in hit.sources):
            hit = dataclasses.replace(hit, sources=tuple(
                turns[t.id] if t.scope is _PENDING else t for t in hit.sources
                if t.scope is not _PENDING or t.id in turns))
        out.append(hit)
    return out
