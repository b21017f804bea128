"""Facts about people from a batch of messages: what the profile tier and the graph learn."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..models import Turn
from .transcript import numbered

Category = Literal["preference", "fact", "habit", "skill", "relationship", "profile", "procedural"]


class FactOut(BaseModel):
    category: Category
    key: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=300)
    confidence: float = Field(ge=0.0, le=1.0)
    correction: bool = False  # the person says this replaces what they said before
    expires: str | None = None  # ISO date after which the fact no longer holds (events)
    message: int = Field(default=0, ge=0)  # which message of a batch stated it
    about: str = Field(default="", max_length=64)  # whom it is about, by name, if not the speaker


class FactsOut(BaseModel):
    facts: list[FactOut] = Field(default_factory=list)


FACTS_SYSTEM = (
    "You extract facts about people from numbered messages of a chat, for an assistant's memory "
    "of them. Extract ONLY what is stated explicitly and plainly about a person: the speaker "
    "themselves, or someone the message names ('霓霓对花生过敏' is about 霓霓: set about to that "
    "name; leave about empty for the speaker). Facts: name, what to call them, likes and dislikes, "
    "habits, skills, work, home, relationships, how they want to be answered, dated upcoming "
    "events. Do not guess or infer. Hedged or uncertain statements ('I think I like Python', "
    "'我觉得我可能喜欢') are NOT facts; questions and hypotheticals are NOT facts. Use short stable "
    "keys such as 'name', 'preferred_name', 'tone', 'employer', 'home_city', 'opinion:<thing>', "
    "'diet:<food>', 'favorite:<kind>', 'event:<what>'; keep values in the message's language. Set "
    "message to the number of the message that states it, and correction=true when it changes "
    'what was true before. Return {"facts": []} when there is nothing explicit.'
)


def batch_facts_prompt(turns: list[Turn]) -> tuple[str, str]:
    """One prompt for a batch of messages (several speakers): one LLM call, not one per message."""
    return FACTS_SYSTEM, numbered(turns)
