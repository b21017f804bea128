"""Replay the synthetic group-chat scenario through pmemo and measure what DESIGN §6 promises.

Recall of what members said (with BM25 over the question's own chat measured in the same
run), nicknames learned from messages alone, facts attributed to the right person, profiles
scoped to a group, plans that surface near their day and not after, no leaks between chats,
the cost of the people section of a context, and ingest with speaker ids against without.

pmemo is driven only through its public ``Memory`` API, as a group-chat agent drives it:
messages in time order (``add_many``, one call per run of one chat), background jobs drained
before each read, every read made at the time the scenario asks it. Nothing is registered by
hand: the people registry learns only what turns carry (``actor_id`` and the display name).
Scoring is ``groupchat_score``'s; the report is a plain dict from ``groupchat_report.build_report``.

>>> from pmemo.eval.groupchat_gen import generate
>>> report = run(generate(0, messages=400), data_dir=tempfile.mkdtemp(), ingest_turns=300)  # doctest: +SKIP
>>> report["metrics"]["leaks"]  # doctest: +SKIP
0
"""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from statistics import mean
from typing import Any

from ..config import Settings
from ..models import Fact, Hit
from .baselines import BM25System
from .datasets import Query, Unit
from .embedcache import run_embedder
from .groupchat_context import PERSON_BUDGET, context_shape, person_cards
from .groupchat_gen import generate
from .groupchat_report import build_report
from .groupchat_scenario import LeakProbe, Message, PersonQuestion, Question, Scenario, summary
from .groupchat_score import alias_prf, followups_right, leaks, recall_at, subject_accuracy
from .machine import machine

TOP_K = 5  # R@5: what a search shows the agent
LEAK_LIMIT = 20  # a leak probe looks deeper than an agent would
CUE_BUDGET = 2000  # the context a cue is read into
RECENT_MESSAGES = 3  # the chat lines a context with the people section gets as ``recent``
INGEST_TURNS = 10_000
INGEST_BATCH = 100

OpenMemory = Callable[..., AbstractAsyncContextManager[Any]]
Reopen = Callable[[str, dict[str, Any]], AbstractAsyncContextManager[Any]]
# the names as read before issue 44 §6: every generated form a name, a nickname said anywhere good everywhere
NAMES_BEFORE = {"alias_guesses": "any", "aliases_per_chat": False}
# the people section as before issue 44 §3: the asker first, facts by the query's words, meaning, importance
CARDS_BEFORE = {"person_card": False}


def run(scenario: Scenario, *, embedder: str | Any = "hashing", data_dir: str | Path, settings: Settings | None = None,
        ingest_turns: int = INGEST_TURNS) -> dict[str, Any]:
    """Measure pmemo on ``scenario``; stores go in temporary folders under ``data_dir/stores``.

    ``ingest_turns``: the size of the one-group ingest throughput test (0 skips it).
    """
    return asyncio.run(
        run_async(scenario, embedder=embedder, data_dir=data_dir, settings=settings, ingest_turns=ingest_turns)
    )


async def run_async(scenario: Scenario, *, embedder: str | Any = "hashing", data_dir: str | Path,
                    settings: Settings | None = None, ingest_turns: int = INGEST_TURNS) -> dict[str, Any]:
    """``run`` for callers that already have an event loop."""
    # nothing from the environment here: the CLI builds Settings from it and passes them in
    settings, cached = run_embedder(embedder, settings or Settings(), data_dir)
    root = Path(data_dir)
    open_memory = _opener(root / "stores", settings, cached)
    started = time.perf_counter()
    try:
        parts = await _measure(scenario, open_memory, _reopener(settings, cached))
        parts["ingest"] = await _ingest_rates(scenario.seed, ingest_turns, open_memory) if ingest_turns else {}
    finally:
        cached.close()
    meta = {
        "seed": scenario.seed,
        "embedder": cached.model_id,
        "llm": settings.llm_model or None,
        "embedding_cache": {"hits": cached.hits, "misses": cached.misses},
        "seconds": round(time.perf_counter() - started, 1),
        "machine": machine(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "scenario": summary(scenario),
    }
    return build_report(meta, parts)


def _opener(stores: Path, settings: Settings, embedder: Any) -> OpenMemory:
    """A factory of fresh stores, each in its own temporary folder, removed on exit. ``then``:
    called with the folder once the store is closed, before it goes (another reader of its data)."""
    from .. import Memory

    @asynccontextmanager
    async def fresh(then: Callable[[str], Awaitable[None]] | None = None) -> AsyncIterator[Any]:
        with tempfile.TemporaryDirectory(prefix="pmemo-groupchat-", dir=stores) as where:
            mem = await Memory.open(where, settings=settings.replace(data=where), embedder=embedder)
            try:
                yield mem
            finally:
                await mem.close()
            if then is not None:
                await then(where)

    return fresh


def _reopener(settings: Settings, embedder: Any) -> Reopen:
    """Another reader of a closed store's data, with other settings and no background jobs."""
    from .. import Memory

    @asynccontextmanager
    async def again(where: str, changes: dict[str, Any]) -> AsyncIterator[Any]:
        other = await Memory.open(where, settings=settings.replace(data=where, run_jobs=False, **changes),
                                  embedder=embedder)
        try:
            yield other
        finally:
            await other.close()

    return again


async def _measure(s: Scenario, open_memory: OpenMemory, reopen: Reopen) -> dict[str, Any]:
    """Every check on one store: follow-ups while the chat is replayed, the rest after it; then
    the alias checks again on that store's data with names read as before issue 44 §6, and the
    person questions on that data with the people section as it is and as before issue 44 §3."""
    before: dict[str, Any] = {}

    async def as_before(where: str) -> None:
        async with reopen(where, NAMES_BEFORE) as old:
            before["aliases_before"] = await _aliases(old, s)
        for name, changes in (("person_cards", {}), ("person_cards_before", CARDS_BEFORE)):
            async with reopen(where, changes) as mem:
                before[name] = await _person_cards(mem, s.person_questions)

    async with open_memory(then=as_before) as mem:
        replay = _Replay(mem, s.messages)
        parts: dict[str, Any] = {"followups": await _followups(replay, s)}
        await replay.until(None)
        parts["questions"] = await _questions(replay, s.questions, s.messages)
        parts["cues"] = await _questions(replay, s.cues, s.messages)
        parts["cue_context"] = await _cue_context(replay, s.cues)
        parts["context"] = await _context_latency(replay, s)
        parts["packs"] = await context_shape(  # tokens, filler and a stable prefix (issue 44 §5)
            lambda q, recent: replay.mem.context(q.query, at=q.at, asker=q.asker, recent=recent,
                                                 **where_of(q.group_id, q.user_id)),
            s, lambda q: [m.content for m in _last_before(s.messages, q, RECENT_MESSAGES)])
        parts["aliases"] = await _aliases(mem, s)
        parts["subjects"] = await _subjects(replay, s)
        parts["profiles"] = await _profiles(mem, s)
        parts["leaks"] = await _leaks(replay, s)
        parts["replay"] = {
            "add_s": round(replay.add_s, 2),
            "drain_s": round(replay.drain_s, 2),
            "turns": len(replay.idx_of),
        }
    return parts | before


# -- feeding the chat ---------------------------------------------------------------------------


def where_of(group_id: str | None, user_id: str | None) -> dict[str, str]:
    """The scope arguments of a chat: ``group_id`` for a group, ``user_id`` for a private chat.

    >>> where_of("g_study", None), where_of(None, "p_alex")
    ({'group_id': 'g_study'}, {'user_id': 'p_alex'})
    """
    return {"group_id": group_id} if group_id is not None else {"user_id": user_id or ""}


def turn_item(m: Message, *, with_person: bool = True) -> dict[str, Any]:
    """A message as an ``add_many`` item; ``with_person=False`` leaves the speaker's id out.

    >>> m = Message(0, "g1", None, "g1:2025-09-01", "p1", "周霓", "user", "早", "2025-09-01T08:00:00+08:00")
    >>> turn_item(m)["actor_id"], "actor_id" in turn_item(m, with_person=False)
    ('p1', False)
    """
    item: dict[str, Any] = {
        "session_id": m.session_id or None,  # none: the chat's current session (issue 44 §2)
        "content": m.content,
        "role": m.role,
        "actor": m.actor,
        "timestamp": m.timestamp,
        **where_of(m.group_id, m.user_id),
    }
    if with_person and m.actor_id is not None:
        item["actor_id"] = m.actor_id
    if m.metadata:
        item["metadata"] = m.metadata
    return item


def chat_runs(messages: Sequence[Message], limit: int) -> list[list[Message]]:
    """Cut messages where the chat changes or ``limit`` is reached: one ``add_many`` per run keeps
    each call in one chat and the order over all chats the order of time.

    >>> ms = [Message(i, g, None, "s", "p", "P", "user", "x", "t") for i, g in enumerate("aabbba")]
    >>> [[m.idx for m in r] for r in chat_runs(ms, 2)]
    [[0, 1], [2, 3], [4], [5]]
    """
    runs: list[list[Message]] = []
    for m in messages:
        last = runs[-1] if runs else None
        if last and len(last) < limit and (last[0].group_id, last[0].user_id) == (m.group_id, m.user_id):
            last.append(m)
        else:
            runs.append([m])
    return runs


class _Replay:
    """A scenario fed to one store in time order, and the way back from its turns to message idx."""

    def __init__(self, mem: Any, messages: Sequence[Message]) -> None:
        self.mem = mem
        self.messages = messages
        self.times = [datetime.fromisoformat(m.timestamp) for m in messages]
        self.pos = 0
        self.idx_of: dict[int, int] = {}  # turn id -> message idx
        self.turn_of: dict[int, int] = {}  # message idx -> turn id
        self.add_s = 0.0
        self.drain_s = 0.0

    async def until(self, at: str | None) -> None:
        """Ingest the messages said before ``at`` (all of them for None), then drain the jobs."""
        end = self.pos
        limit = None if at is None else datetime.fromisoformat(at)
        while end < len(self.messages) and (limit is None or self.times[end] < limit):
            end += 1
        for batch in chat_runs(self.messages[self.pos : end], INGEST_BATCH):
            t0 = time.perf_counter()
            turns = await self.mem.add_many([turn_item(m) for m in batch])
            self.add_s += time.perf_counter() - t0
            for m, t in zip(batch, turns, strict=True):
                self.idx_of[t.id], self.turn_of[m.idx] = m.idx, t.id
        self.pos = end
        t0 = time.perf_counter()
        await self.mem.drain()
        self.drain_s += time.perf_counter() - t0

    def idx(self, hit: Hit) -> list[int]:
        """The message idx behind a hit (a fact or a window stands for several)."""
        return [self.idx_of[t.id] for t in hit.sources if t.id in self.idx_of]


# -- plans near their day -----------------------------------------------------------------------


async def _followups(replay: _Replay, s: Scenario) -> dict[str, Any]:
    """Each follow-up asked once the chat has reached its time, with the person as the asker.

    A plan surfaced when an agenda line of the person's own plans is in the context; with an
    ``expect`` label it must be that plan's line, with None any of the person's plans is wrong.
    """
    surfaced = [False] * len(s.followups)
    failures = []
    for i in sorted(range(len(s.followups)), key=lambda i: datetime.fromisoformat(s.followups[i].at)):
        f = s.followups[i]
        await replay.until(f.at)
        ctx = await replay.mem.context(f.query, group_id=f.group_id, asker=f.person_id, at=f.at)
        theirs = {f"agenda:{a.id}" for a in await replay.mem.agenda(f.person_id, group_id=f.group_id)}
        shown = [h.text for h in ctx.items if h.tier == "agenda" and h.id in theirs]
        surfaced[i] = any(_has(t, f.expect) for t in shown) if f.expect else bool(shown)
        if surfaced[i] != (f.expect is not None):
            failures.append(
                {
                    "person": f.person_id,
                    "group": f.group_id,
                    "at": f.at,
                    "expect": f.expect,
                    "why": f.why,
                    "agenda_shown": shown,
                }
            )
    right, total = followups_right(s.followups, surfaced)
    return {"right": right, "total": total, "failures": failures}


# -- questions and latency ----------------------------------------------------------------------


class _ChatBM25:
    """BM25 over the messages of one chat said before the question, built once per (chat, time)."""

    def __init__(self, messages: Sequence[Message]) -> None:
        self.messages = messages
        self.built: dict[tuple[str | None, str | None, str], BM25System] = {}

    def rank(self, q: Question, k: int) -> list[int]:
        key = (q.group_id, q.user_id, q.at)
        if key not in self.built:
            asked = datetime.fromisoformat(q.at)
            units = [
                Unit(str(m.idx), m.session_id, m.role, m.actor, datetime.fromisoformat(m.timestamp), m.content)
                for m in self.messages
                if (m.group_id, m.user_id) == key[:2] and datetime.fromisoformat(m.timestamp) < asked
            ]
            self.built[key] = BM25System()
            self.built[key].load(units)
        return [int(uid) for uid in self.built[key].rank(Query(q.query, datetime.fromisoformat(q.at)), k)]


async def _questions(replay: _Replay, asked: Sequence[Question], messages: Sequence[Message]) -> dict[str, Any]:
    """R@5 of pmemo's search and of BM25 over the same chat, per question; search latencies."""
    bm25 = _ChatBM25(messages)
    rows, pm_ms, bm_ms = [], [], []
    for q in asked:
        t0 = time.perf_counter()
        hits = await replay.mem.search(q.query, limit=TOP_K, at=q.at, **where_of(q.group_id, q.user_id))
        pm_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        base = bm25.rank(q, TOP_K)
        bm_ms.append((time.perf_counter() - t0) * 1000)
        got = [replay.idx(h) for h in hits]
        rows.append(
            {
                "q": q,
                "pmemo": recall_at(q.evidence, got, TOP_K),
                "bm25": recall_at(q.evidence, [[i] for i in base], TOP_K),
                "got": got,
                "hits": hits,
            }
        )
    failures = [_question_failure(r, messages) for r in rows if r["pmemo"] < 1.0]
    by_kind: dict[str, dict[str, float]] = {}
    for kind in dict.fromkeys(r["q"].kind for r in rows):
        mine = [r for r in rows if r["q"].kind == kind]
        by_kind[kind] = {"n": len(mine), "pmemo": mean(r["pmemo"] for r in mine), "bm25": mean(r["bm25"] for r in mine)}
    return {
        "n": len(rows),
        "pmemo": mean(r["pmemo"] for r in rows) if rows else None,
        "bm25": mean(r["bm25"] for r in rows) if rows else None,
        "first_fact": mean(_first_fact_right(r) for r in rows) if rows else None,
        "by_kind": by_kind,
        "search_ms": pm_ms,
        "bm25_ms": bm_ms,
        "failures": failures,
    }


def _first_fact_right(row: dict[str, Any]) -> bool:
    """Whether the first fact among the hits is one the question's evidence said (what an agent
    would bring up first)."""
    first: list[int] = next((got for hit, got in zip(row["hits"], row["got"], strict=True) if hit.kind == "fact"), [])
    return bool(set(first) & set(row["q"].evidence))


async def _cue_context(replay: _Replay, cues: Sequence[Question]) -> dict[str, Any]:
    """The cues whose fact reaches the context the cue's speaker gets at ``CUE_BUDGET`` tokens
    (its value, in a fact line or in the message that said it; memory only, not the query)."""
    found = []
    for q in cues:
        pack = await replay.mem.context(q.query, budget_tokens=CUE_BUDGET, at=q.at, asker=q.asker,
                                        with_input=False, **where_of(q.group_id, q.user_id))
        found.append(q.answer.lower() in pack.text.lower())
    return {"n": len(found), "share": mean(found) if found else None}


def _question_failure(row: dict[str, Any], messages: Sequence[Message]) -> dict[str, Any]:
    q: Question = row["q"]
    return {
        "id": q.id,
        "kind": q.kind,
        "query": q.query,
        "recall": row["pmemo"],
        "bm25": row["bm25"],
        "evidence": {i: messages[i].content for i in q.evidence},
        "top": [f"{h.kind}: {h.text[:60]}" for h in row["hits"]],
    }


async def _context_latency(replay: _Replay, s: Scenario) -> dict[str, Any]:
    """``context`` per question with the people section (asker and the chat's last messages as
    ``recent``) and without (neither); the order alternates so neither rides on the other's caches."""
    timed: dict[str, list[float]] = {"people": [], "plain": []}
    for n, q in enumerate(s.questions):
        where = where_of(q.group_id, q.user_id)
        recent = [m.content for m in _last_before(s.messages, q, RECENT_MESSAGES)]
        calls = [("people", {"asker": q.asker, "recent": recent}), ("plain", {})]
        if n == 0:  # one untimed call loads what the first query would otherwise pay for
            await replay.mem.context(q.query, at=q.at, **where)
        for name, extra in calls if n % 2 == 0 else calls[::-1]:
            t0 = time.perf_counter()
            await replay.mem.context(q.query, at=q.at, **where, **extra)
            timed[name].append((time.perf_counter() - t0) * 1000)
    return timed


def _last_before(messages: Sequence[Message], q: Question, n: int) -> list[Message]:
    asked = datetime.fromisoformat(q.at)
    chat = [
        m
        for m in messages
        if (m.group_id, m.user_id) == (q.group_id, q.user_id) and datetime.fromisoformat(m.timestamp) < asked
    ]
    return chat[-n:]


# -- people: names, subjects, profiles ----------------------------------------------------------


async def _person_cards(mem: Any, asked: Sequence[PersonQuestion]) -> dict[str, Any]:
    """The person questions, each asked by its asker with its chat lines as ``recent`` at
    ``PERSON_BUDGET`` tokens (groupchat_context.person_cards)."""

    async def theirs(person: str, group: str) -> list[str]:
        return [f"fact:{f.id}" for f in await mem.profile(person, group_id=group, history=True)]

    return await person_cards(
        lambda q: mem.context(q.query, budget_tokens=PERSON_BUDGET, at=q.at, asker=q.asker, recent=list(q.recent),
                              group_id=q.group_id), asked, theirs)


async def _aliases(mem: Any, s: Scenario) -> dict[str, Any]:
    """The unambiguous people ``resolve_people`` finds in each alias check, in order of mention."""
    predicted, failures = [], []
    for a in s.alias_checks:
        matches = await mem.resolve_people(a.text, group_id=a.group_id)
        got = tuple(dict.fromkeys(m.person_ids[0] for m in matches if not m.ambiguous))
        predicted.append(got)
        if set(got) != set(a.expected):
            failures.append(
                {
                    "text": a.text,
                    "group": a.group_id,
                    "expected": list(a.expected),
                    "got": list(got),
                    "ambiguous": [[m.alias, list(m.person_ids)] for m in matches if m.ambiguous],
                }
            )
    return {**alias_prf(s.alias_checks, predicted), "n": len(s.alias_checks), "failures": failures}


async def _subjects(replay: _Replay, s: Scenario) -> dict[str, Any]:
    """Whom pmemo attributed each fact message to: the subject of the facts drawn from it
    (superseded ones too: attribution does not expire), or for a dated plan, which pmemo keeps
    in the agenda rather than as a fact, the person of the agenda item it gave."""
    facts_of: dict[int, list[Fact]] = {}
    plan_of: dict[int, str | None] = {}
    chats = [{"group_id": g.id} for g in s.groups]
    chats += [{"user_id": u} for u in dict.fromkeys(m.user_id for m in s.messages if m.user_id)]
    for where in chats:
        for fact in await replay.mem.profile(history=True, **where):
            for turn_id in fact.sources:
                facts_of.setdefault(turn_id, []).append(fact)
        for item in await replay.mem.agenda(**where):
            if item.turn_id is not None:
                plan_of[item.turn_id] = item.person_id
    predicted, failures, extracted, planned = [], [], 0, 0
    for c in s.subject_checks:
        turn = replay.turn_of.get(c.message_idx, -1)
        facts = facts_of.get(turn, [])
        extracted += bool(facts) or turn in plan_of
        planned += not facts and turn in plan_of
        predicted.append(subject_of(facts, c.fact_hint) if facts else plan_of.get(turn))
        if predicted[-1] != c.expected_subject:
            m = s.messages[c.message_idx]
            failures.append(
                {
                    "idx": c.message_idx,
                    "text": m.content,
                    "speaker": m.actor_id,
                    "expected": c.expected_subject,
                    "got": predicted[-1],
                    "facts": [f"{f.subject_id}: {f.key}={f.value}" for f in facts],
                }
            )
    accuracy = subject_accuracy(s.subject_checks, predicted) if s.subject_checks else None
    return {
        "accuracy": accuracy,
        "extracted": extracted,
        "from_agenda": planned,
        "n": len(s.subject_checks),
        "failures": failures,
    }


def subject_of(facts: Sequence[Fact], hint: str) -> str | None:
    """Whom the facts drawn from one message are about: the one whose key or value carries the
    checked value (a message may also yield facts about the people it names), else the most common;
    a fact without a subject is about its scope's owner (the user of a private chat).

    >>> subject_of([], "花生") is None
    True
    """
    named = [f for f in facts if _has(f.value, hint) or _has(f.key, hint)]
    subjects = Counter(f.subject_id or f.scope.user_id for f in named or facts)
    return subjects.most_common(1)[0][0] if subjects else None


async def _profiles(mem: Any, s: Scenario) -> dict[str, Any]:
    """Each profile view: every ``present`` value in some current fact, no ``absent`` one."""
    right, failures = 0, []
    for c in s.profile_checks:
        where = {"group_id": c.group_id} if c.group_id else {}
        facts = [f for f in await mem.profile(c.person_id, **where) if f.status == "current"]
        said = [f"{f.key} {f.value}" for f in facts]
        missing = [v for v in c.present if not any(_has(t, v) for t in said)]
        found = [v for v in c.absent if any(_has(t, v) for t in said)]
        if missing or found:
            failures.append(
                {
                    "person": c.person_id,
                    "view": c.group_id or "global",
                    "missing": missing,
                    "should_be_absent": found,
                    "facts": said,
                    "why": c.why,
                }
            )
        else:
            right += 1
    return {"right": right, "total": len(s.profile_checks), "failures": failures}


def _has(text: str, value: str) -> bool:
    return value.casefold() in text.casefold()


# -- leaks --------------------------------------------------------------------------------------


async def _leaks(replay: _Replay, s: Scenario) -> dict[str, Any]:
    """Each probe through ``search`` (top 20) and ``context`` in its group: a forbidden message
    counts as leaked when it is behind a hit or item, or its text is in the context verbatim (and
    was not also said, word for word, in the probe's own group)."""
    # asked when the questions are (after the last message): everything said is in the store by then
    at = max((q.at for q in s.questions), key=datetime.fromisoformat, default=s.messages[-1].timestamp)
    returned, failures, counts = [], [], {"search": 0, "context": 0}
    for probe in s.leak_probes:
        own = {m.content for m in s.messages if m.group_id == probe.group_id}
        hits = await replay.mem.search(probe.query, group_id=probe.group_id, limit=LEAK_LIMIT, at=at)
        ctx = await replay.mem.context(probe.query, group_id=probe.group_id, asker=leak_asker(probe, s), at=at)
        by_search = {i for h in hits for i in replay.idx(h)} & set(probe.forbidden)
        by_context = {i for h in ctx.items for i in replay.idx(h)}
        # quoted: a forbidden text in the context, unless the same words were also said in this chat
        quoted = {i for i in probe.forbidden if s.messages[i].content in ctx.text and s.messages[i].content not in own}
        by_context = (by_context | quoted) & set(probe.forbidden)
        counts["search"] += len(by_search)
        counts["context"] += len(by_context)
        returned.append(sorted(by_search | by_context))
        if returned[-1]:
            failures.append(
                {
                    "group": probe.group_id,
                    "query": probe.query,
                    "leaked": {i: s.messages[i].content for i in returned[-1]},
                    "by": [w for w, f in (("search", by_search), ("context", by_context)) if f],
                }
            )
    return {"count": leaks(s.leak_probes, returned), **counts, "n": len(s.leak_probes), "failures": failures}


def leak_asker(probe: LeakProbe, s: Scenario) -> str | None:
    """A member of the probe's group who did not say the forbidden messages (someone else asking)."""
    speakers = {s.messages[i].actor_id for i in probe.forbidden}
    members = next((g.members for g in s.groups if g.id == probe.group_id), ())
    return next((p for p in members if p not in speakers), None)


# -- ingest throughput --------------------------------------------------------------------------


def throughput_messages(seed: int, turns: int) -> list[Message]:
    """``turns`` messages of one busy group: its biggest group, from a scenario generated big enough.

    >>> ms = throughput_messages(0, 300)
    >>> len(ms), len({m.group_id for m in ms})
    (300, 1)
    """
    # filler goes ~36/32/32 to the three groups, so the biggest holds over a third of it
    big = generate(seed, messages=max(1000, math.ceil(turns / 0.3)))
    group = Counter(m.group_id for m in big.messages if m.group_id).most_common(1)[0][0]
    chosen = [m for m in big.messages if m.group_id == group][:turns]
    if len(chosen) < turns:
        raise ValueError(f"seed {seed} gives only {len(chosen)} messages in its biggest group, wanted {turns}")
    return chosen


async def _ingest_rates(seed: int, turns: int, open_memory: OpenMemory) -> dict[str, Any]:
    """Turns per second of ``add_many`` (batches of 100) into a fresh store, with speaker ids and
    without: of the calls alone (the background jobs they queue run on, untimed), and to
    processed (the calls, then a drain: every job they queued done). Eight rounds in the order
    ABBA BAAB, so a drift over the run (a warming box, busy neighbours) weighs on both sides
    alike, after one untimed round that warms what a first store pays for once (the word
    lists, the embedding cache)."""
    msgs = throughput_messages(seed, turns)
    seconds = {"plain": 0.0, "people": 0.0}
    processed = {"plain": 0.0, "people": 0.0}
    rounds = []
    for name in ("warm-up", "plain", "people", "people", "plain", "people", "plain", "plain", "people"):
        async with open_memory() as mem:
            spent = 0.0
            begun = time.perf_counter()
            for start in range(0, len(msgs), INGEST_BATCH):
                batch = [turn_item(m, with_person=name == "people") for m in msgs[start : start + INGEST_BATCH]]
                t0 = time.perf_counter()
                await mem.add_many(batch)
                spent += time.perf_counter() - t0
            await mem.drain()
            total = time.perf_counter() - begun
        if name == "warm-up":
            continue
        seconds[name] += spent
        processed[name] += total
        rounds.append({"store": name, "turns_per_s": round(len(msgs) / spent),
                       "processed_per_s": round(len(msgs) / total)})
    return {
        "turns": len(msgs),
        "batch": INGEST_BATCH,
        "rounds": rounds,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "people_turns_per_s": 4 * len(msgs) / seconds["people"],
        "plain_turns_per_s": 4 * len(msgs) / seconds["plain"],
        "people_processed_per_s": 4 * len(msgs) / processed["people"],
        "plain_processed_per_s": 4 * len(msgs) / processed["plain"],
    }
