"""Plain baselines measured in the same run as pmemo: each is a ``System``.

A system ingests an episode's units (no labels), ranks units for a query and packs a
context into a token budget. pmemo itself is wrapped the same way in ``runner.py``.

>>> from datetime import datetime
>>> from pmemo.eval.datasets import Query, Unit
>>> units = [Unit(str(i), "s", "user", "A", datetime(2024, 1, 1), t)
...          for i, t in enumerate(["red apples", "blue sky", "green apples"])]
>>> bm25 = BM25System(); bm25.load(units)
>>> bm25.rank(Query("apples"), 2)
['0', '2']
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..errors import InvalidInput
from ..tokens import estimate_tokens
from .datasets import Query, Unit
from .metrics import lexical_tokens

Counter = Callable[[str], int]


@dataclass(frozen=True)
class Pack:
    """A packed context: the text handed to a model and what it costs."""

    text: str
    tokens: int
    units: tuple[str, ...] = ()


class System(Protocol):
    """What the runner drives. pmemo's adapter is async; baselines are plain calls."""

    name: str

    def load(self, units: Sequence[Unit]) -> None: ...

    def rank(self, query: Query, limit: int) -> list[str]: ...

    def pack(self, query: Query, budget: int) -> Pack: ...


def render(unit: Unit) -> str:
    """How a baseline writes one unit into its context."""
    return f"{unit.actor}: {unit.indexed}" if unit.actor else unit.indexed


def greedy_pack(
    units: Sequence[Unit],
    budget: int,
    count: Counter = estimate_tokens,
    contiguous: bool = False,
    chronological: bool = False,
) -> Pack:
    """Units in the given order while they fit; ``contiguous`` stops at the first misfit.

    ``chronological`` writes the chosen units oldest first (a window reads like a transcript).
    """
    chosen: list[tuple[int, Unit, str]] = []
    used = 0
    for pos, unit in enumerate(units):
        line = render(unit)
        cost = count(line) + 1  # the newline
        if used + cost > budget:
            if contiguous:
                break
            continue
        chosen.append((pos, unit, line))
        used += cost
    if chronological:
        chosen.sort(key=lambda c: (c[1].timestamp, -c[0]))
    text = "\n".join(line for _, _, line in chosen)
    return Pack(text, count(text) if text else 0, tuple(u.uid for _, u, _ in chosen))


class _Ranked:
    """Shared plumbing: a system defined by a score per unit."""

    name = "ranked"

    def __init__(self, count: Counter = estimate_tokens) -> None:
        self.count = count
        self.units: list[Unit] = []

    def load(self, units: Sequence[Unit]) -> None:
        self.units = list(units)

    def order(self, query: Query) -> list[int]:
        raise NotImplementedError

    def rank(self, query: Query, limit: int) -> list[str]:
        return [self.units[i].uid for i in self.order(query)[:limit]]

    def pack(self, query: Query, budget: int) -> Pack:
        return greedy_pack([self.units[i] for i in self.order(query)], budget, self.count)


def _by_score(scores: np.ndarray) -> list[int]:
    # stable: equal scores keep ingest order
    return [int(i) for i in np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")]


class BM25System(_Ranked):
    """BM25 (rank_bm25 Okapi) over single units with their speaker: word tokens (English
    stopwords dropped), character bigrams for Chinese."""

    name = "bm25"

    def load(self, units: Sequence[Unit]) -> None:
        from rank_bm25 import BM25Okapi

        super().load(units)
        docs = [lexical_tokens(render(u)) or ["\0"] for u in self.units]
        self._bm25 = BM25Okapi(docs) if docs else None

    def order(self, query: Query) -> list[int]:
        if not self.units or self._bm25 is None:
            return []
        return _by_score(self._bm25.get_scores(lexical_tokens(query.text)))


class DenseSystem(_Ranked):
    """Cosine over the embedder pmemo uses (same object), each unit embedded with its speaker
    as the baselines index it (``render``)."""

    name = "dense"

    def __init__(self, embedder: Any, count: Counter = estimate_tokens, batch: int = 32) -> None:
        super().__init__(count)
        self.embedder = embedder
        self.batch = batch
        self._matrix = np.zeros((0, 1), dtype=np.float32)
        self._last: tuple[str | None, np.ndarray] = (None, self._matrix[:0, 0])

    def load(self, units: Sequence[Unit]) -> None:
        super().load(units)
        texts = [render(u) for u in self.units]
        parts = [
            self.embedder.embed_passages(texts[i : i + self.batch])
            for i in range(0, len(texts), self.batch)
        ]
        self._matrix = np.vstack(parts) if parts else np.zeros((0, self.embedder.dim), np.float32)

    def order(self, query: Query) -> list[int]:
        if not self.units:
            return []
        if self._last[0] != query.text:  # rank, then three packs: embed the question once
            vec = np.asarray(self.embedder.embed_query(query.text), dtype=np.float32).reshape(-1)
            self._last = (query.text, vec)
        q = self._last[1]
        return _by_score(self._matrix @ q)


class RandomSystem(_Ranked):
    """Random units, seeded by the query so a run is reproducible."""

    name = "random"
    indexes = False  # nothing to build: no ingest throughput to report

    def __init__(self, count: Counter = estimate_tokens, seed: int = 0) -> None:
        super().__init__(count)
        self.seed = seed

    def order(self, query: Query) -> list[int]:
        digest = hashlib.sha256(f"{self.seed}\0{query.text}".encode()).digest()
        idx = list(range(len(self.units)))
        random.Random(int.from_bytes(digest[:8], "little")).shuffle(idx)
        return idx


class WindowSystem(_Ranked):
    """Sliding window: the newest units that fit the budget, written oldest first."""

    name = "window"
    indexes = False  # nothing to build: no ingest throughput to report

    def order(self, query: Query) -> list[int]:
        return list(range(len(self.units) - 1, -1, -1))

    def pack(self, query: Query, budget: int) -> Pack:
        newest_first = [self.units[i] for i in self.order(query)]
        return greedy_pack(newest_first, budget, self.count, contiguous=True, chronological=True)


class FullHistorySystem(_Ranked):
    """The whole history from the start, cut where the budget runs out (naive truncation)."""

    name = "full-history"
    indexes = False  # nothing to build: no ingest throughput to report

    def order(self, query: Query) -> list[int]:
        return list(range(len(self.units)))

    def pack(self, query: Query, budget: int) -> Pack:
        return greedy_pack(self.units, budget, self.count, contiguous=True)


BASELINES = ("bm25", "dense", "window", "random", "full-history")


def make_baseline(name: str, *, embedder: Any = None, count: Counter = estimate_tokens) -> _Ranked:
    """A baseline by name; ``dense`` needs the embedder pmemo uses."""
    if name == "bm25":
        return BM25System(count)
    if name == "dense":
        if embedder is None:
            raise ValueError("the dense baseline needs an embedder")
        return DenseSystem(embedder, count)
    if name == "random":
        return RandomSystem(count)
    if name == "window":
        return WindowSystem(count)
    if name == "full-history":
        return FullHistorySystem(count)
    raise InvalidInput(f"unknown system {name!r}: use pmemo, {', '.join(BASELINES)}")
