"""What a batch of new turns adds to the graph (background, after the batch's facts).

Three sources, in time order per chat: the profile facts the batch stated or restated (each
mapped by ``predicates.from_fact``), and the links facts do not hold, from a language model
or, without one or when its call fails, from the rules (relations between people, origins).
The model reads the candidate clauses the pre-filter picks (issue 44 §8), one call per chat's
batch; with ``llm_prefilter`` off, every message, one call per batch. Every triple keeps the
turn that said it. With a language model, a person about whom ``insight_every`` new triples
were learned in a chat gets an ``insights`` job.

A fact corrected by hand (``correct_fact``) changes its value and its triples in one
transaction: both are written, or neither.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence

from ..config import Settings
from ..errors import LLMError
from ..llms.base import LLM
from ..models import Fact, Scope, Turn, epoch_of
from ..people.resolve import Resolver
from ..people.statements import statements
from ..ports.facts import FactPort
from ..ports.graph import EntityRef, GraphPort, NewTriple
from ..ports.unit import UnitOfWork
from ..prompts.facts import Line
from ..rules.attribution import Attributed
from . import llm as llm_triples
from .predicates import Said, from_fact, person, predicate
from .rules import origins, relations

log = logging.getLogger("pmemo")
RULES_CONFIDENCE = 0.8

Found = tuple[Turn, EntityRef, Said, float, int | None]  # turn, subject, what, confidence, fact id


def learn(graph: GraphPort, facts: FactPort, llm: LLM | None, settings: Settings,
          turns: Sequence[Turn], people: Resolver, parts: Mapping[int, list[Attributed]] | None = None,
          clauses: Sequence[Sequence[Line]] | None = None) -> int:
    """Record the triples of ``turns`` (``parts``: their statements, when the caller cut them;
    ``facts``: where the batch's facts are); returns how many triples are new. ``clauses``: what
    the pre-filter sends the LLM (``prefilter.chat_batches`` of the turns' candidate clauses),
    read with ``llm_prefilter`` on: one call per chat's batch, a chat whose call fails read by
    the rules; without them, or with the setting off, every message goes, as before."""
    said = [t for t in turns if t.role == "user"]
    if not said:
        return 0
    found = _from_facts(facts, said)
    offline = said if llm is None else []
    if llm is not None and settings.llm_prefilter and clauses is not None:
        got, failed = llm_triples.from_clauses(llm, clauses, people)
        found += [(*said_so, None) for said_so in got]
        offline = [t for t in said if t.id in failed]
        if failed and failed == {line.turn.id for lines in clauses for line in lines if line.number is not None}:
            llm = None  # every call failed: no insights from this batch, as before
    elif llm is not None:
        try:
            found += [(*said_so, None) for said_so in llm_triples.extract(llm, said, people)]
        except LLMError as exc:
            log.warning("graph extraction fell back to rules: %s", exc)
            llm, offline = None, said
    found += _from_rules(offline, people, parts or {})
    by_scope: dict[Scope, list[NewTriple]] = {}
    for turn, subject, what, confidence, fact in sorted(found, key=lambda f: (epoch_of(f[0].timestamp), f[0].id)):
        by_scope.setdefault(turn.scope.owner_scope(), []).append(
            _triple(subject, what, epoch_of(turn.timestamp), confidence, turn.id, fact))
    added = 0
    for scope, items in by_scope.items():
        done = graph.add_triples(scope, items)
        new = Counter(item.subject.person for item, (_, action) in zip(items, done, strict=True)
                      if action == "added" and item.subject.person is not None)
        added += sum(1 for _, action in done if action == "added")
        if llm is not None and settings.insight_every:
            _schedule(graph, scope, new, settings.insight_every)
    return added


def correct_fact(unit: UnitOfWork, facts: FactPort, graph: GraphPort | None, fact_id: int, value: str,
                 version: int | None, at: float, before: str) -> Fact:
    """Correct a fact's value by hand (``edit_fact``; ``before``: the value it had) and, with a
    ``graph``, its triples (``fact_edited``), in one transaction of ``unit``: a failure between
    the two leaves neither."""
    with unit.tx():
        fact = facts.edit_fact(fact_id, value, version, at)
        if graph is not None and fact.value != before:  # the graph says the new value too
            fact_edited(graph, fact, at)
    return fact


def fact_edited(graph: GraphPort, fact: Fact, at: float) -> None:
    """A fact corrected by hand: the triples saying its old value end at ``at`` and its new
    value starts there (provenance: the fact), as a restatement would."""
    graph.end_fact_triples(fact.id, at)
    if fact.subject_id is not None and fact.status == "current":
        graph.add_triples(fact.scope, [_triple(person(fact.subject_id), what, at, fact.confidence, None, fact.id)
                                       for what in from_fact(fact.key, fact.value)])


def _triple(subject: EntityRef, what: Said, at: float, confidence: float, turn_id: int | None,
            fact: int | None) -> NewTriple:
    p = predicate(what.predicate)
    return NewTriple(subject, what.predicate, what.object, what.value, what.qualifier, at, confidence, turn_id,
                     fact, p.functional, p.symmetric, what.ends, (p.opposite,) if p.opposite else ())


def _from_facts(facts: FactPort, turns: Sequence[Turn]) -> list[Found]:
    """The batch's facts (new, reinforced or superseded by it) as triples, once per source turn."""
    by_id = {t.id: t for t in turns}
    out: list[Found] = []
    for fact in facts.facts_with(list(by_id)):
        if fact.subject_id is None or fact.status not in ("current", "superseded"):
            continue
        for turn_id in (i for i in fact.sources if i in by_id):
            out += [(by_id[turn_id], person(fact.subject_id), what, fact.confidence, fact.id)
                    for what in from_fact(fact.key, fact.value)]
    return out


def _from_rules(turns: Sequence[Turn], people: Resolver, parts: Mapping[int, list[Attributed]]) -> list[Found]:
    out: list[Found] = []
    for turn in turns:
        found = people.resolve(turn.content, turn.scope)
        mentions = [(m.start, m.end, m.person_ids[0]) for m in found if not m.ambiguous]
        for subject, what in relations(turn.content, mentions, turn.subject):
            out.append((turn, person(subject), what, RULES_CONFIDENCE, None))
        for part in parts[turn.id] if turn.id in parts else statements(turn, people):
            who = part.subject or turn.subject
            if who is not None:
                out += [(turn, person(who), what, RULES_CONFIDENCE, None) for what in origins(part.text)]
    return out


def _schedule(graph: GraphPort, scope: Scope, new: Counter[str], every: int) -> None:
    """An insights job for each person about whom ``every`` new triples were learned here."""
    for who, count in new.items():
        graph.queue_insights(scope, who, count, every)
