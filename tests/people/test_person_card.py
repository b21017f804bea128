"""The person card (issue 44 §3), end to end through ``context``: the people a question is about
come first, by name or by a pronoun after a message that named them; each card holds who they
are and their facts in this chat, the ones asked about first, then the most telling, each once,
and never a fact under another person's line; the card reads the same bytes while nothing about
the people changed."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pmemo import Settings, SyncMemory
from pmemo.models import ContextPack
from pmemo.retrieval.context import leading
from pmemo.retrieval.people_hits import card_order, telling
from pmemo.retrieval.people_section import fit_cards, people_of, pronoun_of, pronoun_person

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
ASKED = T0 + timedelta(days=40)
BUDGET = 600  # issue 44 §9: a person question's context


def say(m: SyncMemory, who: str, name: str, text: str, minutes: int) -> None:
    m.add(group_id="study", session_id=f"study-{minutes // 1440}", actor_id=who, actor=name, content=text,
          timestamp=T0 + timedelta(minutes=minutes))


def busy_group(m: SyncMemory) -> None:
    """A study group: 周霓 says who she is early, then a month of other people's talk."""
    lines = [
        ("ni", "周霓", "大家好，我是周霓，叫我霓霓就行"),
        ("ni", "周霓", "我是华东理工大学心理学专业的"),
        ("ni", "周霓", "提前说一声，我花生过敏"),
        ("ni", "周霓", "我养了只猫，叫团子"),
        ("ni", "周霓", "我超喜欢螺蛳粉"),
        ("wt", "许文涛", "我在蓝鲸数据上班"),
        ("wt", "许文涛", "我最近在吃素"),
        ("hl", "黄丽", "我对芒果过敏"),
        ("hl", "黄丽", "我家狗叫可乐"),
        ("hao", "陈浩", "我住在闵行"),
    ]
    for n, (who, name, text) in enumerate(lines):
        say(m, who, name, text, n * 30)
    talk = [("wt", "许文涛"), ("hl", "黄丽"), ("hao", "陈浩")]
    for day in range(1, 36):  # a month of study talk without her
        for k, (who, name) in enumerate(talk):
            say(m, who, name, f"今天第{day}天打卡，第{k + 1}套真题做完了，错题本又厚了", day * 1440 + k * 7)
    m.drain()


def cards(m: SyncMemory, pack: ContextPack) -> list[tuple[str, list[str]]]:
    """The people section as (person id, the texts of the facts under their line), checking that
    every fact under a person's line is one of theirs and is shown once."""
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for hit in (h for h in pack.items if h.tier == "people"):
        if hit.kind == "person":
            out.append((hit.id.removeprefix("person:"), []))
            continue
        assert out, f"a fact before any person's line: {hit.text}"
        who = out[-1][0]
        assert hit.id in {f"fact:{f.id}" for f in m.profile(who, group_id="study")}, f"{hit.text} under {who}"
        assert hit.id not in seen and hit.text not in out[-1][1], f"shown twice: {hit.text}"
        seen.add(hit.id)
        out[-1][1].append(hit.text)
    return out


@pytest.fixture
def group(mem: SyncMemory) -> SyncMemory:
    busy_group(mem)
    return mem


def test_do_you_know_her_says_who_she_is(group: SyncMemory) -> None:
    pack = group.context("你认识霓霓吗", group_id="study", asker="hao", budget_tokens=BUDGET, at=ASKED)
    assert pack.tokens <= BUDGET
    (first, facts), *_ = cards(group, pack)
    line = next(h.text for h in pack.items if h.id == "person:ni")
    assert first == "ni" and line.startswith("周霓（又名霓霓；")  # her names, then how she talks here
    assert "说中文" in line
    # who she is first: her study, then her allergy (the most telling kinds), each once
    assert facts[:2] == ["周霓在华东理工大学读书", "周霓是心理学专业的"]
    assert "周霓对花生过敏" in facts


def test_what_is_she_allergic_to_right_after_a_message_naming_her(group: SyncMemory) -> None:
    recent = ["许文涛今天又在图书馆占座", "哈哈哈", "周霓今天怎么没来"]
    pack = group.context("她对什么过敏来着", group_id="study", asker="hao", recent=recent,
                         budget_tokens=BUDGET, at=ASKED)
    (first, facts), *_ = cards(group, pack)
    assert first == "ni" and facts[0] == "周霓对花生过敏"  # the fact asked about first
    # the latest message that named someone is whom the pronoun means: 黄丽 here, not 周霓
    pack = group.context("她对什么过敏来着", group_id="study", asker="hao", recent=[*recent, "黄丽刚才私聊我了"],
                         budget_tokens=BUDGET, at=ASKED)
    (first, facts), *_ = cards(group, pack)
    assert first == "hl" and facts[0] == "黄丽对芒果过敏"


def test_no_fact_under_another_persons_line_at_any_budget(group: SyncMemory) -> None:
    recent = ["许文涛今天又在图书馆占座", "黄丽刚才私聊我了", "周霓今天怎么没来"]
    for budget in (200, 300, 400, 600, 1000, 2000):
        pack = group.context("她对什么过敏来着", group_id="study", asker="hao", recent=recent,
                             budget_tokens=budget, at=ASKED)
        shown = cards(group, pack)  # asserts each fact is under its own person, once
        assert pack.tokens <= budget
        if budget >= 400:
            assert shown[0] == ("ni", shown[0][1]) and shown[0][1][0] == "周霓对花生过敏"


def test_the_card_reads_the_same_bytes_while_nothing_about_the_people_changed(group: SyncMemory) -> None:
    texts = [group.context(q, group_id="study", asker="hao", budget_tokens=BUDGET, at=ASKED).text
             for q in ("你认识霓霓吗", "霓霓最近怎么样", "霓霓在吗，周末一起自习")]
    assert len({leading(t) for t in texts}) == 1 and "周霓" in leading(texts[0])


def test_person_card_off_is_the_section_as_before(tmp_path) -> None:
    with SyncMemory.open(tmp_path / "before", embedder="hashing", settings=Settings(person_card=False)) as m:
        busy_group(m)
        pack = m.context("你认识霓霓吗", group_id="study", asker="hao", budget_tokens=2000, at=ASKED)
        people = [h.id for h in pack.items if h.kind == "person"]
        assert people[:2] == ["person:hao", "person:ni"]  # the asker first, as before issue 44 §3


# ---- the pure parts ---------------------------------------------------------------------------


def test_pronouns() -> None:
    assert [pronoun_of(q) for q in ("她是谁来着", "what's her job?", "is he coming?", "他干哪一行的",
                                    "they said what?", "其他人呢", "我弹吉他", "你认识霓霓吗", "TA住哪")] \
        == ["f", "f", "m", "", "", None, None, None, ""]
    # the latest message first; never the asker; a known man is not 她
    assert pronoun_person("她住哪", [["ni"], ["hl", "wt"]], {"wt": "m"}, None) == "hl"
    assert pronoun_person("他住哪", [["ni"], ["hl", "wt"]], {}, "wt") == "hl"
    assert pronoun_person("他住哪", [], {}, None) is None


def test_who_the_section_is_about_in_order() -> None:
    assert people_of("你认识霓霓吗", ["ni"], "hao", [["wt"], ["hl"]], {}, True) == \
        {"ni": "named", "hao": "asker", "hl": "recent", "wt": "recent"}
    # a pronoun with a name in the query: the name is whom it asks about
    assert list(people_of("霓霓说她什么时候到", ["ni"], "hao", [["hl"]], {}, True)) == ["ni", "hao", "hl"]


def test_fact_order_relevant_then_telling() -> None:
    from pmemo.models import Fact, Scope

    t = T0

    def fact(i: int, key: str, value: str, importance: float = 0.5) -> Fact:
        return Fact(i, Scope(), "fact", key, value, 0.9, 1, t, t, t, None, None, "explicit", (i,), "current",
                    importance=importance)

    facts = [fact(1, "opinion:螺蛳粉", "likes", 0.9), fact(2, "event:考研", "2026-12-23"), fact(3, "pet:cat", "团子"),
             fact(4, "allergy:花生", "allergic"), fact(5, "school", "华东理工大学"), fact(6, "relationship", "单身"),
             fact(7, "habits", "每天六点起床"), fact(8, "view", "觉得考研值得")]
    said = {f.id: f.key for f in facts}
    order = [f.id for f in card_order(facts, dict.fromkeys(said, 0.0), said)]
    assert order == [5, 4, 6, 3, 2, 1, 7, 8]  # study, health, family, pets, plans, likes, habits, opinions
    assert [telling(facts[i - 1].key) for i in order] == sorted(telling(f.key) for f in facts)
    asked = {**dict.fromkeys(said, 0.0), 3: 1.0}  # "她的猫叫什么": the pet first, the rest as before
    assert [f.id for f in card_order(facts, asked, said)] == [3, 5, 4, 6, 2, 1, 7, 8]


def test_a_card_is_whole_or_out() -> None:
    from pmemo.models import Hit

    def hit(kind: str, i: int, size: int) -> Hit:
        return Hit(f"{kind}:{i}", kind, "people", "x" * size, 1.0, "", ())

    hits = [hit("person", 1, 30), hit("fact", 1, 8), hit("fact", 2, 20), hit("person", 2, 30), hit("fact", 3, 5)]
    assert [h.id for h in fit_cards(hits, 45, lambda h: len(h.text))] == ["person:1", "fact:1"]
    # person:2's line no longer fits, so neither does fact:3, small as it is
    assert [h.id for h in fit_cards(hits, 80, lambda h: len(h.text))] == ["person:1", "fact:1", "fact:2"]
    assert [h.id for h in fit_cards(hits, 93, lambda h: len(h.text))] == \
        ["person:1", "fact:1", "fact:2", "person:2", "fact:3"]


def test_the_fact_asked_about_comes_first_when_not_all_fit(mem: SyncMemory) -> None:
    """A member who said much: at 600 tokens her card cannot hold it all, and what the question
    asks about (her favourite food, the least telling kind) is what it holds first."""
    for n, text in enumerate(["大家好，我是周霓，叫我霓霓就行", "我是华东理工大学心理学专业的", "我在蓝鲸数据实习",
                              "我住在徐汇", "提前说一声，我花生过敏", "我养了只猫，叫团子", "我12月23日考研",
                              "我超喜欢螺蛳粉"]):
        say(mem, "ni", "周霓", text, n * 30)
    for day in range(1, 36):
        say(mem, "wt", "许文涛", f"今天第{day}天打卡，第{day % 7 + 1}套真题做完了，错题本又厚了", day * 1440)
    mem.drain()
    assert len(mem.profile("ni", group_id="study")) > 7
    told = cards(mem, mem.context("你认识霓霓吗", group_id="study", asker="wt", budget_tokens=BUDGET, at=ASKED))
    assert told[0][0] == "ni" and "周霓喜欢螺蛳粉" not in told[0][1]  # the least telling: out at 600
    asked = cards(mem, mem.context("霓霓最喜欢什么", group_id="study", asker="wt", budget_tokens=BUDGET, at=ASKED))
    assert asked[0][0] == "ni" and asked[0][1][0] == "周霓喜欢螺蛳粉"
