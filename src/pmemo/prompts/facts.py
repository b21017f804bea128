"""Facts about people from a batch of messages: what the profile tier and the graph learn.

Two prompts: ``batch_facts_prompt`` numbers every message of a batch (the behaviour before
issue 44 §8, ``llm_prefilter`` off); ``clause_facts_prompt`` numbers only the clauses the
statement model marked as candidates, with a neighbouring message either side shown as
context, and asks for each fact's clause number (a fact without one is dropped).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from ..errors import LLMError
from ..models import Turn
from .transcript import numbered

log = logging.getLogger("pmemo")
M = TypeVar("M", bound=BaseModel)
S = TypeVar("S", bound="Sourced")

Category = Literal["preference", "fact", "habit", "skill", "relationship", "profile", "procedural"]


class FactOut(BaseModel):
    category: Category
    key: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=300)
    confidence: float = Field(ge=0.0, le=1.0)
    correction: bool = False  # the person says this replaces what they said before
    expires: str | None = None  # ISO date after which the fact no longer holds (events)
    message: int | None = Field(default=None, ge=0)  # which message of a batch stated it (none: the first)
    clause: int | None = Field(default=None, ge=0)  # which numbered clause stated it (clause_facts_prompt)
    chat: int | None = Field(default=None, ge=1)  # the section (## chat c) of that clause, in a call of several
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
    "correction=true when it changes what was true before. Return {\"facts\": []} when there is "
    "nothing explicit."
)
MESSAGES_SYSTEM = FACTS_SYSTEM + " Set message to the number of the message that states it."
CLAUSES_SYSTEM = FACTS_SYSTEM + (
    " Only some clauses are numbered ([n]); a line that starts with (context) is a neighbouring "
    "message shown for context only: extract nothing from it. Set clause to the number n of the "
    "clause that states each fact; a fact without one is dropped."
)
# several chats in one call (``prefilter.pack``): each under its header, a fact about its own chat's people
CHATS = (
    " The lines come from several separate chats, each under its header (## chat c): set chat to c of the "
    "clause's chat; names in one chat are not people of another."
)
CHATS_SYSTEM = CLAUSES_SYSTEM + CHATS
CONTEXT_CHARS = 120  # a context line longer than this is cut: it only says what the clauses answer


@dataclass(frozen=True)
class Line:
    """One line of a clause prompt: a candidate clause of a turn (``number``: its id in the
    reply), or a neighbouring turn shown as context (``number`` None)."""

    turn: Turn
    text: str
    number: int | None = None


class Sourced(Protocol):
    """An item of a clause reply: the number of the clause it came from (``clause``, or
    ``message`` from a model that says so), and the chat (section) it says that clause is in."""

    clause: int | None
    message: int | None
    chat: int | None


def clause_replies(llm: Any, batches: Iterable[Sequence[Line]], prompt: Callable[[Sequence[Line]], tuple[str, str]],
                   schema: type[M], items: Callable[[M], Sequence[S]], what: str
                   ) -> tuple[list[tuple[Line, S]], set[int]]:
    """One call per batch of clauses: each item of the replies with the line of the clause it
    names (an item naming no clause the call was sent is dropped: nothing says it was said; so is
    one that names the chat of another section than its clause's), and the ids of the turns whose
    call failed (a timeout, garbage), logged as ``what`` falling back."""
    found: list[tuple[Line, S]] = []
    failed: set[int] = set()
    for lines in batches:
        sent = {line.number: line for line in lines if line.number is not None}
        chat_of = dict(zip((line.number for line in lines), chat_numbers(lines), strict=True))
        try:
            reply = llm.complete_json(*prompt(lines), schema)
        except LLMError as exc:
            log.warning("%s of %d clauses fell back: %s", what, len(sent), exc)
            failed.update(line.turn.id for line in sent.values())
            continue
        for item in items(reply):
            number = item.clause if item.clause is not None else item.message
            line = sent.get(number) if number is not None else None
            if line is not None and item.chat in (None, chat_of[number]):
                found.append((line, item))
    return found, failed


def batch_facts_prompt(turns: list[Turn]) -> tuple[str, str]:
    """One prompt for a batch of messages (several speakers): one LLM call, not one per message."""
    return MESSAGES_SYSTEM, numbered(turns)


def clause_facts_prompt(lines: Sequence[Line]) -> tuple[str, str]:
    """One prompt for a chat's candidate clauses, in the order said, with their context.

    >>> from datetime import datetime, UTC
    >>> from pmemo.models import Scope
    >>> t = Turn(1, Scope.of(group_id="g"), 1, "user", "哈哈 我对花生过敏", "周霓", datetime(2026, 3, 1, tzinfo=UTC))
    >>> print(clause_facts_prompt([Line(t, "早", None), Line(t, "我对花生过敏", 0)])[1])
    (context) 2026-03-01 周霓: 早
    [0] 2026-03-01 周霓: 我对花生过敏
    """
    return (CHATS_SYSTEM if max(chat_numbers(lines), default=1) > 1 else CLAUSES_SYSTEM), shown(lines)


def chat_numbers(lines: Sequence[Line]) -> list[int]:
    """Each line's chat in a call, 1 for the first chat its lines come from, 2 for the next, …"""
    order: dict[str, int] = {}
    return [order.setdefault(line.turn.scope.key, len(order) + 1) for line in lines]


def shown(lines: Sequence[Line]) -> str:
    """Candidate clauses numbered (``[n] date speaker: clause``), their context marked and cut
    at ``CONTEXT_CHARS``: the user part of a clause prompt (facts, and the graph's triples).
    Lines of several chats go under a header each (``## chat c``), in their order.

    >>> from datetime import datetime
    >>> from pmemo.models import Scope
    >>> def said(group, text, n):
    ...     return Line(Turn(1, Scope.of(group_id=group), 1, "user", text, "Bo", datetime(2026, 3, 1)), text, n)
    >>> print(shown([said("a", "I'm vegan", 0), said("b", "hi", None), said("b", "I live in Oslo", 1)]))
    ## chat 1
    [0] 2026-03-01 Bo: I'm vegan
    ## chat 2
    (context) 2026-03-01 Bo: hi
    [1] 2026-03-01 Bo: I live in Oslo
    """
    chats = chat_numbers(lines)
    several = max(chats, default=1) > 1
    out = []
    for k, line in enumerate(lines):
        if several and (k == 0 or chats[k] != chats[k - 1]):
            out.append(f"## chat {chats[k]}")
        who = line.turn.actor or line.turn.role
        day = f"{line.turn.timestamp:%Y-%m-%d}"
        text = " ".join(line.text.split())
        if line.number is None:
            cut = text[:CONTEXT_CHARS] + ("…" if len(text) > CONTEXT_CHARS else "")
            out.append(f"(context) {day} {who}: {cut}")
        else:
            out.append(f"[{line.number}] {day} {who}: {text}")
    return "\n".join(out)
