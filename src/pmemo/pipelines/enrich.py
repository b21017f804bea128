"""The background hook after each turn: profile extraction, episodes, compaction.

Called once per new turn from the worker. Each part is guarded: a failure is logged
and never fails the job (the turn and its embedding are already stored).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from ..errors import Unavailable
from ..graph.learn import learn as graph_learn
from ..models import Fact, Turn
from ..people.statements import statements
from ..rules.attribution import Attributed
from ..rules.sentences import unnamed
from ..text.notices import content_free
from ..tiers.episodes import Episodes
from . import agenda, reread
from .answers import with_questions
from .extraction import extract_batch, statement_reader

log = logging.getLogger("pmemo")


def after_turn(worker: Any, turn: Turn) -> None:
    """On a session's first turn, close the owner's other sessions as episodes; past the
    compaction budget, fold the oldest turns."""
    settings, store, tiers = worker.settings, worker.store, worker.tiers
    episodes = Episodes(store, tiers, settings)
    if turn.step == 1:
        _guard("session episodes", lambda: episodes.close_others(turn))
    if settings.compact_budget_tokens:
        _guard("compaction", lambda: episodes.compact(turn))


def people_batch(worker: Any, turns: list[Turn]) -> None:
    """What a batch of new turns says about people: nicknames and name forms first (a fact
    may name someone by the nickname the message before gave), then facts and agenda items,
    each under the person it is about."""
    if not turns:
        return
    store, people, settings = worker.store, worker.tiers.people, worker.settings
    learned: list[int] = []
    _guard("alias learning", lambda: learned.append(people.learn(turns)))
    if learned and learned[0]:  # turns other batches read before these names were known
        _guard("re-reading", lambda: reread.queue(store, turns))
    # system notices update the registry; they and media without words are never read for facts
    _guard("notices", lambda: people.notices(turns))
    turns = [t for t in turns if not content_free(t)]
    turns = with_questions(store, people, turns)  # "@提问的人 对，我也是": read with its question
    with people.batch():  # the registry as learning left it, read once for the batch
        parts: dict[int, list[Attributed]] = {}
        _guard("attribution", lambda: parts.update({t.id: statements(t, people) for t in turns if t.role == "user"}))
        if settings.extract_facts:
            facts: list[Fact] = []
            model, embed = statement_reader(getattr(worker, "statements", None), worker.tiers.embed, settings)
            _guard("fact extraction", lambda: facts.extend(extract_batch(
                store, worker.tiers.llm, settings, turns, people, parts, model, embed, _names(people, turns))))
            if facts and settings.w_fact_meaning > 0:  # a context ranks them by their sentences' meaning:
                # embedded now, in the background, a context reads them from the cache
                sentences = sorted({unnamed(f) for f in facts})
                _guard("fact sentences", lambda: worker.tiers.embed.passages(sentences))
        for turn in turns:
            if turn.id in parts:
                _guard("agenda", functools.partial(agenda.note, store, turn, parts[turn.id]))
        if settings.extract_graph:  # graph (issue 20): the batch's facts and links as triples
            _guard("graph", lambda: graph_learn(store, worker.tiers.llm, settings, turns, people, parts))


def _names(people: Any, turns: list[Turn]) -> Callable[[str | None], str]:
    """A person's display name now, for the clause a fact keeps ("周霓：花粉过敏")."""
    tenant = turns[0].scope.tenant_id if turns else ""

    @functools.lru_cache(maxsize=64)
    def name_of(person: str | None) -> str:
        found = people.person(tenant, person) if person else None
        return (found.name or "") if found is not None else ""

    return name_of


def _guard(what: str, action: Callable[[], Any]) -> None:
    try:
        action()
    except Unavailable:
        raise  # the database went away: the whole job runs again once it is back, this part too
    except Exception:  # background enrichment must never lose or block a turn
        log.exception("%s failed", what)
