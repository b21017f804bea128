"""Long texts in bounded pieces: together the whole text, none past the limit, an ordinary
message one piece; and segmenting in slices gives an ordinary text the terms it had."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pmemo.text.segment import segment, tokens
from pmemo.text.slices import LIMIT, handing_over, pieces, spans

_TEXT = st.text(alphabet=st.sampled_from(list("我喜欢猫。，！? .a b\n1😀哈")), max_size=3000)


@given(_TEXT, st.integers(min_value=1, max_value=500))
def test_pieces_cover_the_text_within_the_limit(text, limit):
    found = spans(text, limit)
    assert "".join(text[a:b] for a, b in found) == text
    assert all(0 < b - a <= limit for a, b in found) or text == ""
    assert [a for a, _ in found[1:]] == [b for _, b in found[:-1]]


def test_a_piece_ends_at_the_last_sentence_that_fits():
    text = "我喜欢猫。" * 200  # 1,000 characters, a sentence mark every 5
    assert [b - a for a, b in spans(text)] == [400, 400, 200]
    assert all(p.endswith("。") for p in pieces(text))
    assert pieces("I like tea, and coffee too", 12) == ["I like tea, ", "and coffee ", "too"]
    assert pieces("哈" * 1000) == ["哈" * LIMIT, "哈" * LIMIT, "哈" * 200]


def test_an_ordinary_message_is_one_piece():
    text = "霓霓对花生过敏，我不吃香菜。" * 20
    assert len(text) <= LIMIT and pieces(text) == [text]


def test_handing_over_keeps_every_item_in_order():
    assert list(handing_over(range(5))) == [0, 1, 2, 3, 4]


def test_segmenting_in_slices_keeps_the_terms_of_a_long_ordinary_text():
    said = "预算不能超过10万元, paintings and budgets. 我们下周三开会讨论预算案。"
    text = said * 60  # ~2,700 characters: many slices, no run of one script past the limit
    assert tokens(text) == tokens(said) * 60
    assert segment(said) in segment(said * 2)


def test_a_run_past_the_limit_is_cut_into_runs_of_the_limit():
    assert tokens("a" * 1000) == ["a" * LIMIT, "a" * LIMIT, "a" * 200]
    assert all(len(t) <= LIMIT for t in tokens("哈" * 2000))
