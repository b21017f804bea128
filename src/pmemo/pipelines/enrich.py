"""What the background learns from new turns, step by step: people and their names, facts,
agenda items, graph triples, and per turn its episodes and compaction (issue 45 §3).

Each step is its own job kind (``enrich.<step>``). A turn job runs them in order right after
embedding (no queue round trip for the common case); a step that raises is queued as its own
job for the turns it was about, with the steps that need what it writes ("then"): that job is
retried with the store's backoff, lands in the failed-jobs list after the last try with its
error, and can be queued again (``Memory.retry_jobs``, ``pmemo jobs retry``). The turn and its
embedding are stored before any step runs, so a failing step never loses a turn. Steps are
idempotent: a re-run adds nothing already learned from the turn.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import Unavailable
from ..graph.learn import learn as graph_learn
from ..models import Fact, Turn
from ..people.statements import statements
from ..ports.jobs import JobPort
from ..reads_first import give_way
from ..rules.attribution import Attributed
from ..rules.sentences import unnamed
from ..text.notices import content_free
from ..tiers.episodes import Episodes
from . import agenda, reread
from .answers import with_questions
from .extraction import extract_batch, statement_reader
from .graph_clauses import graph_clauses

log = logging.getLogger("pmemo")
PREFIX = "enrich."
BATCH_STEPS = ("people", "facts", "agenda", "graph")  # in this order: each may read what one before wrote
NEEDS = {"facts": {"people"}, "agenda": {"people"}, "graph": {"people", "facts"}}
EPISODES = "episodes"  # per turn: a session's first turn closes the owner's others; compaction
JOB_STEPS = (*BATCH_STEPS, EPISODES)


def kind_of(step: str) -> str:
    """The job kind of an enrichment step.

    >>> kind_of("facts"), step_of("enrich.facts"), step_of("turns")
    ('enrich.facts', 'facts', None)
    """
    return PREFIX + step


def step_of(kind: str) -> str | None:
    """The enrichment step a job kind runs, or None for another kind."""
    step = kind.removeprefix(PREFIX)
    return step if kind.startswith(PREFIX) and step in JOB_STEPS else None


def after(step: str, steps: Sequence[str]) -> list[str]:
    """The steps of ``steps`` that need ``step``'s output, directly or through another: they wait
    for it when it fails.

    >>> after("people", ["facts", "agenda", "graph"]), after("agenda", ["graph"]), after("facts", ["agenda", "graph"])
    (['facts', 'agenda', 'graph'], [], ['graph'])
    """
    waiting = {step}
    for later in steps:
        if NEEDS.get(later, set()) & waiting:
            waiting.add(later)
    return [s for s in steps if s in waiting and s != step]


class Batch:
    """A batch of new turns as the steps read them: the turns read for facts (no notices or
    media; answers with their questions) and their statements, each worked out once."""

    def __init__(self, worker: Any, turns: list[Turn]) -> None:
        self.worker, self.turns = worker, turns
        self.people = worker.tiers.people

    @functools.cached_property
    def read(self) -> list[Turn]:
        """The turns whose words are read: "@提问的人 对，我也是" with its question."""
        kept = [t for t in self.turns if not content_free(t)]
        return with_questions(self.worker.store, self.people, kept)

    @functools.cached_property
    def parts(self) -> dict[int, list[Attributed]]:
        """Each said turn's statements, under the person each is about (a read under way goes
        first between two turns: reads_first)."""
        out = {}
        for t in self.read:
            if t.role == "user":
                give_way()
                out[t.id] = statements(t, self.people)
        return out


def run(worker: Any, turns: list[Turn], steps: Sequence[str] = BATCH_STEPS) -> None:
    """Run ``steps`` of ``turns`` in order; a step that raises is queued as its own job with the
    steps that need it, and the others go on."""
    if not turns:
        return
    batch, todo = Batch(worker, turns), list(steps)
    if todo[:1] == ["people"]:  # names are learned before the registry is held for the rest
        todo = _attempt(batch, todo)
    with batch.people.batch():  # the registry as learning left it, read once for the batch
        while todo:
            todo = _attempt(batch, todo)


def _attempt(batch: Batch, todo: list[str]) -> list[str]:
    """Run the first of ``todo``; the steps left to run after it (those that need it go with
    its job when it fails)."""
    step, rest = todo[0], todo[1:]
    give_way()  # between two steps, a read under way goes first (reads_first)
    try:
        STEPS[step](batch)
    except Unavailable:
        raise  # the database went away: the job runs again once it is back, this step too
    except Exception:  # a step must never lose or block a turn: it is tried again
        then = after(step, rest)
        log.exception("%s of %d turn(s) failed: queued to try again", step, len(batch.turns))
        queue(batch.worker.store.jobs, step, batch.turns, then)
        return [s for s in rest if s not in then]
    return rest


def run_job(worker: Any, step: str, payload: dict[str, Any]) -> None:
    """A queued step: run it on the payload's turns that are still stored (raising, so that the
    job is retried), then the steps that waited for it as ``run`` does."""
    found = worker.store.turns.get_turns([int(i) for i in payload["turns"]])
    turns = [found[int(i)] for i in payload["turns"] if int(i) in found]
    if not turns:
        return
    if step == EPISODES:
        episodes(worker, turns)
        return
    batch = Batch(worker, turns)
    with contextlib.nullcontext() if step == "people" else batch.people.batch():
        STEPS[step](batch)
    run(worker, turns, [s for s in payload.get("then", []) if s in STEPS])


def queue(jobs: JobPort, step: str, turns: Sequence[Turn], then: Sequence[str]) -> None:
    """One ``enrich.<step>`` job per chat of ``turns`` (its scope names whose it is)."""
    chats: dict[tuple[str, str, str], list[int]] = {}
    for t in turns:
        chats.setdefault((t.scope.tenant_id, t.scope.agent_id, t.scope.owner), []).append(t.id)
    for (tenant, agent, chat), ids in chats.items():
        jobs.enqueue(kind_of(step), {"tenant": tenant, "agent": agent, "owner": chat, "turns": ids,
                                     "then": list(then)})


def after_turns(worker: Any, turns: list[Turn]) -> None:
    """New turns' episodes and compaction; queued as an ``enrich.episodes`` job when it fails."""
    try:
        episodes(worker, turns)
    except Unavailable:
        raise
    except Exception:
        log.exception("episodes of %d turn(s) failed: queued to try again", len(turns))
        queue(worker.store.jobs, EPISODES, turns, [])


def episodes(worker: Any, turns: list[Turn]) -> None:
    """The owners' other sessions closed as episodes by the sessions' first turns among ``turns``
    (all at once: a read per owner, one write); past the compaction budget, each turn's oldest
    turns folded."""
    settings = worker.settings
    found = Episodes(worker.store, worker.tiers, settings)
    found.close_before([t for t in turns if t.step == 1])
    if settings.compact_budget_tokens:
        for turn in turns:
            found.compact(turn)


def people_batch(worker: Any, turns: list[Turn]) -> None:
    """What a batch of new turns says about people: every batch step in order."""
    run(worker, turns)


def _people(batch: Batch) -> None:
    """Nicknames and name forms first (a fact may name someone by the nickname the message
    before gave); turns read before these names (or a display name first used in the batch)
    were known are read again (reread.py); system notices (renames, joins, leaves) update the
    registry."""
    store, people = batch.worker.store, batch.people
    reread.queue(store, batch.turns, taught=people.learn(batch.turns) > 0)
    people.notices(batch.turns)


def _facts(batch: Batch) -> None:
    """The facts the batch states, each under the person it is about; their sentences embedded
    now, so that a context ranks them by meaning from the cache."""
    worker, settings = batch.worker, batch.worker.settings
    if not settings.extract_facts:
        return
    model, embed = statement_reader(getattr(worker, "statements", None), worker.tiers.embed, settings)
    facts: list[Fact] = extract_batch(worker.store, worker.tiers.llm, settings, batch.read, batch.people,
                                      batch.parts, model, embed, _names(batch.people, batch.turns))
    if facts and settings.w_fact_meaning > 0:
        worker.tiers.embed.passages(sorted({unnamed(f) for f in facts}))


def _agenda(batch: Batch) -> None:
    """The plans each turn states, and the ones it reports on closed."""
    for turn in batch.read:
        if turn.id in batch.parts:
            give_way()
            agenda.note(batch.worker.store.plans, turn, batch.parts[turn.id])


def _graph(batch: Batch) -> None:
    """The batch's facts and links as triples (issue 20)."""
    worker = batch.worker
    if worker.settings.extract_graph:
        store = worker.store
        graph_learn(store.graph, store.profile, worker.tiers.llm, worker.settings, batch.read, batch.people,
                    batch.parts, graph_clauses(worker.tiers.llm, worker.settings, getattr(worker, "statements", None),
                                               worker.tiers.embed, batch.read, batch.people, batch.parts))


STEPS: dict[str, Callable[[Batch], None]] = {"people": _people, "facts": _facts, "agenda": _agenda,
                                             "graph": _graph}


def _names(people: Any, turns: list[Turn]) -> Callable[[str | None], str]:
    """A person's display name now, for the clause a fact keeps ("周霓：花粉过敏")."""
    tenant = turns[0].scope.tenant_id if turns else ""

    @functools.lru_cache(maxsize=64)
    def name_of(person: str | None) -> str:
        found = people.person(tenant, person) if person else None
        return (found.name or "") if found is not None else ""

    return name_of
