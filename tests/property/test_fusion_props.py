"""Fusion is pure and order-stable."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pmemo.retrieval.fusion import best_first, mmr, weighted

arrays = st.integers(0, 15).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n),
                                             max_size=4)))


@given(arrays, st.lists(st.floats(0.0, 2.0), min_size=4, max_size=4))
def test_weighted_is_the_weighted_sum(sized, weights):
    n, signals = sized
    pairs = [(w, np.array(s)) for w, s in zip(weights, signals, strict=False)]
    fused = weighted(pairs, n)
    assert fused.shape == (n,)
    for k in range(n):
        assert math.isclose(fused[k], sum(w * float(s[k]) for w, s in pairs), abs_tol=1e-9)


@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]) | st.floats(-1e6, 1e6), max_size=20),
       st.randoms())
def test_best_first_is_sorted_and_stable(scores, rnd):
    values = np.array(scores, dtype=float)
    assert best_first(values).tolist() == sorted(range(len(scores)), key=lambda k: (-scores[k], k))
    ties = list(range(len(scores)))
    rnd.shuffle(ties)
    rank_in_ties = {k: r for r, k in enumerate(ties)}
    assert best_first(values, np.array(ties, dtype=int)).tolist() == sorted(
        range(len(scores)), key=lambda k: (-scores[k], rank_in_ties[k]))


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20))
def test_weighted_then_best_first_keeps_input_order_for_equal_scores(scores):
    n = len(scores)
    assert best_first(weighted([(1.0, np.full(n, 0.5))], n)).tolist() == list(range(n))


@given(st.lists(st.floats(-10, 10), max_size=30), st.integers(0, 40), st.floats(0, 3))
def test_mmr_reorders_only_the_head_and_loses_nothing(scores, depth, weight):
    ranked = sorted(enumerate(scores), key=lambda kv: -kv[1])
    rng = np.random.default_rng(len(scores))
    red = rng.uniform(0, 1, (depth, depth))
    out = mmr(ranked, (red + red.T) / 2, weight)
    assert sorted(k for k, _ in out) == sorted(k for k, _ in ranked)
    assert [k for k, _ in out[depth:]] == [k for k, _ in ranked[depth:]]
    assert [s for _, s in out] == sorted((s for _, s in out), reverse=True)
    assert mmr(ranked, np.zeros((depth, depth)), weight) == ranked
