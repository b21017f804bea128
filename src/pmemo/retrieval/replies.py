"""A reply comes with what it answers (issue 44 §2): a search for the question finds the answer,
even one that is only "@提问的人 对", and the answer brings its question.

The best few turn candidates each bring the turns their ``reply_to`` links tie them to (both
ways), right after them at their score (an answered question after its answers: the answer
holds what was asked), unless a link is content-free or outside the session asked about. A
candidate that stands for the same words said several times (``Scored.also``) brings the links
of each of them, and linked turns with the same words are one, as in fusion: a question asked
twice and answered twice in the same words is one question and one answer. The links come with
the candidates' pool and the turns with what the context reads (``tied_to``): no read of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..models import Turn, epoch_of
from ..text.filler import content_free, said_key
from ..text.quotes import asks
from .pool import Scored

LINKED = 10  # the candidates whose replies and questions come along: those a context shows


def tied_to(head: Sequence[Sequence[int]], links: Mapping[int, list[int]], top: int = LINKED) -> list[int]:
    """The turns a reply ties the best ``top`` candidates to (``head``: each one's turn ids, its own
    and those it stands for; ``links``: ``ReadPlanStore.turn_pool``'s): what ``threaded`` may
    bring, to be read with them."""
    return list(dict.fromkeys(i for said in head[:top] for t in said for i in links.get(t, ())))


def threaded(scored: list[Scored], links: Mapping[int, list[int]], found: Mapping[int, Turn],
             session_id: str | None, until: float | None = None, top: int = LINKED) -> list[Scored]:
    """``scored`` with each of its best ``top`` followed by the turns tied to it by a reply (said
    by ``until``, epoch seconds, when the search is asked at a time: an answer given later is not
    known). ``links``: turn id → the turns a reply ties it to; ``found``: the turns read (those
    ``tied_to`` names among them)."""
    head = scored[:top]
    if not any(t.id in links for s in head for t in (s.turn, *s.also)):
        return scored
    out: list[Scored] = []
    placed: set[int] = set()
    for s in head:
        if s.turn.id in placed:
            continue
        said = (s.turn, *s.also)
        placed.update(t.id for t in said)
        tied: dict[str, list[Turn]] = {}  # the same words once, in the order their links come
        for t in said:
            for i in links.get(t.id, ()):
                turn = found.get(i)
                if turn is None or i in placed or content_free(turn) or session_id not in (None, turn.session_id):
                    continue
                if until is not None and epoch_of(turn.timestamp) > until:
                    continue
                tied.setdefault(said_key(turn.content) or str(i), []).append(turn)
                placed.add(i)
        ids = {t.id for t in said}
        answers = [Scored(first, s.score, f"{s.why}; answers it", s.cluster, tuple(again))
                   for first, *again in tied.values() if first.reply_to in ids]
        others = [Scored(first, s.score, f"{s.why}; what it answers", s.cluster, tuple(again))
                  for first, *again in tied.values() if first.reply_to not in ids]
        # a question holds no fact, its answer does: an answered question comes after its answers
        out.extend([*answers, s, *others] if answers and asks(s.turn.content) else [s, *answers, *others])
    return out + [s for s in scored[top:] if s.turn.id not in placed]
