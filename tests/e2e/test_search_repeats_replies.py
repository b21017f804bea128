"""Issue 44 §2 and §5 through the library, as a group bot drives it (real SQLite, the hashing
embedder): the same words said many times are one search hit; an answer that is only
"@提问的人 …", given several messages later to a question without a question mark, is tied to it
and found by a search for the question; a content-free query ("在吗", "hi", "哈哈") recalls
nothing, and a Chinese chat's date notes are Chinese."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pmemo import Settings, SyncMemory
from pmemo.text.filler import content_free, said_key

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
WHO = {"ss": "孙萌", "lj": "李静怡", "zl": "赵磊", "zw": "张伟", "km": "kk_0823"}
ROUTINE = "球拍线断了，有人推荐穿线的店吗"


def _items(lines: list[tuple[str, str, int]]) -> list[dict[str, Any]]:
    return [{"group_id": "hobby", "actor_id": pid, "actor": WHO[pid], "content": text,
             "timestamp": (T0 + timedelta(minutes=minute)).isoformat()} for pid, text, minute in lines]


def _chat() -> list[tuple[str, str, int]]:
    """Two months of a badminton group: one line said again every week, the AA of each game with
    its own sum, chatter; a question about stringing answered by a quote, and one about the fee
    (no question mark) answered several messages later by "@李静怡 …" alone."""
    lines: list[tuple[str, str, int]] = []
    for week in range(8):
        m = week * 7 * 24 * 60
        lines += [("zw", ROUTINE, m), ("km", "周六下午两点老地方", m + 1),
                  ("zl", f"AA一下，每人{week + 5}块", m + 2), ("zw", "今天打得好爽", m + 3),
                  ("km", "谁带球", m + 4), ("zl", "[图片]", m + 5), ("lj", "哈哈哈", m + 6),
                  ("zw", "晚上七点还有场地", m + 7)]
    m = 60 * 24 * 60
    lines += [("ss", "附近哪里有穿线的店？", m), ("zw", "今天好热", m + 1), ("km", "带伞了吗", m + 2),
              ("zl", "「孙萌：附近哪里有穿线的店？」体育馆东门那家，二十五一次", m + 3),
              ("lj", "下次活动的AA费用是多少啊", m + 10), ("zw", "有人点奶茶吗", m + 11),
              ("km", "我要一杯三分糖", m + 12), ("zw", "外面下雨了", m + 13),
              ("zl", "@李静怡 每人四十，场地加球", m + 14), ("zl", "我明天带新球来", m + 20)]
    return lines


@pytest.fixture
def group(tmp_path: Path):
    with SyncMemory.open(tmp_path, settings=Settings(embedder="hashing", data=str(tmp_path))) as mem:
        mem.add_many(_items(_chat()))  # one write: the answers' questions are among its own turns
        mem.drain()
        yield mem


def test_the_same_words_said_many_times_are_one_hit(group: SyncMemory, tmp_path: Path) -> None:
    hits = [h for h in group.search("哪里可以给球拍穿线", group_id="hobby", limit=5) if h.kind == "turn"]
    keys = [said_key(h.text) for h in hits]
    assert len(keys) == len(set(keys)), [h.text for h in hits]
    routine = next(h for h in hits if h.text == ROUTINE)
    assert len(routine.sources) == 8 and {t.content for t in routine.sources} == {ROUTINE}
    assert "said 8 times" in routine.why
    assert any("体育馆东门" in h.text for h in hits), [h.text for h in hits]
    # the same store read with each copy its own hit: the routine line takes the places
    where = tmp_path / "copies"
    with SyncMemory.open(where, settings=Settings(embedder="hashing", data=str(where), w_repeats=0)) as mem:
        mem.add_many(_items(_chat()))
        mem.drain()
        texts = [h.text for h in mem.search("哪里可以给球拍穿线", group_id="hobby", limit=5)]
    assert texts.count(ROUTINE) >= 2, texts


def test_an_at_only_answer_is_tied_to_its_question_and_found(group: SyncMemory) -> None:
    hits = group.search("羽毛球AA费多少钱", group_id="hobby", limit=5)
    texts = [h.text for h in hits]
    assert "@李静怡 每人四十，场地加球" in texts, texts
    answer = next(h for h in hits if h.text.startswith("@李静怡"))
    question = answer.sources[0].reply_to
    assert question is not None and group.get_turn(question).content == "下次活动的AA费用是多少啊"


def test_the_answer_is_tied_past_fifty_earlier_turns_of_the_write(tmp_path: Path) -> None:
    """The chat's last 50 turns and the write's own: the answer names the question, not a turn
    some places before it (an index into the last 50 read against the whole list)."""
    chatter = [("zw", f"第{n}局打完了", n) for n in range(60)]
    asked = [("lj", "下次活动的AA费用是多少啊", 70), ("lj", "确实", 65), ("km", "带伞了吗", 71),
             ("zl", "@李静怡 每人四十，场地加球", 72)]
    with SyncMemory.open(tmp_path, settings=Settings(embedder="hashing", data=str(tmp_path))) as mem:
        mem.add_many(_items(chatter))
        turns = mem.add_many(_items(sorted(asked, key=lambda line: line[2])))
    by = {t.content: t for t in turns}
    assert by["@李静怡 每人四十，场地加球"].reply_to == by["下次活动的AA费用是多少啊"].id


@pytest.mark.parametrize("query", ["在吗", "hi", "哈哈", "在吗？", "hello everyone"])
def test_a_content_free_query_recalls_nothing(group: SyncMemory, query: str) -> None:
    assert [h for h in group.search(query, group_id="hobby", limit=5) if h.kind == "turn"] == []
    pack = group.context(query, group_id="hobby", budget_tokens=200, asker="zw")
    recalled = [h for h in pack.items if h.tier in ("mid_term", "short_term")]
    assert not any(content_free(t) for h in recalled for t in h.sources), pack.text
    assert not [h for h in recalled if h.tier == "mid_term"], pack.text
    # no summary or diary day is matched to it: only the latest summaries, there whatever is asked
    assert all(h.why == "latest summary" for h in pack.items if h.tier == "long_term"), pack.items
    assert pack.tokens <= 200


def test_a_chinese_chat_dates_its_lines_in_chinese(group: SyncMemory) -> None:
    pack = group.context("谁明天带新球", group_id="hobby", budget_tokens=600)
    line = next(line for line in pack.text.splitlines() if "赵磊: 我明天带新球来" in line and "steps" not in line)
    assert "（明天 = 2027年1月2日）" in line, line
    assert "January" not in pack.text and "(tomorrow" not in pack.text


def test_relevant_keeps_what_is_said_of_the_person_asked_about(tmp_path: Path) -> None:
    """With context_fill=relevant a recalled turn far below the best stays out, unless something
    known of the person the query asks about was learned from it (a fact, a name, a relation): the
    context is about the people in it. A turn that only names them is no exception."""
    lines = [("wl", "王磊", "我下周一去上海面试", 0), ("zw", "张伟", "听说王磊换到蓝鲸数据了", 1),
             ("zw", "张伟", "周末和王磊吃了火锅", 2), ("km", "kk_0823", "周末的火锅店排队好久", 3),
             ("zw", "张伟", "下周一要下雨", 4)]
    settings = Settings(embedder="hashing", data=str(tmp_path), context_fill="relevant", context_cut=0.99)
    with SyncMemory.open(tmp_path, settings=settings) as mem:
        mem.add_many([{"group_id": "g", "actor_id": p, "actor": n, "content": c,
                       "timestamp": (T0 + timedelta(minutes=m)).isoformat()} for p, n, c, m in lines])
        mem.drain()
        pack = mem.context("王磊下周一去哪面试", group_id="g", budget_tokens=2000, with_input=False)
    recalled = [h.text for h in pack.items if h.tier == "mid_term"]
    assert "我下周一去上海面试" in recalled and "听说王磊换到蓝鲸数据了" in recalled, recalled
    assert "周末和王磊吃了火锅" not in recalled, recalled
    assert "周末的火锅店排队好久" not in recalled, recalled
