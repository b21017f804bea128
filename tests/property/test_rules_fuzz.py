"""The rules on long, repetitive and adversarial texts: sane answers, and every pattern reads a
bounded piece.

A member holding a key down sends 100,000 characters; the rules run in the worker thread of
the server's process, and ``re`` keeps the GIL for a whole match. So: (1) every rule entry
point answers sanely on such texts (hypothesis picks them); (2) run on 100,000-character
texts, no pattern of the rule modules is given more than a piece (``text.slices.LIMIT``)
but the few that cut the text into pieces and words, which are single character classes,
linear on any text; (3) no pattern has the shape that takes exponential time: a repeat
inside a repeat, or alternatives inside a repeat, where one stretch of text can be split
between the repeats in more than one way (``ambiguous_repeats``). bench/rules_fuzz.py
measures the time ratios at n and 8n.
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import rules_fuzz  # noqa: E402
from rules_fuzz import BASE, TEXTS, counting, entry_points, patterns_of  # noqa: E402

from pmemo.text.slices import LIMIT  # noqa: E402

# near misses of the rules' own words, repeated; and what people paste
SEEDS = sorted({*BASE, *TEXTS, "哈哈哈", "嗯", "刚刚", "族", "我的名字是", "大家都叫她", "下周三考试，",
                "I used to ", "my favorite ", "allergic to ", "is my ", "and ", "@neko ", "\u200d", "😂~ ",
                "上个月", "一年前", "Neko said she ", "因为", "but ", "!!!", "。。", "..."})
SIZES = st.sampled_from([1, 2, 7, 50, 401, 2_000, 30_000, 100_000])


def _text(seeds: list[str], size: int) -> str:
    joined = "".join(seeds)
    return (joined * (size // len(joined) + 1))[:size]


@settings(max_examples=60)
@given(st.lists(st.sampled_from(SEEDS), min_size=1, max_size=3), SIZES, st.sampled_from(sorted(entry_points())))
def test_every_entry_point_answers_sanely_on_adversarial_text(seeds, size, name):
    text = _text(seeds, size)
    found = entry_points()[name](text)
    _sane(name, text, found)


@settings(max_examples=40)
@given(st.text(max_size=600), st.sampled_from(sorted(entry_points())))
def test_every_entry_point_answers_sanely_on_any_text(text, name):
    _sane(name, text, entry_points()[name](text))


def _sane(name: str, text: str, found: object) -> None:
    from pmemo.models import Candidate
    from pmemo.rules.agenda_rules import Plan
    from pmemo.rules.attribution import Attributed

    if name == "segment":
        assert isinstance(found, str) and all(len(t) <= LIMIT for t in found.split())
    elif name == "extract":
        assert isinstance(found, list) and all(isinstance(c, Candidate) and c.key and c.value for c in found)
        assert all(len(c.value) <= LIMIT for c in found)
    elif name == "plans":
        assert all(isinstance(p, Plan) and isinstance(p.day, date) and p.what for p in found)
    elif name == "attribution":
        assert all(isinstance(a, Attributed) and len(a.text) <= 2 * LIMIT for a in found)
    elif name in ("resolve", "learned_aliases"):
        for m in found:
            start, end = (m.start, m.end) if name == "resolve" else m.span
            assert 0 <= start < end <= len(text)
    elif name == "mentions":
        assert all(text[a:b] == handle for handle, (a, b) in found)
    elif name in ("date_ranges",):
        assert all(first <= last for first, last in found)
    elif name == "dialogue views":
        assert found and found[0] == text


# texts that took seconds to hours before (exponential or quadratic patterns), each run through
# every entry point: they answer at once now (no clock is read: a regression hangs the test)
KILLERS = [" " * 40 + "x", "刚" * 60 + "。", "我刚" * 30 + "x", "族" * 60, "a: b\nc: d" + " " * 20_000 + "x",
           "在" + " " * 5_000 + "x", "A" * 5_000 + "x", "的" * 5_000, "萨摩" * 3_000, ",～" * 3_000 + "x",
           "lol " * 40 + "x", "哈哈 " * 40 + "x"]


@pytest.mark.parametrize("text", KILLERS, ids=lambda t: repr(t[:12]))
def test_texts_that_once_took_forever(text):
    for name, entry in entry_points().items():
        _sane(name, text, entry(text))


# the patterns that read a whole text, each a character class or two, linear on any text:
# cutting it into pieces (slices), into words (segment, zh), and asking whether it has Chinese
WHOLE_TEXT_READERS = {
    "pmemo.text.slices._SENTENCE_END", "pmemo.text.slices._SOFT_BREAK", "pmemo.text.segment._WORD",
    "pmemo.text.lang.zh.CJK",
}


@pytest.fixture
def seen():
    counts, undo = counting()
    try:
        yield counts
    finally:
        undo()


def test_no_pattern_reads_more_than_a_piece(seen):
    entries = entry_points()
    for seed in ["哈", "我喜欢猫", "a ", "霓霓对花生过敏，我不吃香菜。", "I like tea and Neko is my friend. ", "[图片]",
                 "下周三考高数", "call me Neko "]:
        text = _text([seed], 20_000)  # 50 pieces
        for name, entry in entries.items():
            if name not in ("date_ranges", "resolve_relative", "day_mentioned", "dialogue views"):
                entry(text)  # the background rules (the read path's text helpers are linear on their own)
    # a piece may grow a little on its way: the graph rules mark each name found (霓霓 → "\x000\x00")
    too_long = {where: size for where, size in seen.items() if size > 2 * LIMIT and where not in WHOLE_TEXT_READERS}
    assert too_long == {}
    assert len(seen) > 150  # the counting reached the rules' patterns


def test_ambiguous_repeats_are_found():
    import re

    assert rules_fuzz.ambiguous_repeats(re.compile(r"(?:刚刚|刚)*x"))
    assert rules_fuzz.ambiguous_repeats(re.compile(r"(?:\s+a|\s+)+$"))
    assert rules_fuzz.ambiguous_repeats(re.compile(r"(?:\w+\s?)+$"))
    assert not rules_fuzz.ambiguous_repeats(re.compile(r"(?: [A-Z]\w*)*"))  # a space starts each repeat
    assert not rules_fuzz.ambiguous_repeats(re.compile(r"(?:现在|刚|已经)*在"))


@pytest.mark.parametrize("where, pattern", patterns_of(), ids=lambda p: p if isinstance(p, str) else "")
def test_no_pattern_can_take_exponential_time(where, pattern):
    assert rules_fuzz.ambiguous_repeats(pattern) == [], where
