"""Issue 44 §5, the pure parts: the relative cut, one line for the same words, filler, the chat's
language and a pack in Chinese, each over random input."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_context_props import DEFAULT_SHARES, check, shares, text, tiers

from pmemo.models import Hit, Scope, Turn
from pmemo.retrieval.context import HEADERS_BY_LANGUAGE, assemble, leading
from pmemo.retrieval.packing import Section, pack
from pmemo.retrieval.relevance import CHATTER_CHARS, CHATTER_DAYS, above, earned, once
from pmemo.text.filler import MAX_CHARS, filler, said_key
from pmemo.text.lang import chat_language
from pmemo.tokens import estimate_tokens

T0 = datetime(2026, 3, 4, 9, 0, tzinfo=timezone(timedelta(hours=8)))
scores = st.lists(st.floats(-5.0, 5.0, allow_nan=False), max_size=30)
cuts = st.floats(0.0, 1.0)
words = st.sampled_from(["周末补一补进度", "我下周考雅思", "哈哈", "see you at 8", "在吗", "我对花生过敏", "ok"])


@given(scores, cuts)
def test_above_keeps_the_best_in_order_and_nothing_far_below(values, cut):
    kept = above(list(enumerate(values)), cut, lambda p: p[1])
    ids = [i for i, _ in kept]
    assert ids == sorted(ids)  # order-stable: a subsequence
    if values:
        best = max(values)
        assert any(v == best for _, v in kept)
        if best > 0:
            assert all(v >= cut * best for _, v in kept)
            assert len(kept) == sum(v >= cut * best for v in values)
        else:
            assert len(kept) == len(values)


@given(scores, cuts, cuts)
def test_a_higher_cut_keeps_less(values, a, b):
    low, high = sorted((a, b))
    items = list(enumerate(values))
    assert set(above(items, high, lambda p: p[1])) <= set(above(items, low, lambda p: p[1]))


@st.composite
def said(draw):
    out = []
    for n, (w, day) in enumerate(draw(st.lists(st.tuples(words, st.integers(0, 6)), max_size=25)), start=1):
        t = Turn(n, Scope(session_id="s"), n, "user", w, f"p{n % 3}", T0 + timedelta(days=day))
        out.append(Hit(f"turn:{n}", "turn", "mid_term", w, 1.0 - n / 100, "m", (t,)))
    return out


@given(said())
def test_the_same_words_are_one_line_and_chatter_stays_out(hits):
    kept = once(hits)
    pos = {h.id: i for i, h in enumerate(hits)}
    assert [pos[h.id] for h in kept] == sorted(pos[h.id] for h in kept)  # order-stable
    keys = [said_key(h.sources[0].content) for h in kept]
    assert len(keys) == len(set(keys))
    for h in kept:
        group = [g for g in hits if said_key(g.text) == said_key(h.text)]
        assert h.id == group[0].id and [t.id for t in h.sources] == [g.sources[0].id for g in group]
        days = {t.timestamp.date() for t in h.sources}
        assert len(days) < CHATTER_DAYS or len(said_key(h.text)) > CHATTER_CHARS
    assert {said_key(h.text) for h in hits} - set(keys) <= {
        k for k in map(said_key, (h.text for h in hits)) if len(k) <= CHATTER_CHARS}


@settings(max_examples=60)
@given(st.text(max_size=3000))
def test_filler_reads_any_text_and_a_long_one_is_content(t):
    result = filler(t)
    if len(t.strip()) > MAX_CHARS and result:
        # only a message of placeholders and emoji that long is filler
        assert not any(c.isalnum() for c in t if c not in "[]") or "[" in t


@given(st.lists(text, max_size=6))
def test_the_chat_language_is_one_of_two_and_order_free(texts):
    lang = chat_language(texts)
    assert lang in ("en", "zh") and chat_language(reversed(texts)) == lang or sum(map(len, texts)) > 4000


@given(text, tiers(), st.integers(min_value=1, max_value=4000), shares())
def test_a_chinese_pack_fits_its_budget_with_chinese_headers(query, hits, budget, split):
    pack = assemble(query, hits, split, budget, estimate_tokens, lang="zh")
    zh, en = HEADERS_BY_LANGUAGE["zh"], HEADERS_BY_LANGUAGE["en"]
    assert pack.tokens <= budget or pack.over_budget
    assert not any(h in pack.text.splitlines() for h in en.values())
    for name, tier in (("key", "key"), ("mid_term", "mid_term"), ("input", "input")):
        if any(h.tier == tier for h in pack.items):
            assert zh[name] in pack.text


@given(text, tiers(), st.integers(min_value=200, max_value=4000))
def test_the_leading_sections_do_not_depend_on_the_recalled_turns(query, hits, budget):
    """Key lines render the same bytes whatever else the pack holds (a prompt cache's prefix)."""
    alone = assemble(query, {"key": hits["key"]}, DEFAULT_SHARES, budget, estimate_tokens)
    full = assemble(query, hits, DEFAULT_SHARES, budget, estimate_tokens)
    check(full, query, hits, budget)
    if not full.over_budget:
        assert leading(full.text) == leading(alone.text)


@given(text, tiers(), st.integers(min_value=1, max_value=4000), shares())
def test_a_pack_without_fill_fits_orders_and_holds_no_more_than_a_filled_one(query, hits, budget, split):
    lean = assemble(query, hits, split, budget, estimate_tokens, fill=False)
    check(lean, query, hits, budget)
    full = assemble(query, hits, split, budget, estimate_tokens)
    assert lean.tokens <= full.tokens or lean.over_budget


@given(st.lists(st.tuples(st.integers(1, 60), st.booleans()), max_size=20), st.integers(0, 500),
       st.floats(0.0, 1.0))
def test_pack_without_leftovers_keeps_each_other_section_to_its_share(items, budget, share):
    lead = Section("mid", [c for c, lead in items if lead], 0.5, lead=True)
    other = Section("short", [c for c, lead in items if not lead], share)
    out = {p.name: p for p in pack([lead, other], budget, lambda c: c, leftovers=False)}
    assert out["mid"].tokens + out["short"].tokens <= budget
    assert out["short"].tokens <= share * budget + 1e-9


phrases = st.lists(st.sampled_from(["花生", "过敏", "面馆", "下雨", "考研", "搬家", "奶茶"]), min_size=1, max_size=4)


@given(st.lists(phrases.map("".join), min_size=1, max_size=6), st.lists(phrases.map("".join), max_size=6),
       st.sampled_from(["花生", "过敏", "考研"]))
def test_a_copy_earns_by_the_words_it_adds_to_the_lines_shown(shown, rest, asked):
    """A digest or extractive summary (a copy of its turns' words) whose words the query asks are
    all in lines shown already earns nothing; one that adds such words does."""
    assume(not any(line in other for line in shown for other in rest))  # a shown line inside another goes with it
    copy = Hit("diary:1", "diary", "long_term", " / ".join([*shown, *rest]), 0.0, "", ())
    kept = earned([copy], {}, set(), lambda text: asked in text, copies={"diary:1"}, shown=shown)
    assert bool(kept) == any(asked in line for line in rest)
