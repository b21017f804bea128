"""context.assemble: the pack fits any budget and keeps key → long → mid → short → input."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from pmemo.models import Hit, Scope, Turn
from pmemo.retrieval.context import HEADERS, assemble
from pmemo.tokens import estimate_tokens

ORDER = ["key", "profile", "long_term", "mid_term", "episodic", "short_term", "input"]
SCOPE = Scope("default", "default", "u:u1", "s1")
T0 = datetime(2024, 3, 4, 9, 0, tzinfo=timezone(timedelta(hours=8)))

text = st.text(
    alphabet=st.sampled_from(
        list("预算不能超过万元上线日期杭州出差abcdefgXYZ 0123456789,.!?。，！？\n😀é")
    ),
    min_size=1,
    max_size=300,
)
# long texts built by repetition: drawing thousands of characters one by one is slow
huge = st.builds(lambda t, n: (t * n)[:50_000], text, st.integers(min_value=50, max_value=400))
DEFAULT_SHARES = {"key": 0.15, "long_term": 0.2, "mid_term": 0.35, "short_term": 0.3}


def turn(n: int, content: str) -> Turn:
    return Turn(
        n,
        SCOPE,
        n,
        "user",
        content,
        "Louis" if n % 2 else None,
        T0 + timedelta(minutes=n),
        {"msg_id": str(n)},
    )


@st.composite
def tiers(draw, texts=text):
    counter = iter(range(1, 10_000))
    out: dict[str, list[Hit]] = {}
    out["key"] = [
        Hit(f"key:{next(counter)}", "key", "key", t, 1.0, "k", ())
        for t in draw(st.lists(texts, max_size=4))
    ]
    out["long_term"] = [
        Hit(f"summary:{next(counter)}", "summary", "long_term", t, 0.5, "s", ())
        for t in draw(st.lists(texts, max_size=4))
    ]
    mids = []
    for t in draw(st.lists(texts, max_size=8)):
        n = next(counter)
        mids.append(Hit(f"turn:{n}", "turn", "mid_term", t, 0.3, "m", (turn(n, t),)))
    out["mid_term"] = mids
    shorts = []
    for t in draw(st.lists(texts, max_size=8)):
        n = next(counter)
        shorts.append(Hit(f"turn:{n}", "turn", "short_term", t, 0.0, "r", (turn(n, t),)))
    out["short_term"] = shorts[::-1]  # priority: newest first, as context_tiers hands them over
    return out


@st.composite
def shares(draw):
    k, lo, mid = (draw(st.floats(0.0, 1.0)) for _ in range(3))
    total = k + lo + mid
    if total > 1.0:
        k, lo, mid = k / total, lo / total, mid / total
    return {"key": k, "long_term": lo, "mid_term": mid, "short_term": max(0.0, 1.0 - k - lo - mid)}


def check(pack, query, given_tiers, budget):
    # key lines are always whole (issue 20): every one is in; only they take a pack over its budget
    assert [h.id for h in pack.items if h.tier == "key"] == [h.id for h in given_tiers["key"]]
    assert pack.tokens <= budget or (pack.over_budget and {h.tier for h in pack.items} == {"key"})
    assert pack.over_budget == (pack.tokens > budget)
    assert pack.tokens == estimate_tokens(pack.text)
    assert pack.budget == budget
    ranks = [ORDER.index(h.tier) for h in pack.items]
    assert ranks == sorted(ranks)
    # each tier keeps its priority order (short-term: oldest first)
    for name in ("key", "long_term", "mid_term"):
        ids = [h.id for h in pack.items if h.tier == name]
        pos = {h.id: i for i, h in enumerate(given_tiers[name])}
        assert [pos[i] for i in ids] == sorted(pos[i] for i in ids)
    steps = [h.sources[0].step for h in pack.items if h.tier == "short_term"]
    assert steps == sorted(steps)
    # sections appear in the text in the same order
    heads = [pack.text.index(HEADERS[n]) for n in ORDER if HEADERS[n] in pack.text]
    assert heads == sorted(heads)


@given(text, tiers(), st.integers(min_value=1, max_value=4000), shares())
def test_assemble_fits_budget_and_orders_tiers(query, hits, budget, split):
    pack = assemble(query, hits, split, budget, estimate_tokens)
    check(pack, query, hits, budget)


@given(text, tiers(), st.integers(min_value=0, max_value=40))
def test_assemble_tiny_budgets(query, hits, budget):
    budget = max(budget, 1)
    pack = assemble(query, hits, DEFAULT_SHARES, budget, estimate_tokens)
    check(pack, query, hits, budget)


@settings(max_examples=40)
@given(huge, tiers(huge), st.integers(min_value=1, max_value=3000))
def test_assemble_huge_inputs(query, hits, budget):
    pack = assemble(query, hits, DEFAULT_SHARES, budget, estimate_tokens)
    check(pack, query, hits, budget)


@given(text, st.integers(min_value=60, max_value=4000))
def test_input_is_always_part_of_a_pack_that_can_hold_it(query, budget):
    pack = assemble(query, {}, DEFAULT_SHARES, budget, estimate_tokens)
    assert pack.items and pack.items[-1].tier == "input"
    inp = pack.items[-1].text
    assert inp == query or (inp.endswith("…") and query.startswith(inp[:-1]))


def test_everything_fits_in_a_large_budget():
    hits = {
        "key": [Hit("key:1", "key", "key", "预算上限13万元", 1.0, "k", ())],
        "long_term": [
            Hit("summary:1", "summary", "long_term", "[s1 steps 1-10] 定了预算", 0.5, "s", ())
        ],
        "mid_term": [
            Hit(
                "turn:3",
                "turn",
                "mid_term",
                "预算不能超过10万元",
                0.4,
                "m",
                (turn(3, "预算不能超过10万元"),),
            )
        ],
        "short_term": [
            Hit(f"turn:{n}", "turn", "short_term", f"msg {n}", 0.0, "r", (turn(n, f"msg {n}"),))
            for n in (12, 11, 10)
        ],
    }
    pack = assemble("预算是多少？", hits, DEFAULT_SHARES, 2000, estimate_tokens)
    assert [h.id for h in pack.items] == [
        "key:1",
        "summary:1",
        "turn:3",
        "turn:10",
        "turn:11",
        "turn:12",
        "input:0",
    ]
    assert pack.text.startswith("## Key memory\n- 预算上限13万元")
    assert pack.text.endswith("## Current input\n预算是多少？")
    assert "Louis: 预算不能超过10万元" in pack.text


def test_recalled_turns_read_in_time_order_each_dated_where_cheapest():
    day2 = T0 + timedelta(days=1)
    late, early, same_day = (Turn(n, SCOPE, n, "user", f"line {n}", "Mei", when, {})
                             for n, when in ((1, day2), (2, T0), (3, T0 + timedelta(hours=1))))
    mids = [Hit(f"turn:{t.id}", "turn", "mid_term", t.content, 1.0, "m", (t,)) for t in (late, early, same_day)]
    pack = assemble("q", {"mid_term": mids}, DEFAULT_SHARES, 500, estimate_tokens)
    body = pack.text.split(HEADERS["mid_term"] + "\n")[1].split("\n\n")[0].splitlines()
    # a day of few lines dates each of them; the year is said once
    assert body == ["2024-03-04 Mei: line 2", "03-04 Mei: line 3", "03-05 Mei: line 1"]
    assert {h.id for h in pack.items if h.tier == "mid_term"} == {"turn:1", "turn:2", "turn:3"}


def test_a_busy_day_opens_with_its_date_and_a_new_year_is_said_again():
    busy = [Turn(n, SCOPE, n, "user", f"line {n}", "Mei", T0 + timedelta(minutes=n), {}) for n in range(1, 5)]
    next_year = Turn(9, SCOPE, 9, "user", "line 9", "Mei", T0 + timedelta(days=366), {})
    pack = assemble("q", {"mid_term": _mid([*busy, next_year])}, DEFAULT_SHARES, 500, estimate_tokens)
    body = pack.text.split(HEADERS["mid_term"])[1].split("\n\n")[0].splitlines()[1:]
    assert body == ["[2024-03-04]", "- line 1", "- line 2", "- line 3", "- line 4", "2025-03-05 line 9"]


def _mid(turns: list[Turn]) -> list[Hit]:
    return [Hit(f"turn:{t.id}", "turn", "mid_term", t.content, 1.0, "m", (t,)) for t in turns]


def test_one_speakers_memories_name_them_once_in_the_header():
    own = [Turn(n, SCOPE, n, "user", f"line {n}", "Mei", T0 + timedelta(days=n), {}) for n in range(1, 5)]
    pack = assemble("q", {"mid_term": _mid(own)}, DEFAULT_SHARES, 500, estimate_tokens)
    assert f"{HEADERS['mid_term']} (all said by Mei)\n2024-03-05 line 1\n03-06 line 2\n" in pack.text
    assert "Mei:" not in pack.text
    # two speakers (or too few lines for the header to pay): every line says who
    both = [*own[:3], Turn(9, SCOPE, 9, "user", "line 9", "Bo", T0, {})]
    pack = assemble("q", {"mid_term": _mid(both)}, DEFAULT_SHARES, 500, estimate_tokens)
    assert "(all said by" not in pack.text and "\n2024-03-04 Bo: line 9\n03-05 Mei: line 1\n" in pack.text


def test_the_same_words_stored_twice_on_one_day_are_one_line():
    said = [Turn(n, SCOPE, n, "user", "想要一辆新自行车", "Mei", T0 + timedelta(minutes=n), {}) for n in (1, 2)]
    later = Turn(3, SCOPE, 3, "user", "想要一辆新自行车", "Mei", T0 + timedelta(days=2), {})
    pack = assemble("q", {"mid_term": _mid([*said, later])}, DEFAULT_SHARES, 500, estimate_tokens)
    assert pack.text.count("想要一辆新自行车") == 2  # once on each day it was said
    assert [h.id for h in pack.items if h.tier == "mid_term"] == ["turn:1", "turn:3"]


@settings(max_examples=300)
@given(st.lists(st.tuples(text, st.integers(0, 400)), min_size=1, max_size=40), st.integers(40, 3000))
def test_a_pack_that_can_hold_a_recalled_turn_holds_one(said, budget):
    # the plan counts lines, the text adds date lines: the search for the room must still
    # end on a pack that fits (it once stepped by the 1-token gap until it gave up, empty)
    turns = [Turn(n, SCOPE, n, "user", t, "Mei", T0 + timedelta(days=d), {}) for n, (t, d) in enumerate(said, 1)]
    hits = _mid(turns)
    pack = assemble("q", {"mid_term": hits}, DEFAULT_SHARES, budget, estimate_tokens, with_input=False)
    alone = min(assemble("q", {"mid_term": [h]}, DEFAULT_SHARES, 10**6, estimate_tokens, with_input=False).tokens
                for h in hits)
    assert pack.tokens <= budget
    assert pack.items or alone > budget


def test_an_episode_whose_turns_are_all_shown_gives_its_room_to_another_memory():
    said = [Turn(n, SCOPE, n, "user", f"memory number {n} of a long life", "Mei", T0 + timedelta(days=n), {})
            for n in range(1, 30)]
    episode = Hit("episode:1", "episode", "episodic", f"[2024-03-05] Mei: {said[0].content} | topics: memory",
                  0.5, "e", ())
    wider = Hit("episode:2", "episode", "episodic", "[2024-03-06] a session of two", 0.4, "e", ())
    tiers = {"mid_term": _mid(said), "episodic": [episode, wider]}
    split = {**DEFAULT_SHARES, "episodic": 0.25}
    budget = 300
    before = assemble("q", tiers, split, budget, estimate_tokens, with_input=False)
    assert "episode:1" in {h.id for h in before.items} and "turn:1" in {h.id for h in before.items}
    # episode 1 restates turn 1 only; episode 2 turns 1 and 99, and 99 is not shown: it stays
    after = assemble("q", tiers, split, budget, estimate_tokens, with_input=False,
                     restates={"episode:1": frozenset({1}), "episode:2": frozenset({1, 99})})
    ids = {h.id for h in after.items}
    assert "episode:1" not in ids and "episode:2" in ids and after.tokens <= budget
    shown = {h.id for h in after.items if h.tier == "mid_term"}
    assert shown > {h.id for h in before.items if h.tier == "mid_term"}  # the room bought more memories


@given(tiers(), st.integers(min_value=1, max_value=3000), shares(), st.randoms(use_true_random=False))
def test_nothing_packed_only_restates_turns_the_pack_shows(hits, budget, split, rng):
    turn_ids = [t.id for name in ("mid_term", "short_term") for h in hits[name] for t in h.sources]
    restates = {h.id: frozenset(rng.sample(turn_ids, min(len(turn_ids), rng.randint(1, 3))))
                for h in hits["long_term"] if turn_ids}
    pack = assemble("q", hits, split, budget, estimate_tokens, restates=restates)
    check(pack, "q", hits, budget)
    shown = {t.id for h in pack.items if h.tier in ("mid_term", "short_term") for t in h.sources}
    assert not [h.id for h in pack.items if h.id in restates and restates[h.id] <= shown]
