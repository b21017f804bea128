"""Extractive summaries (pure): verbatim sentences from the turns, nothing made up.

>>> extractive_summary([("Louis", "Budget is 10k. Thanks!")], [1.0], 40)
'Louis: Budget is 10k.'
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")


def sentences(text: str) -> list[str]:
    out = [s.strip() for s in _SENTENCE.findall(text)]
    return [s for s in out if len(s) > 1]


def extractive_summary(turns: list[tuple[str | None, str]], centrality: list[float],
                       max_chars: int) -> str:
    """The most central turns' first sentences, in conversation order, within ``max_chars``.

    ``turns`` are (speaker, text) pairs; ``centrality`` scores each (higher = more typical).
    """
    order = sorted(range(len(turns)), key=lambda i: (-centrality[i], i))
    chosen: dict[int, str] = {}
    used = 0
    for i in order:
        speaker, text = turns[i]
        parts = sentences(text)
        if not parts:
            continue
        line = f"{speaker}: {parts[0]}" if speaker else parts[0]
        cost = len(line) + (1 if chosen else 0)
        if used + cost > max_chars:
            if not chosen:  # at least one (cut) sentence, and then nothing more fits
                chosen[i] = line[: max_chars - 1] + "…"
                break
            continue
        chosen[i] = line
        used += cost
    return " ".join(chosen[i] for i in sorted(chosen))


def central_sentence(text: str, max_chars: int = 200) -> str:
    """The longest sentence of a turn (within ``max_chars``): the offline promotion line."""
    parts = sentences(text) or [text.strip()]
    fitting = [s for s in parts if len(s) <= max_chars] or [parts[0][: max_chars - 1] + "…"]
    return max(fitting, key=len)
