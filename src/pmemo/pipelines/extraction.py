"""Profile extraction: a batch of turns → candidate facts about people → the upsert rules → the store.

A fact is about one person: the speaker for first-person statements, the person a statement
names for third-person ones ("霓霓对花生过敏"); the turn is its source either way. With an
LLM, one JSON prompt per batch that extracts only explicit statements; without one (or when
it fails), the rules in ``extract_rules`` on each statement ``attribution`` cut out. Runs in
the background worker; a re-run of the same turn changes nothing (a fact already sourced
from the turn is skipped).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

from ..config import Settings
from ..errors import Conflict, LLMError
from ..llms.base import LLM
from ..models import Candidate, Fact, Scope, Turn, epoch_of
from ..people.resolve import Resolver
from ..people.statements import statements
from ..prompts.facts import FactOut, FactsOut, batch_facts_prompt
from ..prompts.transcript import LLM_BATCH
from ..rules.attribution import Attributed
from ..rules.extract_rules import CORRECTED, extract
from ..stores.base import ProfileStoreProtocol
from ..tiers.profile import decide

log = logging.getLogger("pmemo")
RETRIES = 3


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
        facts = store.facts(scope, history=True, subject=cand.subject)  # keyed by whom it is about
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


def extract_batch(store: ProfileStoreProtocol, llm: LLM | None, settings: Settings, turns: Sequence[Turn],
                  people: Resolver | None = None, parts: dict[int, list[Attributed]] | None = None) -> list[Fact]:
    """Extract and store the facts a batch of turns states, each under the person it is about
    (the speaker, or a person a statement names; the turn stays its source). With an LLM, one
    call per batch; when it fails or talks garbage, the rules for every turn (on ``parts``, the
    turns' statements, when the caller has them)."""
    said = [t for t in turns if t.role == "user"]  # what the assistant says is no fact about anyone
    pairs: list[tuple[Turn, Candidate]] = []
    if llm is not None and said:
        try:
            pairs = _from_batch(llm, said, people)
        except LLMError as exc:
            log.warning("fact extraction fell back to rules: %s", exc)
            llm = None
    if llm is None:
        for turn in said:
            for part in parts[turn.id] if parts and turn.id in parts else statements(turn, people):
                who = part.subject or turn.subject
                mentioned = tuple(p for p in part.mentioned if p != who)
                pairs.extend((turn, dataclasses.replace(c, subject=who, mentioned=mentioned))
                             for c in extract(part.text, turn.timestamp))
    out = []
    for turn, cand in pairs:
        fact = upsert(store, turn.scope.owner_scope(), cand, turn.id, epoch_of(turn.timestamp), settings)
        if fact is not None:
            out.append(fact)
    return out


def _from_batch(llm: LLM, turns: list[Turn], people: Resolver | None) -> list[tuple[Turn, Candidate]]:
    out = []
    for start in range(0, len(turns), LLM_BATCH):
        chunk = turns[start : start + LLM_BATCH]
        reply = llm.complete_json(*batch_facts_prompt(chunk), FactsOut)
        for f in reply.facts:
            cand = _from_llm(f)
            if cand is None or f.message >= len(chunk):
                continue
            turn = chunk[f.message]
            who = _named(f.about, turn, people) if f.about.strip() else turn.subject
            if who is not None:
                out.append((turn, dataclasses.replace(cand, subject=who)))
    return out


def _named(name: str, turn: Turn, people: Resolver | None) -> str | None:
    """The person an LLM says a fact is about, if the name resolves to exactly one."""
    if name.strip() in (turn.actor or "",):
        return turn.subject
    found = {m.person_ids[0] for m in people.resolve(name, turn.scope) if not m.ambiguous} if people else set()
    return found.pop() if len(found) == 1 else None
