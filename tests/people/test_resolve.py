"""The people resolver: one automaton pass, word-bounded Latin, guessed forms only on word boundaries."""

from __future__ import annotations

import doctest

import pytest

from pmemo.errors import InvalidInput
from pmemo.people import resolve
from pmemo.people.aliases import generated_aliases
from pmemo.people.resolve import AliasEntry, AliasIndex, Match

# Chinese full names, with surnames that are also ordinary characters (时 于 路 常 成 白 钱 费 施
# 向 高 金) and given names that are words (建国 国庆 开心 小明).
NAMES = {
    "p01": "周霓", "p02": "王伟", "p03": "李娜", "p04": "张敏", "p05": "刘洋", "p06": "陈静",
    "p07": "杨帆", "p08": "黄磊", "p09": "赵强", "p10": "吴刚", "p11": "孙丽", "p12": "马超",
    "p13": "朱婷", "p14": "胡军", "p15": "郭晶", "p16": "林峰", "p17": "高翔", "p18": "施文",
    "p19": "于欢", "p20": "时光", "p21": "成龙", "p22": "常乐", "p23": "路遥", "p24": "白云",
    "p25": "金鑫", "p26": "钱多", "p27": "费明", "p28": "向东", "p29": "欧阳娜娜", "p30": "司马光",
    "p31": "王建国", "p32": "李国庆", "p33": "周晓东", "p34": "陈开心", "p35": "宋小明",
}

# Ordinary sentences that name nobody: not one generated form may fire in them.
ORDINARY = [
    "这周工作很忙，周末还要加班。",
    "老师布置了作业，明天要交。",
    "小周末去爬山吧，天气预报说是晴天。",
    "今天天气不错，适合出去走走。",
    "明明说好的七点集合，结果大家都迟到了。",
    "刚刚下了一场大雨，路上全是积水。",
    "这条路总是堵车，上班要提前出门。",
    "楼下在施工，吵得我睡不着。",
    "温度小于十度的时候记得穿外套。",
    "他的工资很高，但是天天加班。",
    "高工资的工作不好找。",
    "有时总是想起小时候的事。",
    "终于工作了，第一个月的工资要请客。",
    "钱总是不够花，这个月又超支了。",
    "向总部汇报之前先把数据核对一遍。",
    "修路工人很辛苦。",
    "完成工作以后我们去吃火锅。",
    "他常常工作到深夜。",
    "我老是忘记带钥匙。",
    "小王子是我最喜欢的书。",
    "老黄历上说今天宜出行。",
    "亮晶晶的星星挂在天上。",
    "知足常乐是一种生活态度。",
    "建国以来这座城市变化很大。",
    "国庆节我们打算去云南旅游。",
    "看到这个消息我很开心。",
    "一路向东就能看到大海。",
    "白菜豆腐汤很好喝。",
    "这个小区的绿化做得很好。",
    "超市里的可乐打折了。",
    "今晚吃饺子还是面条？",
    "这家店的小笼包特别好吃。",
    "周一早上有个会，别忘了。",
    "项目的截止日期是下周五。",
    "地铁里人太多了，挤不上去。",
    "明天要降温，多穿点衣服。",
    "春天来了，公园里的花都开了。",
    "考试的成绩下周出来。",
    "周围的环境很安静。",
    "路边的小吃摊生意很好。",
    "他小心翼翼地把杯子放在桌上。",
    "这个问题马上就能解决。",
    "资金总额已经超过预算了。",
    "时间过得真快，又到年底了。",
    "文工团今晚有演出。",
    "于是我们决定改天再去。",
    "马路对面新开了一家咖啡店。",
    "白天太热了，晚上再出门吧。",
    "成本太高了，得想办法降下来。",
    "老高兴了，一晚上没睡着。",
    "黄金周出去玩的人特别多。",
    "小超市就在楼下。",
    "一共花了两个小时。",
    "小雪节气到了，天气越来越冷。",
    "给服务员的小费要另外算吗？",
    "他开心得像个孩子。",
    "这次的任务比上次难多了。",
    "我们打算乘高铁去杭州。",
    "常见的问题都写在文档里了。",
    "钱包丢了，真倒霉。",
    "阿姨做的饭很好吃。",
    "小路两边种满了树。",
    "这个方案总体上可行。",
    "天天向上，好好学习。",
    "打工的人都回家过年了。",
    "今天的晚霞特别美。",
]

# Sentences that call someone by a generated form: (sentence, the person meant).
NICKNAMED = [
    ("霓霓今晚来吃饭吗", "p01"),
    ("老王说明天不上班", "p02"),
    ("张老师布置的作业太难了", "p04"),
    ("施总明天到", "p18"),
    ("于总说项目延期了", "p19"),
    ("时总今天不在", "p20"),
    ("高工在开会", "p17"),
    ("路哥开车送我们回家", "p23"),
    ("阿伟你好", "p02"),
    ("娜娜生日快乐", "p03"),
    ("晓东来了没", "p33"),
    ("小强又迟到了", "p09"),
    ("钱姐请大家喝奶茶", "p26"),
    ("老黄，明天一起钓鱼", "p08"),
    ("帆帆考上大学了", "p07"),
    ("鑫鑫的猫丢了", "p25"),
    ("欢欢明天过生日", "p19"),
    ("常哥今天请客", "p22"),
    ("小成最近很忙", "p21"),
    ("白姐做的蛋糕好吃", "p24"),
    ("费总到了吗", "p27"),
    ("向总的电话打不通", "p28"),
    ("老欧阳说他不去了", "p29"),
    ("司马老师讲得很好", "p30"),
    ("林总，合同签好了", "p16"),
    ("超超在哪里", "p12"),
    ("小敏去北京了", "p04"),
    ("阿静和我们一起去", "p06"),
    ("胡哥今天值班", "p14"),
    ("朱老师好", "p13"),
    ("小吴帮我拿一下快递", "p10"),
    ("孙姐你好", "p11"),
    ("刘总在吗", "p05"),
    ("杨工明天出差", "p07"),
    ("周工，图纸改好了吗", "p01"),
    ("晶晶，你的快递到了", "p15"),
    ("小明今天请假了", "p35"),
    ("老金请客吃烤肉", "p25"),
]


def _entries() -> list[AliasEntry]:
    out = []
    for person, name in NAMES.items():
        out.append(AliasEntry(name, person, "name"))
        out += [AliasEntry(form, person, "generated") for form in generated_aliases(name)]
    return out


@pytest.fixture(scope="module")
def index() -> AliasIndex:
    return AliasIndex(_entries())


def test_no_generated_form_fires_in_ordinary_sentences(index: AliasIndex) -> None:
    assert len(ORDINARY) >= 60
    fired = {s: [(m.alias, m.source) for m in index.find(s)] for s in ORDINARY if index.find(s)}
    # Names match as substrings by design, so a name that is a rare word fires inside a longer
    # one: only 常乐 of the 35 names does it here (向东, an everyday word, fires only where a name
    # goes); no generated form does.
    assert fired == {"知足常乐是一种生活态度。": [("常乐", "name")]}


def test_every_nickname_is_found(index: AliasIndex) -> None:
    missed = [(s, p) for s, p in NICKNAMED if not any(p in m.person_ids for m in index.find(s))]
    assert missed == []


def test_group_members_settle_the_shared_forms(index: AliasIndex) -> None:
    everyone = set(NAMES)
    for sentence, person in NICKNAMED:
        shared = {p for m in index.find(sentence) if person in m.person_ids for p in m.person_ids}
        members = everyone - (shared - {person})  # a group where the others sharing it are absent
        assert index.people(sentence, members) == [person], sentence


def test_common_words_among_generated_forms_are_not_indexed(index: AliasIndex) -> None:
    for word in ["明明", "刚刚", "施工", "小于", "小时", "建国", "国庆", "开心", "小白", "小钱"]:
        assert index.find(f"我们{word}。") == [], word
    # a person who is really called so is found: only the guess is dropped
    assert AliasIndex([AliasEntry("明明", "p1", "learned")]).people("明明来了") == ["p1"]


def test_a_generated_form_needs_word_boundaries_an_explicit_one_does_not() -> None:
    guess = AliasIndex([AliasEntry("周工", "p1", "generated")])
    said = AliasIndex([AliasEntry("周工", "p1", "learned")])
    assert guess.find("这周工作很忙") == []
    assert [m.alias for m in guess.find("周工说这周工作很忙")] == ["周工"]
    assert [m.start for m in said.find("这周工作很忙")] == [1]
    assert AliasIndex([AliasEntry("老王", "p1", "generated")]).people("老王说") == ["p1"]


def test_a_one_character_alias_is_a_word_or_nothing() -> None:
    index = AliasIndex([AliasEntry("霓", "p1", "learned"), AliasEntry("N", "p2", "name")])
    assert index.people("霓虹灯很亮") == []
    assert index.people("霓，今天来吗") == ["p1"]
    assert index.people("N is here") == []  # a single letter only when registered
    assert AliasIndex([AliasEntry("N", "p2", "registered")]).people("n is here") == ["p2"]


def test_latin_is_word_bounded_and_case_insensitive() -> None:
    index = AliasIndex([AliasEntry("Neko", "p1", "name"), AliasEntry("neko_z", "p1", "mention")])
    assert [(m.alias, m.start) for m in index.find("NEKO, neko and Neko!")] == [("NEKO", 0), ("neko", 6), ("Neko", 15)]
    assert index.find("Nekomata and MyNeko and neko2") == []
    assert [m.alias for m in index.find("Neko今晚来吗，和neko_z一起")] == ["Neko", "neko_z"]


def test_generated_latin_forms_that_are_words_are_not_indexed() -> None:
    entries = [AliasEntry(f, "p1", "generated") for f in generated_aliases("William Smith")]
    index = AliasIndex(entries)
    assert index.find("Will you pay the bill?") == []
    assert index.people("William said hi") == ["p1"]


def test_leftmost_longest_without_overlaps() -> None:
    index = AliasIndex([AliasEntry("周霓霓", "p1", "name"), AliasEntry("霓霓", "p2", "learned"),
                        AliasEntry("霓霓子", "p3", "name")])
    assert [(m.alias, m.person_ids) for m in index.find("周霓霓子")] == [("周霓霓", ("p1",))]
    assert [(m.alias, m.start, m.end) for m in index.find("霓霓子和霓霓")] == [("霓霓子", 0, 3), ("霓霓", 4, 6)]


def test_ambiguity_with_and_without_members() -> None:
    index = AliasIndex([AliasEntry("老王", "p1", "generated"), AliasEntry("老王", "p2", "generated"),
                        AliasEntry("老王", "p3", "generated")])
    [match] = index.find("老王来了")
    assert match.ambiguous and match.person_ids == ("p1", "p2", "p3")
    assert index.find("老王来了", {"p2", "p9"})[0].person_ids == ("p2",)
    assert index.find("老王来了", ["p1", "p3"])[0].person_ids == ("p1", "p3")
    assert index.find("老王来了", set())[0].person_ids == ("p1", "p2", "p3")  # no member: all
    assert index.people("老王来了") == []


def test_the_strongest_source_is_reported_and_beats_a_guess() -> None:
    index = AliasIndex([AliasEntry("霓霓", "p1", "generated"), AliasEntry("霓霓", "p1", "learned"),
                        AliasEntry("霓霓", "p1", "mention"), AliasEntry("霓霓", "p2", "generated")])
    [match] = index.find("霓霓在吗")
    assert match == Match("霓霓", 0, 2, ("p1",), "learned")  # p2 only has it as a guess
    registered = AliasIndex([AliasEntry("Neko", "p1", "name"), AliasEntry("neko", "p1", "registered")])
    assert registered.find("neko")[0].source == "registered"


def test_members_first_then_what_was_said_over_what_was_guessed() -> None:
    index = AliasIndex([AliasEntry("老王", "p1", "generated"), AliasEntry("老王", "p2", "learned")])
    assert index.people("老王说", {"p1"}) == ["p1"]
    assert index.people("老王说") == ["p2"]


def test_people_lists_each_person_once_in_order(index: AliasIndex) -> None:
    assert index.people("霓霓和鑫鑫，还有周霓") == ["p01", "p25"]


def test_empty_index_and_text() -> None:
    empty = AliasIndex([])
    assert empty.empty and empty.find("霓霓") == [] and empty.people("x") == []
    assert not AliasIndex([AliasEntry("霓霓", "p1", "name")]).empty
    assert AliasIndex([AliasEntry("霓霓", "p1", "name")]).find("") == []


def test_spans_survive_characters_that_lengthen_when_lower_cased() -> None:
    index = AliasIndex([AliasEntry("Neko", "p1", "name")])
    text = "İstanbul: NEKO"
    [match] = index.find(text)
    assert text[match.start:match.end] == "NEKO" == match.alias


def test_an_unknown_source_is_refused() -> None:
    with pytest.raises(InvalidInput, match="source='guessed' is invalid"):
        AliasEntry("霓霓", "p1", "guessed")


def test_building_is_one_automaton_and_does_not_cut_text_it_does_not_need() -> None:
    # Latin-only and explicit Chinese aliases never need jieba's boundaries
    entries = [AliasEntry(f"name{i}", f"p{i}", "name") for i in range(10_000)]
    index = AliasIndex(entries + [AliasEntry("霓霓", "p1", "learned")])
    assert index.people("name42 和 霓霓 和 name9999") == ["p42", "p1", "p9999"]


def test_examples_in_docstrings() -> None:
    assert doctest.testmod(resolve).failed == 0


def test_a_name_that_is_an_everyday_word_names_someone_only_where_a_name_goes() -> None:
    index = AliasIndex([AliasEntry("小雨", "p1", "learned"), AliasEntry("静静", "p2", "learned"),
                        AliasEntry("高峰", "p3", "name"), AliasEntry("萌萌", "p4", "registered"),
                        AliasEntry("老王", "p5", "generated")])
    weather_and_words = ["外面在下小雨", "明早可能有小雨", "你先让我静静", "她静静地坐着", "高峰期别开车",
                         "早高峰堵死了", "这只猫萌萌哒"]
    assert {s: index.people(s) for s in weather_and_words if index.people(s)} == {}
    assert index.people("下班高峰堵死了") == ["p3"]  # a limit: after a verb (下班) a word reads as a name
    named = [("小雨在吗", "p1"), ("@小雨 明天见", "p1"), ("我跟小雨说了", "p1"), ("静静，作业写完没", "p2"),
             ("请静静帮个忙", "p2"), ("谢谢高峰！", "p3"), ("阿杰、高峰都到了", "p3"), ("萌萌你好", "p4"),
             ("问一下萌萌", "p4"), ("你认识静静吗", "p2"), ("静静的书", "p2"),
             ("听老王说了", "p5")]  # 老王 is a form of address, not a word
    assert [index.people(s) for s, _ in named] == [[p] for _, p in named]
    # places and things (the graph's entities) are named after 在, 去, 到: no such rule for them
    assert AliasIndex([AliasEntry("字节", "e1", "name")], of_people=False).people("谁在字节工作") == ["e1"]
    assert AliasIndex([AliasEntry("字节", "p1", "name")]).people("谁在字节工作") == []
