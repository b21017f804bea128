"""Triples with a language model: a JSON schema for the reply (pydantic), names resolved to
people without the model. Two prompts, each a pure function paired with the response model:
``clause_triples_prompt`` numbers only a chat's candidate clauses (issue 44 §8: the pre-filter
the facts call uses, ``pipelines.prefilter``), a neighbouring message either side shown as
context, and a triple that names no clause it was sent is dropped; ``triples_prompt`` numbers
every message of a batch (``llm_prefilter`` off, the behaviour before; ``prompts.transcript``
keeps the batch size).

>>> system, user = triples_prompt([])
>>> "works_at" in system and user == ""
True
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from ..llms.base import LLM
from ..models import Turn
from ..people.resolve import Resolver
from ..prompts.facts import CHATS, Line, chat_numbers, clause_replies, shown
from ..prompts.transcript import LLM_BATCH, numbered
from ..stores.base import EntityRef
from .predicates import PREDICATES, Said, person, said

log = logging.getLogger("pmemo")


class TripleOut(BaseModel):
    message: int | None = Field(default=None, ge=0, description="the number of the message that states it")
    clause: int | None = Field(default=None, ge=0, description="the number of the clause that states it")
    chat: int | None = Field(default=None, ge=1, description="the chat (## chat c) of that clause, of several")
    subject: str = Field(default="", max_length=64, description="whom or what it is about; empty: the speaker")
    predicate: str = Field(pattern=r"^[a-z][a-z_]{1,39}$")
    object: str = Field(min_length=1, max_length=120)
    object_kind: Literal["person", "place", "org", "thing", "value"] = "thing"
    qualifier: str | None = Field(default=None, max_length=40)
    ends: bool = False
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    aliases: list[str] = Field(default_factory=list, max_length=5)


class TriplesOut(BaseModel):
    triples: list[TripleOut] = Field(default_factory=list, max_length=200)


_KNOWN = ", ".join(PREDICATES)
SYSTEM = (
    "You extract a graph of people and things from the messages of a chat below, each with its number: "
    "triples (subject, predicate, object) that a message states plainly. The subject is the speaker (leave subject "
    "empty) or the person or thing the message names. Use these predicates when they fit: "
    f"{_KNOWN}; otherwise a short snake_case verb phrase. object_kind is person, place, org, thing, "
    "or value for a plain value (a job title, a major, a date). qualifier refines the predicate "
    "(a pet's species: cat). Set ends=true when the message says something no longer holds ('I "
    "don't like cats any more'). aliases: other names the message gives the object. Do not guess "
    "or infer; questions, wishes and hypotheticals state nothing. Keep names in the message's "
    'language. Return {"triples": []} when nothing is stated.'
)
CLAUSES_SYSTEM = SYSTEM + (
    " Only some clauses are numbered ([n]); a line that starts with (context) is a neighbouring message "
    "shown for context only: extract nothing from it. Set clause to the number n of the clause that "
    "states each triple; a triple without one is dropped."
)
CHATS_SYSTEM = CLAUSES_SYSTEM + CHATS  # several chats in one call (``prefilter.pack``)


def triples_prompt(turns: Sequence[Turn]) -> tuple[str, str]:
    """Every message of a batch, numbered (``llm_prefilter`` off: the prompt as before)."""
    return SYSTEM, numbered(turns)


def clause_triples_prompt(lines: Sequence[Line]) -> tuple[str, str]:
    """Chats' candidate clauses, numbered, with their context (``prompts.facts.shown``): one
    chat's, or several small chats' each under its header."""
    return (CHATS_SYSTEM if max(chat_numbers(lines), default=1) > 1 else CLAUSES_SYSTEM), shown(lines)


def extract(llm: LLM, turns: Sequence[Turn], people: Resolver) -> list[tuple[Turn, EntityRef, Said, float]]:
    """(turn, subject, what it says, confidence) for each triple the model found; a subject that
    is no one the resolver knows is a thing of that name, a person object nobody knows is left
    out. Raises ``LLMError`` when a call fails or its reply does not validate."""
    out: list[tuple[Turn, EntityRef, Said, float]] = []
    for start in range(0, len(turns), LLM_BATCH):
        chunk = list(turns[start : start + LLM_BATCH])
        reply = llm.complete_json(*triples_prompt(chunk), TriplesOut)
        for t in reply.triples:
            if t.message is None or t.message >= len(chunk):
                continue
            found = _found(t, chunk[t.message], people)
            if found is not None:
                out.append(found)
    return out


def from_clauses(llm: LLM, batches: Sequence[Sequence[Line]], people: Resolver
                 ) -> tuple[list[tuple[Turn, EntityRef, Said, float]], set[int]]:
    """What the model finds in each chat's candidate clauses (one call per batch, as
    ``prefilter.chat_batches`` cut them), and the ids of the turns whose call failed (a timeout,
    garbage: the rules read them). A triple must name a clause it was sent (``clause``, or
    ``message`` from a model that says so); one without is dropped."""
    found, failed = clause_replies(llm, batches, clause_triples_prompt, TriplesOut, lambda r: r.triples,
                                   "graph extraction (to the rules)")
    out = [triple for line, t in found if (triple := _found(t, line.turn, people)) is not None]
    return out, failed


def _found(t: TripleOut, turn: Turn, people: Resolver) -> tuple[Turn, EntityRef, Said, float] | None:
    """A triple the model says ``turn`` states, its names resolved; None when its subject or its
    person object is no one known."""
    who = _person(t.subject, turn, people) if t.subject.strip() else turn.subject
    subject = (person(who) if who is not None
               else EntityRef("thing", t.subject.strip()) if t.subject.strip() else None)
    obj = _object(t, turn, people)
    return (turn, subject, obj, t.confidence) if subject is not None and obj is not None else None


def _object(t: TripleOut, turn: Turn, people: Resolver) -> Said | None:
    """The object as the predicate table has it (a model that calls an employer a value one day
    and an org the next must not make two employers), else as the model says."""
    known = PREDICATES.get(t.predicate)
    kind = known.object_kind if known is not None else None if t.object_kind == "value" else t.object_kind
    if kind == "person":
        person = _person(t.object, turn, people)
        return None if person is None else said(t.predicate, person, t.qualifier, t.ends, kind="person")
    found = said(t.predicate, t.object, t.qualifier, t.ends, kind=kind)
    if found.object is None or not t.aliases:
        return found
    aliases = tuple(a.strip() for a in t.aliases if a.strip() and a.strip() != found.value)
    return Said(found.predicate, EntityRef(found.object.kind, found.value, None, aliases), found.value,
                found.qualifier, found.ends)


def _person(name: str, turn: Turn, people: Resolver) -> str | None:
    """The one person ``name`` names (the speaker by their display name), else None."""
    name = name.strip()
    if name == (turn.actor or "") and turn.subject is not None:
        return turn.subject
    found = {m.person_ids[0] for m in people.resolve(name, turn.scope) if not m.ambiguous}
    return found.pop() if len(found) == 1 else None
