"""Reads: search and context bodies and the hits they return."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field

from ..models import ContextPack, Hit, Kind, Tier
from .common import MAX_BUDGET, MAX_CONTENT, MAX_QUERY, MAX_RECENT, Out, ScopeIn, When, _finite, _id, _whole, examples
from .turns import TurnOut

AT = ("when the query is asked (default now): 'yesterday' or 'last week' in it is read from that day, and"
      " nothing said after it is known")


class SearchIn(ScopeIn):
    model_config = examples({"user_id": "alice", "query": "where do I live?"})

    query: str = Field(min_length=1, max_length=4_000)
    limit: Annotated[int, Field(ge=1, le=100), BeforeValidator(_whole)] = 10
    session_id: str | None = _id(None)
    at: When | None = Field(None, description=AT)
    asker: str | None = _id(
        None, description="The person id of who asks: 'I', 'my', 我 in the query mean them, so their own"
        " words rank first (nobody else's are left out)."
    )


class ContextIn(ScopeIn):
    model_config = examples(
        {"user_id": "alice", "session_id": "s1", "query": "where do I live?", "budget_tokens": 1000},
        {"group_id": "study", "session_id": "study-chat", "query": "你认识霓霓吗？", "asker": "wt",
         "recent": ["今天谁去图书馆？", "我下午去"]},
    )

    query: str = Field(min_length=1, max_length=MAX_CONTENT)
    session_id: str | None = _id(None)
    budget_tokens: Annotated[int, Field(ge=16, le=MAX_BUDGET), BeforeValidator(_whole)] | None = None
    at: When | None = Field(None, description=AT)
    asker: str | None = _id(
        None, description="The person id of who asks: their profile here and their plans near `at` come in."
    )
    recent: list[Annotated[str, Field(max_length=MAX_QUERY)]] | None = Field(
        None,
        max_length=MAX_RECENT,
        description="The last messages of the chat, newest last: the people they name come in too.",
    )
    format: Literal["markdown", "memgpt"] = Field(
        "markdown",
        description="How the memory blocks are written: as markdown sections, or `memgpt` for the"
        " `<memory_blocks>` layout MemGPT/Letta agents are prompted with.",
    )
    with_input: bool = Field(
        True,
        description="End the pack with the message itself (`## Current input`); false for an agent that"
        " sends the message on its own, so the whole budget goes to memory.",
    )


class HitOut(Out):
    id: str = Field(examples=["turn:12"])
    kind: Kind  # the models' own literals: a new tier or kind needs no change here
    tier: Tier
    text: str
    score: float
    why: str
    source_ids: list[int]
    sources: list[TurnOut]
    timestamp: datetime | None

    @classmethod
    def of(cls, h: Hit) -> HitOut:
        return cls.read(h, score=_finite(float(h.score)), source_ids=[s.id for s in h.sources],
                        sources=[TurnOut.of(s) for s in h.sources])


class HitsOut(BaseModel):
    hits: list[HitOut]


class ContextOut(Out):
    query: str
    text: str
    items: list[HitOut]
    tokens: int
    budget: int
    over_budget: bool = Field(
        False,
        description="The memory blocks and key lines, always whole, alone take more than the budget:"
        " the context is only they (`tokens` > `budget`), and `note` says so.",
    )
    note: str = Field("", description="Why the context is over its budget, when it is.")

    @classmethod
    def of(cls, p: ContextPack) -> ContextOut:
        return cls.read(p, items=[HitOut.of(h) for h in p.items])