"""Extractive summaries (pure): verbatim sentences from the turns, nothing made up.

>>> extractive_summary([("Louis", "Budget is 10k. Thanks!")], [1.0], 40)
'Louis: Budget is 10k.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.segment import segment

_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")


def sentences(text: str) -> list[str]:
    out = [s.strip() for s in _SENTENCE.findall(text)]
    return [s for s in out if len(s) > 1]


def extractive_summary(turns: Sequence[tuple[str | None, str]], centrality: list[float],
                       max_chars: int) -> str:
    """The most telling sentence of the most telling turns, in conversation order, within
    ``max_chars``.

    ``turns`` are (speaker, text) pairs; ``centrality`` scores each (higher = more typical).
    A sentence tells as much as the content words it holds (stopwords out, so "Hey Mel!"
    and "Thanks, that's great!" tell little); a question tells half. Central turns break ties.
    """
    best = {i: found for i, (_, text) in enumerate(turns) if (found := telling(text))}
    order = sorted(best, key=lambda i: (-best[i][0] * (1.0 + max(centrality[i], 0.0)), i))
    chosen: dict[int, str] = {}
    used = 0
    for i in order:
        speaker, sentence = turns[i][0], best[i][1]
        line = f"{speaker}: {sentence}" if speaker else sentence
        cost = len(line) + (1 if chosen else 0)
        if used + cost > max_chars:
            if not chosen:  # at least one (cut) sentence, and then nothing more fits
                chosen[i] = line[: max_chars - 1] + "…"
                break
            continue
        chosen[i] = line
        used += cost
    return " ".join(chosen[i] for i in sorted(chosen))


def telling(text: str) -> tuple[float, str] | None:
    """A turn's sentence with the most content words, and how many (a question: half)."""
    scored = [(len(set(segment(s).split())) * (0.5 if s.endswith(("?", "？")) else 1.0), s)
              for s in sentences(text) if s in text]  # verbatim only
    return max(scored, key=lambda p: p[0]) if scored else None


def central_sentence(text: str, max_chars: int = 200) -> str:
    """The longest sentence of a turn (within ``max_chars``): the offline promotion line."""
    parts = sentences(text) or [text.strip()]
    fitting = [s for s in parts if len(s) <= max_chars] or [parts[0][: max_chars - 1] + "…"]
    return max(fitting, key=len)
