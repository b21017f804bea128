"""The episode of a finished session, compacted span or finished task."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..models import Turn
from .sift import kept
from .transcript import told


class EpisodeOut(BaseModel):
    summary: str = Field(min_length=1)
    topics: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    outcomes: list[str] = Field(default_factory=list)
    lessons: list[str] = Field(default_factory=list)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)


EPISODE_SYSTEM = (
    "You record an episode of a conversation for an assistant's memory: a short summary, the "
    "topics, the actions taken or requested, the outcomes, lessons learned, and an importance "
    "from 0 (small talk) to 1 (decisions, commitments, user feedback). Use the conversation's "
    "language; invent nothing."
)


def episode_prompt(turns: list[Turn], max_chars: int, sift: bool = True) -> tuple[str, str] | None:
    """(system, user) for the episode of ``turns``: with ``sift`` (``llm_prefilter``), only the
    lines worth reading (``prompts.sift``), None when there is none (no call)."""
    lines = kept(turns, sift)
    return (EPISODE_SYSTEM, f"Summary of at most {max_chars} characters.\n\n{told(lines)}") if lines else None
