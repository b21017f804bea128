"""Prompts: pure functions paired with the pydantic model the reply must match."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..models import Turn


class SummaryOut(BaseModel):
    summary: str = Field(min_length=1)


class KeyLineOut(BaseModel):
    line: str = Field(min_length=1)


SUMMARY_SYSTEM = (
    "You summarise a stretch of conversation for an assistant's long-term memory. "
    "Keep facts, decisions, numbers, names and dates; write in the conversation's own "
    "language (do not translate Chinese into English); invent nothing."
)

KEY_SYSTEM = (
    "You distil the one durable fact these related messages share into a single short line "
    "for an assistant's always-present memory. Use the messages' language; invent nothing."
)


def transcript(turns: list[Turn]) -> str:
    return "\n".join(f"[{t.timestamp:%Y-%m-%d}] {t.actor or t.role}: {t.content}" for t in turns)


def summary_prompt(turns: list[Turn], max_chars: int) -> tuple[str, str]:
    return SUMMARY_SYSTEM, f"At most {max_chars} characters.\n\n{transcript(turns)}"


def key_prompt(turns: list[Turn]) -> tuple[str, str]:
    return KEY_SYSTEM, f"At most 120 characters.\n\n{transcript(turns)}"
