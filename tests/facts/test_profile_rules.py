"""Upsert rules and decay: unit cases and hypothesis properties (pure code, no store)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from pmemo.decay import recency, strength
from pmemo.models import Candidate, Fact, Scope
from pmemo.tiers.episodes import weighted_score
from pmemo.tiers.profile import decide, normalise, reinforced, resolve_key, similarity

T0 = datetime(2024, 1, 1, tzinfo=UTC)
SCOPE = Scope.of(user_id="u")


def fact(
    id_: int,
    key: str,
    value: str,
    conf: float,
    status: str = "current",
    sources: tuple[int, ...] = (1,),
    category: str = "preference",
    version: int = 1,
) -> Fact:
    return Fact(
        id_,
        SCOPE,
        category,
        key,
        value,
        conf,
        1,
        T0,
        T0,
        T0,
        None,
        None,
        "explicit",
        sources,
        status,
        version,
    )


def test_first_statement_inserts() -> None:
    d = decide(Candidate("preference", "opinion:tea", "likes", 0.8), [], turn_id=5)
    assert (d.action, d.key, d.confidence) == ("insert", "opinion:tea", 0.8)


def test_same_value_reinforces_and_caps() -> None:
    cur = fact(1, "opinion:tea", "likes", 0.93)
    d = decide(Candidate("preference", "opinion:tea", "Likes!", 0.8), [cur], turn_id=7)
    assert d.action == "reinforce" and d.reinforce == cur and d.confidence == 0.95


def test_same_turn_again_is_skipped() -> None:
    cur = fact(1, "opinion:tea", "likes", 0.8, sources=(7,))
    assert (
        decide(Candidate("preference", "opinion:tea", "likes", 0.8), [cur], turn_id=7).action
        == "skip"
    )


def test_a_turn_read_again_after_its_value_was_superseded_or_expired_is_skipped() -> None:
    """A re-run after later turns (a name learned late re-reads old turns): what the turn said
    stays history, it neither supersedes the newer value nor comes back as a second row."""
    old = fact(1, "home_city", "杭州", 0.8, status="superseded", sources=(7,))
    new = fact(2, "home_city", "深圳", 0.8, sources=(9,))
    assert decide(Candidate("preference", "home_city", "杭州", 0.9), [old, new], turn_id=7).action == "skip"
    gone = fact(3, "opinion:tea", "likes", 0.8, status="expired", sources=(7,))
    assert decide(Candidate("preference", "opinion:tea", "likes", 0.8), [gone], turn_id=7).action == "skip"
    assert decide(Candidate("preference", "opinion:tea", "likes", 0.8), [gone], turn_id=8).action == "insert"


def test_higher_confidence_supersedes_lower_is_a_conflict() -> None:
    cur = fact(1, "opinion:tea", "likes", 0.85)
    up = decide(
        Candidate("preference", "opinion:tea", "dislikes", 0.97, "corrected"), [cur], turn_id=2
    )
    assert up.action == "supersede" and up.target == cur and up.promote is None
    down = decide(Candidate("preference", "opinion:tea", "dislikes", 0.8), [cur], turn_id=2)
    assert down.action == "conflict" and down.reinforce is None


def test_a_repeated_conflict_takes_over_once_it_is_more_confident() -> None:
    cur = fact(1, "opinion:tea", "likes", 0.85)
    rival = fact(2, "opinion:tea", "dislikes", 0.85, status="conflict", sources=(3,))
    d = decide(Candidate("preference", "opinion:tea", "dislikes", 0.8), [cur, rival], turn_id=4)
    assert d.action == "supersede" and d.promote == rival and d.confidence == 0.9


def test_near_duplicate_keys_merge_within_a_category() -> None:
    cur = fact(1, "opinion:coffee", "likes", 0.8)
    assert (
        resolve_key(Candidate("preference", "opinion:Coffees", "likes", 0.8), [cur])
        == "opinion:coffee"
    )
    assert (
        resolve_key(Candidate("habit", "opinion:coffee", "likes", 0.8), [cur]) == "opinion:coffee"
    )
    assert resolve_key(Candidate("preference", "opinion:tea", "likes", 0.8), [cur]) == "opinion:tea"


values = st.text(min_size=1, max_size=12)
confs = st.floats(min_value=0.0, max_value=1.0)


@given(confs, st.floats(min_value=0, max_value=0.2), st.floats(min_value=0.5, max_value=1.0))
def test_reinforcement_is_monotone_and_capped(conf: float, step: float, cap: float) -> None:
    out = reinforced(conf, step, cap)
    assert out >= conf
    assert out <= max(conf, cap)


@given(values, values)
def test_similarity_is_symmetric_bounded_and_reflexive(a: str, b: str) -> None:
    assert 0.0 <= similarity(a, b) <= 1.0
    assert similarity(a, b) == similarity(b, a)
    assert similarity(a, a) == 1.0
    assert normalise(normalise(a)) == normalise(a) or normalise(a).endswith("s")


@given(values, confs, st.lists(st.tuples(values, confs), max_size=6), st.integers(1, 50))
def test_decide_never_keeps_two_current_values(
    value: str, conf: float, stored: list[tuple[str, float]], turn: int
) -> None:
    facts = [
        fact(i + 100, "k", v, c, status="current" if i == 0 else "conflict", sources=(i + 100,))
        for i, (v, c) in enumerate(stored)
    ]
    d = decide(Candidate("preference", "k", value, conf), facts, turn_id=turn)
    if not facts:
        assert d.action == "insert"
    elif d.action == "supersede":
        assert d.confidence > facts[0].confidence
    elif d.action == "conflict":
        assert d.target == facts[0]
    assert d.action in ("insert", "reinforce", "supersede", "conflict", "skip")


ages = st.floats(min_value=0, max_value=1e10)
imps = st.floats(min_value=0, max_value=1)
heat = st.integers(min_value=0, max_value=10_000)


@given(ages, ages, imps, heat)
def test_strength_is_monotone_in_age(a: float, b: float, imp: float, h: int) -> None:
    lo, hi = sorted((a, b))
    assert strength(lo, imp, h) >= strength(hi, imp, h)


@given(ages, imps, imps, heat, heat)
def test_strength_grows_with_importance_and_heat(
    age: float, i1: float, i2: float, h1: int, h2: int
) -> None:
    lo, hi = sorted((i1, i2))
    assert strength(age, lo, h1) <= strength(age, hi, h1) + 1e-12
    h_lo, h_hi = sorted((h1, h2))
    assert strength(age, lo, h_lo) <= strength(age, lo, h_hi) + 1e-12


@given(ages, imps, heat, st.floats(min_value=0, max_value=1))
def test_strength_has_a_floor_and_stays_in_unit_range(
    age: float, imp: float, h: int, floor: float
) -> None:
    s = strength(age, imp, h, floor=floor)
    assert floor * imp - 1e-12 <= s <= 1.0


def test_half_life_and_episode_score() -> None:
    assert abs(strength(90 * 86400, 0.0, 0) - 0.5) < 1e-9
    assert abs(recency(30 * 86400, 30) - 0.5) < 1e-9
    assert weighted_score(1.0, 1.0, 1.0) == 1.0
    assert abs(weighted_score(0.4, 0.5, 0.5) - (0.2 + 0.15 + 0.1)) < 1e-9


def test_two_changes_in_a_row_each_supersede() -> None:
    def fact(i: int, value: str, source: str, status: str = "current") -> Fact:
        at = datetime(2026, 1, i, tzinfo=UTC)
        return Fact(i, Scope(), "fact", "employer", value, 0.97, 1, at, at, at, None, None, source, (i,), status)

    first_change = fact(1, "蓝鲸数据", "corrected")
    second = Candidate("fact", "employer", "青橙教育", 0.97, "corrected")
    assert decide(second, [first_change], turn_id=9).action == "supersede"
    assert decide(Candidate("fact", "employer", "青橙教育", 0.97), [first_change], turn_id=9).action == "conflict"
