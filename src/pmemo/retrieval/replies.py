"""A reply comes with what it answers (issue 44 §2): a search for the question finds the answer,
even one that is only "@提问的人 对", and the answer brings its question.

The best few turn candidates each bring the turns their ``reply_to`` links tie them to (both
ways), right after them at their score, unless a link is content-free or outside the session
asked about. One store read for the links and one for the turns.
"""

from __future__ import annotations

from ..models import epoch_of
from ..stores.base import Store
from ..text.filler import content_free
from .search import Scored

LINKED = 10  # the candidates whose replies and questions come along: those a context shows


def threaded(scored: list[Scored], store: Store, session_id: str | None, until: float | None = None,
             top: int = LINKED) -> list[Scored]:
    """``scored`` with each of its best ``top`` followed by the turns tied to it by a reply (said
    by ``until``, epoch seconds, when the search is asked at a time: an answer given later is not known)."""
    head = scored[:top]
    links = store.reply_links(s.turn.id for s in head)
    if not links:
        return scored
    wanted = {i for s in head for i in links.get(s.turn.id, ())}
    found = store.get_turns(wanted)
    out: list[Scored] = []
    placed: set[int] = set()
    for s in head:
        if s.turn.id in placed:
            continue
        out.append(s)
        placed.add(s.turn.id)
        for i in links.get(s.turn.id, ()):
            turn = found.get(i)
            if turn is None or i in placed or content_free(turn) or session_id not in (None, turn.session_id):
                continue
            if until is not None and epoch_of(turn.timestamp) > until:
                continue
            why = "answers it" if turn.reply_to == s.turn.id else "what it answers"
            out.append(Scored(turn, s.score, f"{s.why}; {why}", s.cluster))
            placed.add(i)
    return out + [s for s in scored[top:] if s.turn.id not in placed]
