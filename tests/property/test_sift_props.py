"""What the diary, summary and episode prompts send (``prompts.sift``): no line with content is
ever left out, each is sent once with everyone who said it, and nothing content-free is sent."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from pmemo.diary.prompt import diary_prompt
from pmemo.models import Scope, Turn
from pmemo.prompts.episode import episode_prompt
from pmemo.prompts.sift import sift
from pmemo.prompts.summary import summary_prompt
from pmemo.text.filler import content_free, said_key

# lines of both kinds, the hard ones too: content opening with a filler word, very short content,
# the same words with other punctuation, a filler-looking word inside content
TEXTS = ["哈哈哈哈", "[图片]", "在吗", "好的👍", "早", "lol", "ok thanks!", "收到", "[捂脸]",
         "好的，周六我带相机", "我在吗啡科", "哈哈我考过了", "周六8点", "1", "I got the job", "ok, see you at 8",
         "周末补一补进度", "周末 补一补进度！！", "周末补一补进度~", "下周三考高数", "okra is my favourite vegetable",
         "王磊 修改群名片为 王老师", "I'm allergic to peanuts", "?"]
NAMES = ["周霓", "王磊", "Bo", "李娜"]
T0 = datetime(2026, 3, 1, 9, 0)

said = st.lists(st.tuples(st.sampled_from(TEXTS), st.sampled_from(NAMES)), max_size=25)


def turns_of(lines: list[tuple[str, str]]) -> list[Turn]:
    return [Turn(i + 1, Scope.of(group_id="g"), i + 1, "user", text, who, T0 + timedelta(minutes=i))
            for i, (text, who) in enumerate(lines)]


@given(said)
def test_every_content_line_is_sent_once_with_everyone_who_said_it(lines: list[tuple[str, str]]) -> None:
    turns = turns_of(lines)
    told = sift(turns)
    by_key = {said_key(t.turn.content): t for t in told}
    assert len(by_key) == len(told)  # each line once
    assert not any(content_free(t.turn) for t in told)
    for turn in turns:
        if content_free(turn):
            continue
        line = by_key[said_key(turn.content)]
        assert turn.actor == line.turn.actor or turn.actor in line.also
        assert line.turn.id <= turn.id  # where it was first said
    assert sum(t.times for t in told) == sum(1 for t in turns if not content_free(t))


@given(said)
def test_the_prompts_carry_every_content_line_and_no_call_without_one(lines: list[tuple[str, str]]) -> None:
    turns = turns_of(lines)
    content = [t for t in turns if not content_free(t)]
    prompts = [summary_prompt(turns, 200), episode_prompt(turns, 200),
               diary_prompt(None, date(2026, 3, 1), turns, 600, 100_000)]
    if not content:
        assert prompts == [None, None, None]  # nothing worth reading: no call
        return
    for prompt in prompts:
        assert prompt is not None
        user = prompt[1]
        assert all(f"{t.turn.actor}: {t.turn.content}" in user for t in sift(turns))
        assert not any(f": {t.content}\n" in user + "\n" for t in turns if content_free(t))


def test_without_sifting_every_turn_goes_as_before() -> None:
    turns = turns_of([("哈哈哈哈", "周霓"), ("下周三考高数", "王磊"), ("下周三考高数", "Bo")])
    prompt = summary_prompt(turns, 200, sift=False)
    assert prompt is not None
    assert prompt[1].splitlines()[2:] == [f"[2026-03-01] {t.actor}: {t.content}" for t in turns]
    sifted = summary_prompt(turns, 200)
    assert sifted is not None and sifted[1].splitlines()[2:] == ["[2026-03-01] 王磊: 下周三考高数 (×2; also Bo)"]
