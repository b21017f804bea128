"""What of a diary entry a search or a context shows (pure): the whole entry when it is short,
else the pieces that match the query best (a digest's lines, an LLM entry's sentences), in
their order, within a limit: a whole day would crowd out everything else in a context.

>>> text = "Monday: 3 messages.\\nTopics: exam, hotpot\\n- Ni: my exam is on Friday\\n- Bo: hotpot tonight?"
>>> excerpt(text, ("hotpot",), 45)
'Topics: exam, hotpot\\n- Bo: hotpot tonight?'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiers.long_term import sentences
from .digest import cut

EXCERPT_CHARS = 240


def excerpt(text: str, terms: Sequence[str], limit: int = EXCERPT_CHARS) -> str:
    """``text``, or its pieces holding the most of the query's ``terms`` (``query_terms``: words,
    stems and Chinese bigrams, found as written: a search runs this for each entry it weighs,
    so no piece is segmented)."""
    if len(text) <= limit:
        return text

    def score(piece: str) -> int:
        low = piece.lower()
        return sum(t in low for t in terms)

    lines = text.splitlines()
    pieces, sep = (lines, "\n") if len(lines) > 1 else (sentences(text), " ")
    kept: set[int] = set()
    used = 0
    for i in sorted(range(len(pieces)), key=lambda i: (-score(pieces[i]), i)):
        cost = len(pieces[i]) + len(sep) * bool(kept)
        if used + cost <= limit:
            kept.add(i)
            used += cost
    return sep.join(pieces[i] for i in sorted(kept)) if kept else cut(text, limit)
