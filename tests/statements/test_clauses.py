"""A message cut into clauses for the statement model: bounded, openers kept with what they open,
no clause of only emoji or stickers."""

from __future__ import annotations

from pmemo.statements.clauses import MAX_CHARS, MAX_CLAUSES, clauses, has_content


def test_an_opener_stays_with_its_clause() -> None:
    assert clauses("不对，是下周三") == ["不对，是下周三"]
    assert clauses("sorry, I meant Tuesday") == ["sorry, I meant Tuesday"]
    assert clauses("哈哈我下个月换工作了") == ["哈哈我下个月换工作了"]


def test_clauses_split_at_commas_and_sentence_marks() -> None:
    assert clauses("那只狗不是我的，是我表姐寄养的") == ["那只狗不是我的，", "是我表姐寄养的"]
    assert clauses("I live in Boston. Love it here!") == ["I live in Boston.", "Love it here!"]


def test_only_emoji_or_stickers_is_no_clause() -> None:
    assert clauses("😂😂😂") == []
    assert clauses("[图片][图片]") == []
    assert clauses("[表情] 👍") == []
    assert not has_content("[image] 🎉")


def test_any_length_is_bounded() -> None:
    long = "我喜欢猫" * 20000 + "，" + "a" * 5000
    out = clauses(long)
    assert len(out) <= MAX_CLAUSES
    assert all(len(c) <= MAX_CHARS for c in out)
    assert len(clauses("，" * 100000 + "我对花生过敏")) <= MAX_CLAUSES
