"""Prompts for profile extraction and episodes: pure functions + the pydantic reply models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..models import Turn
from .prompts import transcript

Category = Literal["preference", "fact", "habit", "skill", "relationship", "profile", "procedural"]


class FactOut(BaseModel):
    category: Category
    key: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=300)
    confidence: float = Field(ge=0.0, le=1.0)
    correction: bool = False  # the person says this replaces what they said before
    expires: str | None = None  # ISO date after which the fact no longer holds (events)


class FactsOut(BaseModel):
    facts: list[FactOut] = Field(default_factory=list)


class EpisodeOut(BaseModel):
    summary: str = Field(min_length=1)
    topics: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    outcomes: list[str] = Field(default_factory=list)
    lessons: list[str] = Field(default_factory=list)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)


FACTS_SYSTEM = (
    "You extract facts about the speaker from one message for an assistant's memory of them. "
    "Extract ONLY what the speaker states explicitly and plainly about themselves: name, what "
    "to call them, likes and dislikes, habits, skills, relationships, how they want to be "
    "answered, dated upcoming events. Do not guess or infer. Hedged or uncertain statements "
    "('I think I like Python', '我觉得我可能喜欢') are NOT facts; questions and hypotheticals "
    "are NOT facts. Use short stable keys such as 'name', 'preferred_name', 'tone', "
    "'opinion:<thing>', 'diet:<food>', 'favorite:<kind>', 'event:<what>'; keep values in the "
    "message's language. Set correction=true when the speaker says this changes what was true "
    'before. Return {"facts": []} when there is nothing explicit.'
)

EPISODE_SYSTEM = (
    "You record an episode of a conversation for an assistant's memory: a short summary, the "
    "topics, the actions taken or requested, the outcomes, lessons learned, and an importance "
    "from 0 (small talk) to 1 (decisions, commitments, user feedback). Use the conversation's "
    "language; invent nothing."
)


def facts_prompt(turn: Turn) -> tuple[str, str]:
    who = turn.actor or turn.role
    return FACTS_SYSTEM, f"Message date: {turn.timestamp:%Y-%m-%d}\n{who}: {turn.content}"


def episode_prompt(turns: list[Turn], max_chars: int) -> tuple[str, str]:
    return EPISODE_SYSTEM, f"Summary of at most {max_chars} characters.\n\n{transcript(turns)}"
