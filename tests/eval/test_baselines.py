"""Baselines: ranking and packing on a tiny hand-made history."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from pmemo.embedders.hashing import HashingEmbedder
from pmemo.errors import InvalidInput
from pmemo.eval.baselines import BASELINES, greedy_pack, make_baseline, render
from pmemo.eval.datasets import Query, Unit
from pmemo.eval.embedcache import FileCachedEmbedder
from pmemo.tokens import estimate_tokens

T0 = datetime(2024, 1, 1)
TEXTS = [
    "I bought red apples at the market",
    "The sky was blue all day",
    "Green apples are sour",
    "My cat sleeps on the sofa",
    "我们去公园放风筝",
]
UNITS = [
    Unit(f"u{i}", "s1", "user", "Ana", T0 + timedelta(minutes=i), t) for i, t in enumerate(TEXTS)
]


def test_bm25_ranks_matching_turns_first_and_handles_chinese() -> None:
    bm25 = make_baseline("bm25")
    bm25.load(UNITS)
    assert bm25.rank(Query("apples"), 2) == ["u0", "u2"] or bm25.rank(Query("apples"), 2) == [
        "u2",
        "u0",
    ]
    assert bm25.rank(Query("放风筝"), 1) == ["u4"]


def test_dense_uses_the_given_embedder() -> None:
    dense = make_baseline("dense", embedder=FileCachedEmbedder(HashingEmbedder(), ":memory:"))
    dense.load(UNITS)
    assert dense.rank(Query("cat sofa"), 1) == ["u3"]
    with pytest.raises(ValueError):
        make_baseline("dense")


def test_window_packs_newest_turns_oldest_first_within_budget() -> None:
    window = make_baseline("window")
    window.load(UNITS)
    budget = estimate_tokens(render(UNITS[3])) + estimate_tokens(render(UNITS[4])) + 2
    pack = window.pack(Query("x"), budget)
    assert pack.units == ("u3", "u4")
    assert pack.text.splitlines() == [render(UNITS[3]), render(UNITS[4])]
    assert pack.tokens <= budget
    assert window.rank(Query("x"), 2) == ["u4", "u3"]


def test_full_history_is_cut_from_the_start() -> None:
    full = make_baseline("full-history")
    full.load(UNITS)
    pack = full.pack(Query("x"), estimate_tokens(render(UNITS[0])) + 1)
    assert pack.units == ("u0",)


def test_random_is_reproducible_and_a_permutation() -> None:
    rnd = make_baseline("random")
    rnd.load(UNITS)
    first = rnd.rank(Query("q"), 10)
    assert first == rnd.rank(Query("q"), 10)
    assert sorted(first) == sorted(u.uid for u in UNITS)


@pytest.mark.parametrize("budget", [1, 10, 25, 1000])
def test_greedy_pack_never_exceeds_budget(budget: int) -> None:
    for contiguous in (False, True):
        pack = greedy_pack(UNITS, budget, contiguous=contiguous)
        assert pack.tokens <= budget


def test_every_baseline_handles_an_empty_history() -> None:
    emb = FileCachedEmbedder(HashingEmbedder(), ":memory:")
    for name in BASELINES:
        system = make_baseline(name, embedder=emb)
        system.load([])
        assert system.rank(Query("anything"), 5) == []
        assert system.pack(Query("anything"), 100).text == ""


def test_unknown_baseline() -> None:
    with pytest.raises(InvalidInput, match="unknown system"):
        make_baseline("magic")
