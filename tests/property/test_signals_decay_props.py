"""Signals rescale to [0, 1]; hit-count decay is monotone with the configured half-life."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pmemo.decay import decayed
from pmemo.retrieval.signals import above_floor, neighbour_bonus, recency, zscores

values = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False)
nonneg = st.floats(min_value=0.0, max_value=1e6, allow_nan=False)
half_lives = st.floats(min_value=1.0, max_value=1e8, allow_nan=False)


@given(st.lists(values, max_size=20))
def test_above_floor_bounds_and_order(scores):
    out = above_floor(np.array(scores))
    assert out.shape == (len(scores),)
    assert all(0.0 <= v <= 1.0 for v in out)
    if scores:
        low, high = scores.index(min(scores)), scores.index(max(scores))
        if scores[high] - scores[low] > 1e-9:
            assert out[high] == 1.0 and out[low] == 0.0
        for a in range(len(scores)):
            for b in range(len(scores)):
                if scores[a] > scores[b]:
                    assert out[a] >= out[b]


def test_above_floor_degenerate_cases():
    assert above_floor(np.array([])).tolist() == []
    assert above_floor(np.array([0.8, 0.8])).tolist() == [1.0, 1.0]


@given(st.lists(st.floats(0, 2e9), min_size=2, max_size=20))
def test_recency_newest_is_one_oldest_is_zero(times):
    out = recency(np.array(times))
    newest, oldest = times.index(max(times)), times.index(min(times))
    if times[newest] - times[oldest] > 1e-9:
        assert out[newest] == 1.0 and out[oldest] == 0.0


@given(st.lists(values, max_size=30))
def test_zscores_are_centred_unit_spread_and_order_preserving(scores):
    out = zscores(np.array(scores))
    assert out.shape == (len(scores),)
    if scores and np.std(scores) > 1e-6:
        assert math.isclose(float(np.mean(out)), 0.0, abs_tol=1e-6)
        assert math.isclose(float(np.std(out)), 1.0, rel_tol=1e-6)
        for a in range(len(scores)):
            for b in range(len(scores)):
                if scores[a] > scores[b]:
                    assert out[a] >= out[b]
    elif scores and max(scores) == min(scores):
        assert out.tolist() == [0.0] * len(scores)


def _with_neighbours(scores: list[float]):
    pair = st.lists(st.integers(-1, len(scores) - 1), min_size=2, max_size=2)
    return st.tuples(st.just(scores), st.lists(pair, min_size=len(scores), max_size=len(scores)))


@given(st.lists(st.floats(0, 1), max_size=15).flatmap(_with_neighbours))
def test_neighbour_bonus_is_best_neighbour(case):
    scores, neighbours = case
    out = neighbour_bonus(np.array(scores), np.array(neighbours, dtype=int).reshape(len(scores), 2))
    assert out.shape == (len(scores),)
    for k in range(len(scores)):
        expected = max((scores[n] for n in neighbours[k] if n >= 0), default=0.0)
        assert out[k] == expected


@given(st.lists(st.floats(0, 1), max_size=15).flatmap(_with_neighbours),
       st.tuples(st.floats(0, 1), st.floats(0, 1)))
def test_neighbour_bonus_scales_each_neighbour_by_its_reach(case, reach):
    scores, neighbours = case
    out = neighbour_bonus(np.array(scores), np.array(neighbours, dtype=int).reshape(len(scores), 2),
                          list(reach))
    for k in range(len(scores)):
        passed = [reach[j] * scores[n] for j, n in enumerate(neighbours[k]) if n >= 0]
        assert out[k] == pytest.approx(max(passed, default=0.0))


@given(nonneg, nonneg, nonneg, half_lives)
def test_decay_is_monotone_non_increasing(value, t1, t2, half_life):
    early, late = sorted((t1, t2))
    assert decayed(value, late, half_life) <= decayed(value, early, half_life) <= value
    assert decayed(value, late, half_life) >= 0.0


@given(st.floats(0.0, 1e6), half_lives)
def test_decay_halves_every_half_life(value, half_life):
    assert math.isclose(
        decayed(value, half_life, half_life), value / 2, rel_tol=1e-9, abs_tol=1e-12
    )
    assert math.isclose(
        decayed(value, 3 * half_life, half_life), value / 8, rel_tol=1e-9, abs_tol=1e-12
    )
    assert decayed(value, 0.0, half_life) == value


@given(st.floats(0.0, 1e6), nonneg, nonneg, half_lives)
def test_decay_composes(value, a, b, half_life):
    stepwise = decayed(decayed(value, a, half_life), b, half_life)
    assert math.isclose(stepwise, decayed(value, a + b, half_life), rel_tol=1e-6, abs_tol=1e-9)


@given(st.floats(0.0, 1e6), st.floats(-1e6, 0.0))
def test_decay_ignores_negative_elapsed_and_disabled_half_life(value, elapsed):
    assert decayed(value, elapsed, 3600.0) == value  # clock skew never inflates hits
    assert decayed(value, 1e9, 0.0) == value  # half-life 0 = no decay


def test_the_decay_module_examples_hold():
    import doctest

    from pmemo import decay

    result = doctest.testmod(decay)
    assert result.attempted >= 6 and result.failed == 0
