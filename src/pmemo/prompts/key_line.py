"""The key line promoted from a busy cluster: the one durable fact its messages share."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..models import Turn
from .transcript import transcript


class KeyLineOut(BaseModel):
    line: str = Field(min_length=1)


KEY_SYSTEM = (
    "You distil the one durable fact these related messages share into a single short line "
    "for an assistant's always-present memory. Use the messages' language; invent nothing."
)


def key_prompt(turns: list[Turn]) -> tuple[str, str]:
    return KEY_SYSTEM, f"At most 120 characters.\n\n{transcript(turns)}"
