"""How turns are shown to an LLM: a dated transcript, or numbered for replies that cite a message."""

from __future__ import annotations

from collections.abc import Sequence

from ..models import Turn
from .sift import Told, name

# messages per LLM call of a batch job (facts, graph triples): a prompt stays short enough that
# the model cites each message's number right
LLM_BATCH = 20


def transcript(turns: Sequence[Turn]) -> str:
    """One turn a line: ``[date] speaker: text``."""
    return "\n".join(f"[{t.timestamp:%Y-%m-%d}] {t.actor or t.role}: {t.content}" for t in turns)


def told(lines: Sequence[Told]) -> str:
    """``transcript`` of sifted lines (``sift.sift``): a repeated line once, with its note."""
    return "\n".join(f"[{t.turn.timestamp:%Y-%m-%d}] {name(t.turn)}: {t.turn.content}{t.note}" for t in lines)


def numbered(turns: Sequence[Turn]) -> str:
    """A batch of messages (several speakers), one a line with its number, for a reply that
    names the message each thing came from."""
    return "\n".join(f"[{n}] {t.timestamp:%Y-%m-%d} {t.actor or t.role}: {t.content}" for n, t in enumerate(turns))
