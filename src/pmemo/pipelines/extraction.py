"""Profile extraction: a turn → candidate facts → the upsert rules → the store.

With an LLM, a JSON prompt that extracts only explicit statements; without one (or when
it fails), the rules in ``extract_rules``. Runs in the background worker; a re-run of
the same turn changes nothing (a fact already sourced from the turn is skipped).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from ..config import Settings
from ..errors import Conflict, LLMError
from ..llms.base import LLM
from ..models import Fact, Scope, Turn, epoch_of
from ..stores.base import ProfileStoreProtocol
from ..tiers.profile import Candidate, decide
from .extract_rules import CORRECTED, extract
from .profile_prompts import FactOut, FactsOut, facts_prompt

log = logging.getLogger("pmemo")
RETRIES = 3


def candidates(turn: Turn, llm: LLM | None) -> tuple[list[Candidate], str]:
    """(candidates, method): the LLM's explicit facts, or the rules' (offline / on failure)."""
    if turn.role != "user":
        return [], "skipped"  # what the assistant says is not a fact about the person
    if llm is not None:
        try:
            reply = llm.complete_json(*facts_prompt(turn), FactsOut)
            return [c for c in (_from_llm(f) for f in reply.facts) if c is not None], "llm"
        except LLMError as exc:
            log.warning("fact extraction fell back to rules: %s", exc)
    return extract(turn.content, turn.timestamp), "rules"


def _from_llm(out: FactOut) -> Candidate | None:
    expires = None
    if out.expires:
        try:
            day = datetime.fromisoformat(out.expires[:10]).replace(tzinfo=UTC)
            expires = day.timestamp() + 86400
        except ValueError:
            expires = None
    if out.correction:
        return Candidate(
            out.category,
            out.key.strip(),
            out.value.strip(),
            max(out.confidence, CORRECTED),
            "corrected",
            0.6,
            expires,
        )
    return Candidate(
        out.category, out.key.strip(), out.value.strip(), out.confidence, "explicit", 0.5, expires
    )


def upsert(
    store: ProfileStoreProtocol,
    scope: Scope,
    cand: Candidate,
    turn_id: int | None,
    at: float,
    settings: Settings,
) -> Fact | None:
    """Apply the upsert rules for one candidate; re-read and retry if another writer won."""
    for attempt in range(RETRIES):
        facts = store.facts(scope, history=True)
        decision = decide(
            cand,
            facts,
            turn_id if turn_id is not None else -1,
            step=settings.fact_confidence_step,
            cap=settings.fact_confidence_cap,
            threshold=settings.fact_merge_similarity,
        )
        try:
            return store.upsert_fact(scope, decision, cand, turn_id, at)
        except Conflict:
            if attempt == RETRIES - 1:
                raise
    return None


def extract_turn(
    store: ProfileStoreProtocol, llm: LLM | None, settings: Settings, turn: Turn
) -> list[Fact]:
    """Extract and store the facts one turn states; returns the facts touched."""
    found, _ = candidates(turn, llm)
    scope = turn.scope.owner_scope()
    out = []
    for cand in found:
        fact = upsert(store, scope, cand, turn.id, epoch_of(turn.timestamp), settings)
        if fact is not None:
            out.append(fact)
    return out
