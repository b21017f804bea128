"""A search or context asked `at` T knows nothing said after T (issue 44 §5, Time): a replayed
history gets the answers it would have got live. The chat goes on until 12-15; asked on 12-10,
nothing of 12-12 and later is recalled, summarised, stated as a fact or a plan, or said to be
when someone "last spoke"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from pmemo import Settings, SyncMemory
from pmemo.models import ContextPack, Hit

CST = timezone(timedelta(hours=8))
T = datetime(2026, 12, 10, 12, 0, tzinfo=CST)
NAMES = {"ni": "周霓", "wt": "许文涛", "lq": "李琴"}
CHAT = [  # (day of December, who, what)
    (1, "ni", "我在腾讯工作"),
    (2, "wt", "周末去爬山吗"),
    (3, "ni", "爬山我去，带上相机"),
    (5, "wt", "我对花生过敏"),
    (8, "ni", "12月11日考试，好紧张"),
    (9, "wt", "爬山的路线我看好了"),
    (12, "ni", "我换工作了，现在在字节工作"),
    (12, "ni", "12月13日面试"),
    (13, "wt", "爬山的照片发群里了"),
    (14, "ni", "爬山那天风景很好，下次去黄山"),
    (15, "ni", "我对芒果过敏"),
    (2, "lq", "大家好，我是新来的"),
    (13, "lq", "改了个群名片，叫我琴琴子就好"),  # a new display name after the 10th
]
CARD = {13: "琴琴子"}  # the display name lq goes by from the 13th on
LATER = [text for day, _, text in CHAT if day > T.day]


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncMemory]:
    m = SyncMemory.open(tmp_path_factory.mktemp("asof"), embedder="hashing",
                        settings=Settings(summary_every=3, short_term_turns=3, promote_hits=2))
    m.add_many([{"group_id": "study", "session_id": "study-chat", "actor_id": who,
                 "actor": CARD.get(day, NAMES[who]) if who == "lq" else NAMES[who],
                 "content": text, "timestamp": datetime(2026, 12, day, 20, n, tzinfo=CST)}
                for n, (day, who, text) in sorted(enumerate(CHAT), key=lambda x: (x[1][0], x[0]))])
    m.drain()
    yield m
    m.close()


def sources(hits: list[Hit] | tuple[Hit, ...]) -> list[datetime]:
    return [t.timestamp for h in hits for t in h.sources]


def later_words(text: str) -> list[str]:
    return [said for said in LATER if said in text]


@pytest.mark.parametrize("query", ["爬山", "周霓在哪工作？", "谁对什么过敏", "考试", "面试"])
def test_search_at_knows_nothing_said_after(chat: SyncMemory, query: str) -> None:
    hits = chat.search(query, group_id="study", at=T, limit=20)
    assert hits and all(when <= T for when in sources(hits)), [(h.id, h.text) for h in hits]
    assert not later_words(" ".join(h.text for h in hits))
    # asked without `at`, or at the end, the later words are there
    assert later_words(" ".join(h.text for h in chat.search("爬山", group_id="study", limit=20)))


def context(chat: SyncMemory, query: str, at: datetime | None, **extra: object) -> ContextPack:
    return chat.context(query, group_id="study", session_id="study-chat", asker="wt", at=at, budget_tokens=3000,
                        **extra)


@pytest.mark.parametrize("query", ["你认识周霓吗？", "爬山", "周霓在哪工作？", "谁对什么过敏"])
def test_context_at_knows_nothing_said_after(chat: SyncMemory, query: str) -> None:
    pack = context(chat, query, T, recent=["周霓加油"])
    assert all(when <= T for when in sources(pack.items)), [(h.id, h.text) for h in pack.items]
    assert not later_words(pack.text), pack.text
    assert "字节" not in pack.text and "芒果" not in pack.text and "面试" not in pack.text


def test_a_person_is_known_as_they_were(chat: SyncMemory) -> None:
    then = context(chat, "你认识周霓吗？", T).text
    assert "腾讯" in then and "字节" not in then  # the job she had, not the one she took on 12-12
    assert "最近发言 2026-12-08；在这里发过3条消息" in then, then
    assert "12月11日考试" in then  # her plan stated on 12-08 comes up; the one of 12-12 does not
    now = context(chat, "你认识周霓吗？", datetime(2026, 12, 16, 12, 0, tzinfo=CST)).text
    assert "芒果" in now and "面试" in now and "最近发言 2026-12-15；在这里发过7条消息" in now


def test_recent_turns_are_the_last_said_by_then(chat: SyncMemory) -> None:
    recent = [h for h in context(chat, "在吗", T).items if h.tier == "short_term"]
    assert [h.text for h in recent] == ["我对花生过敏", "12月11日考试，好紧张", "爬山的路线我看好了"]


def test_without_at_nothing_is_cut(chat: SyncMemory) -> None:
    pack = chat.context("你认识周霓吗？", group_id="study", asker="wt", budget_tokens=3000)
    assert "芒果" in pack.text and "字节" in pack.text


def test_facts_and_triples_as_they_stood(chat: SyncMemory) -> None:
    # she moved from 腾讯 to 字节 on 12-12: asked on 12-10 腾讯 is her job, in the people
    # section and in the graph (the triple closed on 12-12 held then)
    then = context(chat, "腾讯怎么样？", T)
    graph = [h.text for h in then.items if h.tier == "graph"]
    assert any("腾讯" in g for g in graph) and not any("字节" in g for g in graph), graph
    now = context(chat, "腾讯怎么样？", datetime(2026, 12, 16, 12, 0, tzinfo=CST))
    assert not any("腾讯" in h.text for h in now.items if h.tier == "graph")
    assert "字节" in context(chat, "周霓在哪工作？", datetime(2026, 12, 16, 12, 0, tzinfo=CST)).text


def test_agenda_at_knows_the_plans_stated_by_then(chat: SyncMemory) -> None:
    at_13 = datetime(2026, 12, 13, 9, 0, tzinfo=CST)
    assert {i.what for i in chat.agenda("ni", group_id="study", at=at_13)} == {"考试", "面试"}
    # on 12-11 the interview of 12-13 is near, but she only spoke of it on 12-12
    at_11 = datetime(2026, 12, 11, 9, 0, tzinfo=CST)
    assert {i.what for i in chat.agenda("ni", group_id="study", at=at_11)} == {"考试"}


@pytest.mark.parametrize("settings", [Settings(), Settings(window_tokens=64)], ids=["turns", "windows"])
def test_a_cutoff_after_everything_changes_nothing(tmp_path, settings: Settings) -> None:  # noqa: ANN001
    with SyncMemory.open(tmp_path, embedder="hashing", settings=settings) as m:
        m.add_many([{"group_id": "study", "session_id": "study-chat", "actor_id": who, "actor": NAMES[who],
                     "content": text, "timestamp": datetime(2026, 12, day, 20, n, tzinfo=CST)}
                    for n, (day, who, text) in enumerate(CHAT * 3)])
        m.drain()
        later = datetime(2027, 1, 1, tzinfo=CST)
        for query in ("爬山", "周霓在哪工作？", "谁对什么过敏"):
            plain = m.search(query, group_id="study", limit=15)
            cut = m.search(query, group_id="study", limit=15, at=later)
            assert [(h.id, h.score, h.why) for h in cut] == [(h.id, h.score, h.why) for h in plain]
            # the plans near the day asked differ, by design: the rest is the same
            cut_pack = m.context(query, group_id="study", asker="wt", at=later, budget_tokens=4000)
            pack = m.context(query, group_id="study", asker="wt", budget_tokens=4000)
            assert [h.id for h in cut_pack.items if h.tier != "agenda"] == \
                [h.id for h in pack.items if h.tier != "agenda"]


def test_names_as_they_were(chat: SyncMemory) -> None:
    then = chat.context("李琴在吗", group_id="study", at=T, budget_tokens=3000).text
    assert "- 李琴（最近发言 2026-12-02；在这里发过1条消息" in then and "琴琴子" not in then, then
    now = chat.context("李琴在吗", group_id="study", budget_tokens=3000).text
    assert "琴琴子" in now
