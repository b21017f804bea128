"""A message cut into statements, each with whom it is about (pure over a ``Resolver``).

The fact extraction and the graph's rules both read a message this way ("霓霓对花生过敏" is
about 霓霓, not its speaker), so it lives below both of them.
"""

from __future__ import annotations

from ..models import Turn
from ..rules.attribution import Attributed, Mention, by_subject
from ..text.slices import handing_over, pieces
from .resolve import Resolver


def statements(turn: Turn, people: Resolver | None) -> list[Attributed]:
    """The turn cut into statements, each with whom it is about (its speaker, or a person it
    names: "霓霓对花生过敏"), rewritten in the first person for the rules. A long turn is read
    in pieces (``text.slices``): no statement is longer than one."""
    if people is None:
        return [Attributed(None, piece, ()) for piece in pieces(turn.content)]
    out: list[Attributed] = []
    for piece in handing_over(pieces(turn.content)):
        found = people.resolve(piece, turn.scope)
        out += by_subject(piece, [Mention(m.start, m.end, m.person_ids[0]) for m in found if not m.ambiguous])
    return out
