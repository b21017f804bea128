"""The long-term summary of a stretch of conversation."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..models import Turn
from .sift import kept
from .transcript import told


class SummaryOut(BaseModel):
    summary: str = Field(min_length=1)


SUMMARY_SYSTEM = (
    "You summarise a stretch of conversation for an assistant's long-term memory. "
    "Keep facts, decisions, numbers, names and dates; write in the conversation's own "
    "language (do not translate Chinese into English); invent nothing."
)


def summary_prompt(turns: list[Turn], max_chars: int, sift: bool = True) -> tuple[str, str] | None:
    """(system, user) for a summary of ``turns``: with ``sift`` (``llm_prefilter``), only the
    lines worth reading (``prompts.sift``), None when there is none (no call)."""
    lines = kept(turns, sift)
    return (SUMMARY_SYSTEM, f"At most {max_chars} characters.\n\n{told(lines)}") if lines else None
