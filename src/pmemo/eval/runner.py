"""Replay episodes through pmemo and the baselines, ask every probe, score the answers.

pmemo is driven only through its public ``Memory`` API, exactly as an agent would:
turns with their real timestamps, session by session, speakers as actors, background
jobs drained, then one ``search`` and one ``context`` per budget for each question.
Systems see ``Unit``s and ``Query``s only; ``Gold`` is read here, by the scorer.

>>> EvalConfig().budgets
(1000, 2000, 4000)
"""

from __future__ import annotations

import asyncio
import inspect
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .baselines import Pack, make_baseline
from .datasets import Episode, Probe, Query, Unit
from .metrics import (
    aggregate,
    answer_token_recall,
    bleu1,
    evidence_in_context,
    full_hit_at_k,
    percentile,
    rank_groups,
    recall_at_k,
    token_f1,
)

KS = (5, 10, 20)


@dataclass(frozen=True)
class EvalConfig:
    budgets: tuple[int, ...] = (1000, 2000, 4000)
    ks: tuple[int, ...] = KS
    search_limit: int = 20
    systems: tuple[str, ...] = ("pmemo", "bm25", "dense", "window", "random", "full-history")
    answer_budget: int = 2000


@dataclass
class SystemRun:
    """Everything measured for one system over a dataset."""

    name: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    ingest_units: int = 0
    ingest_s: float = 0.0
    passages: int | None = None  # texts the system embedded (pmemo's only): its embedding calls
    message_embeddings: int | None = None  # of those, the turns' (or their L2 windows')


async def _maybe(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class PmemoSystem:
    """pmemo behind the same three calls as a baseline, over its public async API."""

    name = "pmemo"

    def __init__(
        self, open_memory: Callable[[str], Any], workdir: str | Path | None = None
    ) -> None:
        self._open = open_memory
        self._workdir = workdir
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.memory: Any = None
        self.owner: dict[str, str] = {}
        self.uid_of: dict[int, str] = {}
        self.passages = 0  # texts embedded as passages, over every episode (cached ones are not)
        self.message_embeddings = 0  # of those, the turns' or their windows'

    async def start(self, owner: dict[str, str]) -> None:
        """A fresh store for each episode, in a temporary directory."""
        await self.close()
        self._tmp = tempfile.TemporaryDirectory(prefix="pmemo-eval-", dir=self._workdir)
        self.memory = await _maybe(self._open(self._tmp.name))
        self.memory.on_embed(self._embedded)
        self.owner = dict(owner)
        self.uid_of = {}

    def _embedded(self, kind: str, texts: int, seconds: float) -> None:
        if kind == "passage":
            self.passages += texts

    async def load(self, units: Sequence[Unit]) -> None:
        sessions: dict[str, list[Unit]] = {}
        for unit in units:
            sessions.setdefault(unit.session, []).append(unit)
        for session, members in sessions.items():
            items = [
                dict(
                    session_id=session,
                    content=u.text,
                    metadata=dict(u.metadata),
                    role=u.role,
                    actor=u.actor,
                    timestamp=u.timestamp,
                    **self.owner,
                )
                for u in members
            ]
            turns = await self.memory.add_many(items)
            for unit, turn in zip(members, turns, strict=True):
                self.uid_of[turn.id] = unit.uid
        await self.memory.drain()
        # one per L2 window (a drain embeds the open ones), or one per distinct turn text
        windows = await self.memory.windows(**self.owner)
        self.message_embeddings += len(windows) or len({u.text for u in units})

    async def rank(self, query: Query, limit: int) -> list[str]:
        hits = await self.memory.search(query.text, limit=limit, at=query.asked_at, **self.owner)
        return [self.uid_of[t.id] for h in hits for t in h.sources if t.id in self.uid_of]

    async def settle(self) -> None:
        await self.memory.drain()

    async def pack(self, query: Query, budget: int) -> Pack:
        # memory only, as every baseline packs: the question does not take a share of the budget
        ctx = await self.memory.context(query.text, budget_tokens=budget, at=query.asked_at,
                                        with_input=False, **self.owner)
        units = tuple(
            self.uid_of[t.id] for h in ctx.items for t in h.sources if t.id in self.uid_of
        )
        return Pack(ctx.text, int(ctx.tokens), units)

    async def close(self) -> None:
        if self.memory is not None:
            await self.memory.close()
            self.memory = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


class Answer(BaseModel):
    answer: str


ANSWER_SYSTEM = (
    "You answer questions about a long conversation using only the memory context given. "
    "Reply with a short answer (a few words). If the context does not say, answer 'not mentioned'."
)


def answer_prompt(question: str, context: str, asked_at: Any = None) -> str:
    when = f"\nThe question is asked on {asked_at:%Y-%m-%d}." if asked_at else ""
    return f"Memory context:\n{context}\n{when}\nQuestion: {question}"


def score_probe(
    probe: Probe,
    ranked: Sequence[str],
    packs: dict[int, Pack],
    texts: dict[str, str],
    session_of: dict[str, str],
    ks: Sequence[int],
) -> dict[str, Any]:
    """All retrieval metrics of one probe for one system (pure)."""
    row: dict[str, Any] = {}
    gold = set(probe.gold.evidence)
    if gold:
        for k in ks:
            row[f"R@{k}"] = recall_at_k(ranked, gold, k)
        row["full@10"] = full_hit_at_k(ranked, gold, 10)
        ev_texts = [texts[u] for u in probe.gold.evidence if u in texts]
        for budget, pack in packs.items():
            row[f"ctx@{budget // 1000}k"] = evidence_in_context(ev_texts, pack.text)
    if probe.gold.sessions:
        ranked_sessions = rank_groups(ranked, session_of)
        for k in ks:
            row[f"S@{k}"] = recall_at_k(ranked_sessions, set(probe.gold.sessions), k)
    for budget, pack in packs.items():
        row[f"tok@{budget // 1000}k"] = float(pack.tokens)
        if probe.gold.answer:
            row[f"ans@{budget // 1000}k"] = answer_token_recall(probe.gold.answer, pack.text)
    return row


async def _ask(
    system: Any, probe: Probe, cfg: EvalConfig, run: SystemRun, llm: Any
) -> tuple[list[str], dict[int, Pack], str | None]:
    t0 = time.perf_counter()
    ranked = await _maybe(system.rank(probe.query, cfg.search_limit))
    run.latencies_ms.append((time.perf_counter() - t0) * 1000)
    await _settle(system)
    packs = {}
    for b in cfg.budgets:
        packs[b] = await _maybe(system.pack(probe.query, b))
        await _settle(system)
    prediction = None
    if llm is not None and probe.gold.answer:
        pack = packs.get(cfg.answer_budget) or await _maybe(
            system.pack(probe.query, cfg.answer_budget)
        )
        prompt = answer_prompt(probe.query.text, pack.text, probe.query.asked_at)
        reply = await asyncio.to_thread(llm.complete_json, ANSWER_SYSTEM, prompt, Answer)
        prediction = reply.answer
    return ranked, packs, prediction


async def _settle(system: Any) -> None:
    """Let what a read set going in the background (its hit counts, and the promotions they
    bring) finish before the next read, untimed: else a run's contexts depend on how fast
    the box ran it (LoCoMo: 2-6 cells of 883 questions moved between two runs of one code)."""
    if hasattr(system, "settle"):
        await system.settle()


async def run_episodes(
    episodes: Sequence[Episode],
    *,
    make_system: Callable[[str], Any],
    cfg: EvalConfig = EvalConfig(),
    llm: Any = None,
    on_probe: Callable[[str], None] | None = None,
) -> dict[str, SystemRun]:
    """Run every system over every episode; ``make_system(name)`` builds one system."""
    runs = {name: SystemRun(name) for name in cfg.systems}
    systems = {name: make_system(name) for name in cfg.systems}
    try:
        for episode in episodes:
            for name, system in systems.items():
                await _load(system, episode, runs[name])
            texts = {u.uid: u.text for u in episode.units}
            session_of = {u.uid: u.session for u in episode.units}
            for probe in episode.probes:
                for name, system in systems.items():
                    ranked, packs, prediction = await _ask(system, probe, cfg, runs[name], llm)
                    row = score_probe(probe, ranked, packs, texts, session_of, cfg.ks)
                    if prediction is not None and probe.gold.answer:
                        row["F1"] = token_f1(prediction, probe.gold.answer)
                        row["BLEU-1"] = bleu1(prediction, probe.gold.answer)
                    runs[name].rows.append({"episode": episode.eid, "qid": probe.qid, "category": probe.category,
                                            "apart": probe.apart, "metrics": row})
                if on_probe:
                    on_probe(probe.qid)
            for system in systems.values():
                if hasattr(system, "close"):
                    await system.close()
    finally:
        for system in systems.values():
            if hasattr(system, "close"):
                await system.close()
    for name, system in systems.items():
        runs[name].passages = getattr(system, "passages", None)
        runs[name].message_embeddings = getattr(system, "message_embeddings", None)
    return runs


async def _load(system: Any, episode: Episode, run: SystemRun) -> None:
    """One episode's units into a system (started for its owner first), ingest time counted."""
    if hasattr(system, "start"):
        await system.start(episode.owner)
    t0 = time.perf_counter()
    await _maybe(system.load(episode.units))
    if getattr(system, "indexes", True):
        run.ingest_s += time.perf_counter() - t0
        run.ingest_units += len(episode.units)


def summarise(run: SystemRun) -> dict[str, Any]:
    """Overall and per-category means (apart rows excluded), apart groups, latency, ingest."""
    scored = [r for r in run.rows if r["apart"] is None]
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for r in scored:
        by_cat.setdefault(r["category"], []).append(r["metrics"])
    apart: dict[str, list[dict[str, Any]]] = {}
    for r in run.rows:
        if r["apart"] is not None:
            apart.setdefault(r["apart"], []).append(r["metrics"])
    lat = run.latencies_ms
    return {
        "overall": aggregate([r["metrics"] for r in scored]),
        "by_category": {c: aggregate(rows) for c, rows in sorted(by_cat.items())},
        "apart": {a: aggregate(rows) for a, rows in sorted(apart.items())},
        "latency_ms": {"p50": percentile(lat, 50), "p95": percentile(lat, 95), "n": len(lat)},
        "ingest": {
            "units": run.ingest_units,
            "seconds": run.ingest_s,
            "units_per_s": run.ingest_units / run.ingest_s if run.ingest_s > 0 else None,
            "embeddings_per_1k": _per_1k(run.passages, run.ingest_units),
            "message_embeddings_per_1k": _per_1k(run.message_embeddings, run.ingest_units),
        },
    }


def _per_1k(count: int | None, units: int) -> float | None:
    return 1000 * count / units if count is not None and units else None


def baseline_factory(embedder: Any, count: Callable[[str], int]) -> Callable[[str], Any]:
    def make(name: str) -> Any:
        return make_baseline(name, embedder=embedder, count=count)

    return make
