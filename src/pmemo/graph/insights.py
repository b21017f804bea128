"""Insights and portraits of a person in one chat (with a language model; offline, facts only).

An insight is what nobody said but what someone says suggests ("often complains about math
exams → probably a student"). It is kept apart from facts, labelled inferred, and carries
the turns it was inferred from: forgetting one of them takes it away. The ``insights`` job
runs after enough new triples about a person in a chat (``learn``), and replaces that
person's insights there. A portrait (``portrait``) is written from the facts and insights
of that chat; without a model it is the facts, and says so.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from ..config import Settings
from ..errors import LLMError
from ..llms.base import LLM
from ..models import Fact, PersonSummary, Scope, Turn
from ..ports.graph import GraphPort
from ..rules.sentences import fact_sentence
from ..stores.base import FullStore
from ..tiers.people import profile_view
from .read import person_names

log = logging.getLogger("pmemo")
RECENT_TURNS = 40  # what a person said lately in the chat, for the model to infer from


class InsightOut(BaseModel):
    text: str = Field(min_length=1, max_length=200)
    evidence: list[int] = Field(min_length=1, max_length=10, description="numbers of the messages it rests on")
    confidence: float = Field(default=0.6, ge=0.0, le=1.0)


class InsightsOut(BaseModel):
    insights: list[InsightOut] = Field(default_factory=list, max_length=5)


class PortraitOut(BaseModel):
    text: str = Field(min_length=1, max_length=1200)


INSIGHTS_SYSTEM = (
    "You read what one person said in a chat, and the facts known about them, and note up to five "
    "careful inferences about them that nobody stated outright (e.g. 'often complains about math "
    "exams → probably a student'). Each names the numbers of the messages it rests on. Never repeat "
    "a known fact; never infer health, religion, politics or sexuality. Write in the messages' "
    'language. Return {"insights": []} when nothing is worth inferring.'
)
PORTRAIT_SYSTEM = (
    "Write a short portrait (at most five sentences) of a person for an assistant that talks to them, "
    "from the facts known and the inferences listed. Say inferred things as likely, never as fact. "
    "Invent nothing. Write in the language most of the facts are in."
)


def insights_prompt(name: str, facts: Sequence[str], turns: Sequence[Turn]) -> tuple[str, str]:
    said = "\n".join(f"[{n}] {t.timestamp:%Y-%m-%d}: {t.content}" for n, t in enumerate(turns))
    known = "\n".join(f"- {f}" for f in facts) or "- (none)"
    return INSIGHTS_SYSTEM, f"Person: {name}\nKnown facts:\n{known}\n\nWhat they said:\n{said}"


def refresh(graph: GraphPort, store: FullStore, llm: LLM | None, settings: Settings, payload: dict[str, Any]) -> int:
    """The ``insights`` job: infer a person's insights in one chat afresh; how many there are now.
    A failed or invalid reply leaves the ones there were (logged). ``store``: the person's turns,
    facts and name."""
    scope = Scope(payload["tenant"], payload["agent"], payload["owner"])
    person = str(payload["person"])
    if llm is None:
        return 0
    ids = store.turns_by(scope.tenant_id, person, scope)[-RECENT_TURNS:]
    found = store.turns.get_turns(ids)
    turns = [found[i] for i in ids if i in found]
    if not turns:
        return 0
    facts = _facts(store, settings, scope, person)
    name = _name(store, scope, person)
    try:
        reply = llm.complete_json(*insights_prompt(name, [_sentence(name, f) for f in facts], turns), InsightsOut)
    except LLMError as exc:
        log.warning("insights for %s left as they were: %s", person, exc)
        return len(graph.insights(scope, person))
    rows = []
    for item in reply.insights:
        evidence = sorted({turns[n].id for n in item.evidence if 0 <= n < len(turns)})
        if evidence:  # an insight resting on no message it was shown is a guess about nothing
            rows.append((item.text.strip(), item.confidence, evidence))
    graph.replace_insights(scope, person, rows)
    return len(rows)


def portrait(graph: GraphPort, store: FullStore, llm: LLM | None, settings: Settings, scope: Scope,
             person: str) -> PersonSummary:
    """A short portrait of ``person`` as the chat of ``scope`` knows them: from facts and insights
    with a language model; from the facts alone without one (or when it fails), saying so."""
    facts = _facts(store, settings, scope, person)
    found = graph.insights(scope.owner_scope(), person)
    name = _name(store, scope, person)
    said = [_sentence(name, f) for f in facts]
    if llm is not None and (said or found):
        inferred = [f"- (inferred) {i.text}" for i in found]
        user = "Facts:\n" + "\n".join(f"- {s}" for s in said) + "\n\nInferences:\n" + "\n".join(inferred)
        try:
            text = llm.complete_json(PORTRAIT_SYSTEM, f"Person: {name}\n{user}", PortraitOut).text.strip()
            return PersonSummary(person, text, "llm", tuple(f.id for f in facts), tuple(i.id for i in found))
        except LLMError as exc:
            log.warning("portrait of %s from facts only: %s", person, exc)
    text = "; ".join(said) if said else f"Nothing is known about {name} here yet"
    note = " (from stated facts only; nothing inferred)" if said else ""
    return PersonSummary(person, text + note, "facts", tuple(f.id for f in facts), ())


def _facts(store: FullStore, settings: Settings, scope: Scope, person: str) -> list[Fact]:
    return profile_view(store, scope.tenant_id, scope.agent_id, person, scope.owner, False,
                        settings.private_facts_in_groups)


def _name(store: FullStore, scope: Scope, person: str) -> str:
    return person_names(store, scope.tenant_id, {person})[person]


def _sentence(name: str, fact: Fact) -> str:
    return fact_sentence(name, fact.category, fact.key, fact.value)

