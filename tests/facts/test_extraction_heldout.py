"""Held-out phrasings for the offline rules: how people state facts in a group chat (zh/en).

Written before the rules were broadened, from how people talk rather than from any scenario:
particles (啦/呀/哈/嘛), emoji, "lol", fragments without a subject, a topic put first
("榴莲我真的受不了"). Each kind has phrasings in both languages; a change of job or home
must come out "corrected" so that it supersedes the old value. The negative set (questions,
hedges, wishes, jokes, negations, other people, past states) must yield nothing at all.
Third-person statements go through ``attribution`` first, as ``extraction`` runs them.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from pmemo.rules.agenda_rules import plans
from pmemo.rules.attribution import Mention, by_subject
from pmemo.rules.extract_rules import extract

WHEN = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)  # a Monday
Facts = set[tuple[str, str]]

# kind → language → (message, the facts it states); every fact of the message is listed
STATED: dict[str, dict[str, list[tuple[str, Facts]]]] = {
    "employer": {
        "zh": [
            ("我在云杉科技上班哈", {("employer", "云杉科技")}),
            ("本人星河证券打工人一枚😂", {("employer", "星河证券")}),
            ("我是蓝鲸数据的，搞后端的", {("employer", "蓝鲸数据"), ("job", "后端")}),
            ("目前在字节搬砖中～", {("employer", "字节")}),
            ("现就职于招商银行", {("employer", "招商银行")}),
            ("我在美团干了三年了", {("employer", "美团")}),
            ("在蚂蚁金服当码农", {("employer", "蚂蚁金服"), ("job", "码农")}),
            ("华为员工一枚，天天加班😭", {("employer", "华为")}),
        ],
        "en": [
            ("I work at Fernway btw", {("employer", "Fernway")}),
            ("I'm at Northwind these days", {("employer", "Northwind")}),
            ("currently working at Lumen Health", {("employer", "Lumen Health")}),
            ("I've been at Brightline for 3 years now", {("employer", "Brightline")}),
            ("Work for Tidewater Logistics, it's fine", {("employer", "Tidewater Logistics")}),
            ("Employed at Cobalt Systems since 2019", {("employer", "Cobalt Systems")}),
            ("I'm with Oakridge Capital now, in the risk team", {("employer", "Oakridge Capital")}),
        ],
    },
    "job_change": {
        "zh": [
            ("我从阿里离职了，下周去拼多多报到", {("employer", "拼多多")}),
            ("跳槽啦！现在在快手", {("employer", "快手")}),
            ("我已经从腾讯跳到网易了", {("employer", "网易")}),
            ("离开百度了，加入了小米", {("employer", "小米")}),
            ("换工作啦，新公司是京东", {("employer", "京东")}),
            ("辞职了，新工作在蔚来", {("employer", "蔚来")}),
            ("我不在理想了，跳到了蔚来", {("employer", "蔚来")}),
        ],
        "en": [
            ("quit Oracle last month, now at Figma", {("employer", "Figma")}),
            ("I switched jobs, I'm at Stripe now", {("employer", "Stripe")}),
            ("just started at Canva this week!", {("employer", "Canva")}),
            ("new job at Atlassian 🎉", {("employer", "Atlassian")}),
            ("I quit my job at Shopify and joined Notion", {("employer", "Notion")}),
            ("no longer at Google, I work for Anthropic now", {("employer", "Anthropic")}),
            ("got a new gig at Spotify lol", {("employer", "Spotify")}),
        ],
    },
    "city": {
        "zh": [
            ("坐标杭州～", {("home_city", "杭州")}),
            ("本人常驻上海", {("home_city", "上海")}),
            ("我家在南京哈", {("home_city", "南京")}),
            ("我base广州", {("home_city", "广州")}),
            ("我在厦门住了五年了", {("home_city", "厦门")}),
            ("我一直住成都呀", {("home_city", "成都")}),
            ("目前定居大连", {("home_city", "大连")}),
        ],
        "en": [
            ("based in Toronto 🇨🇦", {("home_city", "Toronto")}),
            ("I'm in Berlin these days", {("home_city", "Berlin")}),
            ("I'm from Osaka but I live in Kyoto now", {("home_city", "Kyoto")}),
            ("Currently living in Austin lol", {("home_city", "Austin")}),
            ("I've lived in Seattle for 6 years", {("home_city", "Seattle")}),
            ("Melbourne-based here", {("home_city", "Melbourne")}),
            ("Dublin is home now 🏡", {("home_city", "Dublin")}),
        ],
    },
    "move": {
        "zh": [
            ("我从北京搬来上海了", {("home_city", "上海")}),
            ("上个月搬去成都了", {("home_city", "成都")}),
            ("我搬家到武汉啦🎉", {("home_city", "武汉")}),
            ("我离开广州了，现在住长沙", {("home_city", "长沙")}),
            ("我移居温哥华了", {("home_city", "温哥华")}),
            ("我现在搬到西安住了", {("home_city", "西安")}),
            ("终于从深圳搬回老家福州了", {("home_city", "福州")}),
        ],
        "en": [
            ("just relocated to Singapore!", {("home_city", "Singapore")}),
            ("I moved from Boston to Chicago", {("home_city", "Chicago")}),
            ("finally moved out of London, living in Bristol now", {("home_city", "Bristol")}),
            ("I've just moved over to Amsterdam", {("home_city", "Amsterdam")}),
            ("left Paris, now in Lyon", {("home_city", "Lyon")}),
            ("packed up and moved to Madrid 😅", {("home_city", "Madrid")}),
        ],
    },
    "pet": {
        "zh": [
            ("我养了只柯基，叫豆豆", {("pet:dog", "豆豆")}),
            ("家里有只橘猫叫大橘", {("pet:cat", "大橘")}),
            ("我的狗子叫可乐", {("pet:dog", "可乐")}),
            ("我有一只兔子叫棉花", {("pet:rabbit", "棉花")}),
            ("我家喵星人叫布丁", {("pet:cat", "布丁")}),
            ("我家那只仓鼠名字叫团子", {("pet:hamster", "团子")}),
            ("我家有条金毛，名字叫旺仔", {("pet:dog", "旺仔")}),
        ],
        "en": [
            ("my cat's called Biscuit", {("pet:cat", "Biscuit")}),
            ("I have a corgi named Waffles", {("pet:dog", "Waffles")}),
            ("got a puppy last week, his name is Pretzel", {("pet:dog", "Pretzel")}),
            ("my dog Luna is the best", {("pet:dog", "Luna")}),
            ("meet my rabbit, Clover 🐰", {("pet:rabbit", "Clover")}),
            ("I've got a tabby called Ginger", {("pet:cat", "Ginger")}),
            ("our cat's name is Tofu", {("pet:cat", "Tofu")}),
        ],
    },
    "study": {
        "zh": [
            ("本人浙大在读，学的金融", {("school", "浙大"), ("major", "金融")}),
            ("我大学学的是建筑", {("major", "建筑")}),
            ("我是武大计算机系的", {("school", "武大"), ("major", "计算机")}),
            ("我研究生读的是心理学", {("major", "心理学")}),
            ("我在川大念大三", {("school", "川大")}),
            ("我是学医的", {("major", "医")}),
            ("我是南开的研究生，读化学", {("school", "南开"), ("major", "化学"), ("job", "研究生")}),
        ],
        "en": [
            ("I study CS at Waterloo", {("major", "cs"), ("school", "Waterloo")}),
            ("I'm a sophomore at Rutgers", {("school", "Rutgers")}),
            ("majoring in economics at UCLA lol", {("major", "economics"), ("school", "UCLA")}),
            ("my major's biology", {("major", "biology")}),
            ("I go to Oxford", {("school", "Oxford")}),
            ("doing a PhD in chemistry at ETH", {("major", "chemistry"), ("school", "ETH")}),
            ("I'm in my second year at McGill, studying nursing", {("school", "McGill"), ("major", "nursing")}),
        ],
    },
    "job": {
        "zh": [
            ("本人程序员一枚", {("job", "程序员")}),
            ("我是当老师的", {("job", "老师")}),
            ("我的工作是产品经理", {("job", "产品经理")}),
            ("职业是律师哈", {("job", "律师")}),
            ("我干设计的", {("job", "设计")}),
            ("我在医院当护士", {("job", "护士")}),
            ("做了五年会计了", {("job", "会计")}),
        ],
        "en": [
            ("what do I do? I'm a dentist lol", {("job", "dentist")}),
            ("I work as a barista on weekends", {("job", "barista")}),
            ("teacher here 👋", {("job", "teacher")}),
            ("I'm an accountant by trade", {("job", "accountant")}),
            ("nurse by profession", {("job", "nurse")}),
            ("my job title is product designer", {("job", "product designer")}),
            ("my job? data engineer", {("job", "data engineer")}),
        ],
    },
    "allergy": {
        "zh": [
            ("我海鲜过敏", {("allergy:海鲜", "allergic")}),
            ("本人芒果过敏，谢谢大家", {("allergy:芒果", "allergic")}),
            ("我可是对猫毛过敏的", {("allergy:猫毛", "allergic")}),
            ("我有花粉过敏", {("allergy:花粉", "allergic")}),
            ("吃虾会过敏😭", {("allergy:虾", "allergic")}),
            ("对青霉素过敏哈", {("allergy:青霉素", "allergic")}),
            ("我对坚果严重过敏", {("allergy:坚果", "allergic")}),
        ],
        "en": [
            ("allergic to cats, sadly 😿", {("allergy:cats", "allergic")}),
            ("I have a peanut allergy", {("allergy:peanut", "allergic")}),
            ("severe nut allergy here", {("allergy:nut", "allergic")}),
            ("I'm super allergic to pollen", {("allergy:pollen", "allergic")}),
            ("I've got a shellfish allergy", {("allergy:shellfish", "allergic")}),
            ("I'm deathly allergic to bees lol", {("allergy:bees", "allergic")}),
        ],
    },
    "diet": {
        "zh": [
            ("我不吃猪肉的", {("diet:猪肉", "does not eat")}),
            ("我从来不吃辣", {("diet:辣", "does not eat")}),
            ("吃全素三年了", {("diet", "吃全素")}),
            ("牛肉我是不吃的", {("diet:牛肉", "does not eat")}),
            ("我不能吃辣", {("diet:辣", "does not eat")}),
            ("我最近在吃素", {("diet", "吃素")}),
            ("羊肉我一口都不吃", {("diet:羊肉", "does not eat")}),
        ],
        "en": [
            ("vegetarian here 🌱", {("diet", "vegetarian")}),
            ("I'm vegan btw", {("diet", "vegan")}),
            ("I gave up meat last year", {("diet:meat", "does not eat")}),
            ("I stopped eating red meat", {("diet:red meat", "does not eat")}),
            ("I can't eat spicy food", {("diet:spicy food", "does not eat")}),
            ("been vegetarian for 5 years", {("diet", "vegetarian")}),
            ("I never eat beef lol", {("diet:beef", "does not eat")}),
        ],
    },
    "opinion": {
        "zh": [
            ("我超爱火锅的！", {("opinion:火锅", "likes")}),
            ("我对爵士乐特别感兴趣", {("opinion:爵士乐", "likes")}),
            ("我是周杰伦的铁粉", {("opinion:周杰伦", "likes")}),
            ("我最近迷上了滑雪", {("opinion:滑雪", "likes")}),
            ("榴莲我真的受不了", {("opinion:榴莲", "dislikes")}),
            ("我一点都不喜欢跑步", {("opinion:跑步", "dislikes")}),
            ("我受不了香菜的味道", {("opinion:香菜的味道", "dislikes")}),
            ("我是个猫控哈哈", {("opinion:猫", "likes")}),
        ],
        "en": [
            ("big fan of jazz here", {("opinion:jazz", "likes")}),
            ("I'm really into bouldering", {("opinion:bouldering", "likes")}),
            ("I'm obsessed with matcha lately", {("opinion:matcha", "likes")}),
            ("not a fan of horror movies tbh", {("opinion:horror movies", "dislikes")}),
            ("I can't stand reality TV", {("opinion:reality tv", "dislikes")}),
            ("I'm a huge Arsenal fan", {("opinion:arsenal", "likes")}),
            ("I'm not into golf at all", {("opinion:golf", "dislikes")}),
        ],
    },
    "favorite": {
        "zh": [
            ("我最爱的歌手是陈奕迅", {("favorite:歌手", "陈奕迅")}),
            ("最喜欢的电影是千与千寻", {("favorite:电影", "千与千寻")}),
            ("我最喜欢的颜色是蓝色哈", {("favorite:颜色", "蓝色")}),
            ("火锅永远是我的最爱", {("opinion:火锅", "likes")}),
            ("我最爱的一本书是《活着》", {("favorite:书", "《活着》")}),
            ("奶茶是我的心头好", {("opinion:奶茶", "likes")}),
            ("我最喜欢的运动是羽毛球啦", {("favorite:运动", "羽毛球")}),
        ],
        "en": [
            ("fave band is Radiohead", {("favorite:band", "Radiohead")}),
            ("my all-time favourite movie is Spirited Away", {("favorite:movie", "Spirited Away")}),
            ("Pho is my favorite food", {("favorite:food", "Pho")}),
            ("my favorite sport has to be tennis", {("favorite:sport", "tennis")}),
            ("The Beatles are my favourite band", {("favorite:band", "The Beatles")}),
            ("ramen is my fave", {("opinion:ramen", "likes")}),
            ("my favourite drink? iced latte, always", {("favorite:drink", "iced latte")}),
        ],
    },
}

# a change of job or home supersedes the old value: its fact carries the "corrected" source
CHANGES = ("job_change", "move")

NOT_STATED = [
    "我才不在腾讯上班",  # negation
    "我不是程序员哈",
    "I'm not vegetarian lol",
    "I'm not a teacher lol",
    "Joking, I don't actually work at NASA 😂",
    "你在哪上班呀？",  # questions
    "你是不是在字节上班",
    "Are you allergic to nuts?",
    "who here works at Google?",
    "谁对花生过敏？",
    "我要是在字节上班就好了",  # wishes and hypotheticals
    "if I moved to Berlin I'd miss you guys",
    "I'd love to work at Google someday",
    "I wish I lived in Tokyo",
    "I want to move to Canada",
    "我想养只猫",
    "我下辈子要当猫",
    "我梦见自己搬到了东京",
    "我可能下个月搬去深圳",  # hedges and plans not yet done
    "I might be allergic to dairy, not sure",
    "我在考虑跳槽去美团",
    "我打算辞职去深圳",
    "我朋友在阿里工作",  # someone else, unnamed
    "我老婆对芒果过敏",
    "my brother lives in Boston",
    "she's allergic to cats",
    "他是做销售的",
    "my cat hates the vet",
    "我家附近有只流浪猫叫咪咪",
    "I used to live in Paris",  # past states
    "我以前住在广州",
    "我在星巴克呢，快来",  # where someone is right now
    "I'm at Starbucks rn, come join",
    "I'm at the gym",
    "我在北京出差",
    "昨天去了趟上海",
    "I'm a big fan of that idea",
    "我是你爹😂",  # a joke
    "I'm in a meeting",
    "我在地铁上",
]

# third person: a named person's statement, as attribution rewrites it (names the resolver found)
PEOPLE = {"阿杰": "jie", "小林": "lin", "老周": "zhou", "Sam": "sam", "Priya": "priya", "Kai": "kai"}
_NAMES = re.compile("|".join(sorted(PEOPLE, key=len, reverse=True)))
ABOUT_OTHERS: dict[str, list[tuple[str, str, Facts]]] = {
    "zh": [
        ("阿杰是做销售的", "jie", {("job", "销售")}),
        ("小林对芒果过敏哦", "lin", {("allergy:芒果", "allergic")}),
        ("老周最近迷上了钓鱼", "zhou", {("opinion:钓鱼", "likes")}),
        ("阿杰在网易上班", "jie", {("employer", "网易")}),
        ("小林搬去苏州了", "lin", {("home_city", "苏州")}),
        ("老周家的狗叫黑豆", "zhou", {("pet:dog", "黑豆")}),
        ("小林不吃辣的", "lin", {("diet:辣", "does not eat")}),
    ],
    "en": [
        ("Sam's vegan btw", "sam", {("diet", "vegan")}),
        ("Priya is a huge Taylor Swift fan", "priya", {("opinion:taylor swift", "likes")}),
        ("Kai works for Zenith as a pilot", "kai", {("employer", "Zenith"), ("job", "pilot")}),
        ("Sam just moved to Leeds", "sam", {("home_city", "Leeds")}),
        ("Priya has a cat named Miso", "priya", {("pet:cat", "Miso")}),
        ("Kai is allergic to shellfish", "kai", {("allergy:shellfish", "allergic")}),
        ("Sam studies law at Durham", "sam", {("major", "law"), ("school", "Durham")}),
    ],
}
# a first-person clause beside a named person's is the speaker's
MIXED = [
    ("阿杰什么都吃，我可是花生过敏的", {(None, "allergy:花生"), ("jie", None)}),
    ("Sam eats anything, but I'm allergic to kiwi", {(None, "allergy:kiwi"), ("sam", None)}),
    ("小林在腾讯，我在阿里", {("lin", "employer"), (None, "employer")}),
    ("Priya lives in Leeds and I live in York", {("priya", "home_city"), (None, "home_city")}),
]

PLANNED = [
    ("下周五答辩，这几天可能不怎么回消息", "答辩"),
    ("周六考雅思，可能没空看群", "雅思考试"),
    ("I booked my driving test for March 20", "driving test"),
    ("booked my IELTS for April 6, wish me luck", "ielts"),
    ("scheduled my dentist appointment for Friday", "dentist appointment"),
    ("my interview is on Thursday, probably won't be online much", "interview"),
]
NOT_PLANNED = [
    "可能下周五答辩",
    "如果顺利的话，周六考雅思",
    "I might book my driving test for March 20",
    "if it works out, my interview is on Thursday",
]


def _facts(text: str) -> Facts:
    return {(c.key, c.value) for c in extract(text, WHEN)}


# what the rules still miss, kept in view: a school named without a word that says it is one
MISSED = {"I go to Oxford": "'go to' a bare name: a school, a shop or a town"}


def _cases() -> list[object]:
    return [
        pytest.param(
            kind,
            text,
            expected,
            id=f"{kind}-{lang}-{i}",
            marks=[pytest.mark.xfail(strict=True, reason=MISSED[text])] if text in MISSED else [],
        )
        for kind, langs in STATED.items()
        for lang, rows in langs.items()
        for i, (text, expected) in enumerate(rows)
    ]


@pytest.mark.parametrize("kind, text, expected", _cases())
def test_stated_facts(kind: str, text: str, expected: Facts) -> None:
    found = extract(text, WHEN)
    assert {(c.key, c.value) for c in found} == expected
    if kind in CHANGES:
        assert all(c.source == "corrected" for c in found)


def test_every_kind_has_six_phrasings_in_each_language() -> None:
    assert all(len(rows) >= 6 for langs in STATED.values() for rows in langs.values())
    assert len(NOT_STATED) >= 20


@pytest.mark.parametrize("text", NOT_STATED, ids=[f"none-{i}" for i in range(len(NOT_STATED))])
def test_nothing_stated(text: str) -> None:
    assert _facts(text) == set()


def _mentions(text: str) -> list[Mention]:
    return [Mention(m.start(), m.end(), PEOPLE[m.group(0)]) for m in _NAMES.finditer(text)]


def _by_person(text: str) -> dict[str | None, Facts]:
    out: dict[str | None, Facts] = {}
    for a in by_subject(text, _mentions(text)):
        out.setdefault(a.subject, set()).update(_facts(a.text))
    return out


@pytest.mark.parametrize(
    "text, person, expected",
    [pytest.param(*row, id=f"third-{lang}-{i}") for lang, rows in ABOUT_OTHERS.items() for i, row in enumerate(rows)],
)
def test_third_person_statements(text: str, person: str, expected: Facts) -> None:
    assert _by_person(text) == {person: expected}


@pytest.mark.parametrize("text, keys", MIXED, ids=[f"mixed-{i}" for i in range(len(MIXED))])
def test_the_speaker_beside_a_named_person(text: str, keys: set[tuple[str | None, str | None]]) -> None:
    found = _by_person(text)
    for person, key in keys:
        if key is None:
            assert not found.get(person)
        else:
            assert key in {k for k, _ in found.get(person, set())}


@pytest.mark.parametrize("text, what", PLANNED, ids=[f"plan-{i}" for i in range(len(PLANNED))])
def test_plans_beside_a_hedged_clause(text: str, what: str) -> None:
    assert [p.what.lower() for p in plans(text, WHEN.replace(tzinfo=None))] == [what]


@pytest.mark.parametrize("text", NOT_PLANNED, ids=[f"noplan-{i}" for i in range(len(NOT_PLANNED))])
def test_hedged_plans(text: str) -> None:
    assert plans(text, WHEN.replace(tzinfo=None)) == []


# A second set, written once the rules passed the first one and measured before any change
# for it (36 of 50 stated, 14 of 16 negatives clean); the rules were then broadened again.
SECOND = [  # (kind, language, message, the facts it states)
    ("employer", "zh", "我现在在拼多多做运营", {("employer", "拼多多"), ("job", "运营")}),
    ("employer", "zh", "鄙人在华为上班哈哈", {("employer", "华为")}),
    ("employer", "zh", "在星河互娱上班，天天加班", {("employer", "星河互娱")}),
    ("employer", "zh", "我们公司是小红书，我在那边做设计", {("employer", "小红书"), ("job", "设计")}),
    ("employer", "en", "I'm a nurse at St Mary's", {("job", "nurse"), ("employer", "St Mary's")}),
    ("employer", "en", "been working at Shopify for two years", {("employer", "Shopify")}),
    ("employer", "en", "I work over at Brightwave Media", {("employer", "Brightwave Media")}),
    ("employer", "en", "day job is at Lattice Bank", {("employer", "Lattice Bank")}),
    ("job_change", "zh", "上周刚入职网易，还在适应", {("employer", "网易")}),
    ("job_change", "zh", "我换到京东了", {("employer", "京东")}),
    ("job_change", "zh", "从美团出来了，现在在滴滴", {("employer", "滴滴")}),
    ("job_change", "en", "I just joined Stripe as a designer", {("employer", "Stripe"), ("job", "designer")}),
    ("job_change", "en", "left Acme last month, started at Globex on Monday", {("employer", "Globex")}),
    ("job_change", "en", "switched to Figma recently", {("employer", "Figma")}),
    ("city", "zh", "我人在成都", {("home_city", "成都")}),
    ("city", "zh", "我一直住在西安呀", {("home_city", "西安")}),
    ("city", "zh", "在深圳生活了快十年", {("home_city", "深圳")}),
    ("city", "en", "I live just outside Boston", set()),
    ("city", "en", "living in Toronto these days", {("home_city", "Toronto")}),
    ("city", "en", "I'm based out of Chicago", {("home_city", "Chicago")}),
    ("move", "zh", "我搬到苏州啦，欢迎来玩", {("home_city", "苏州")}),
    ("move", "zh", "去年搬来北京了", {("home_city", "北京")}),
    ("move", "en", "we moved to Denver last summer", {("home_city", "Denver")}),
    ("move", "en", "I relocated to Austin for work", {("home_city", "Austin")}),
    ("pet", "zh", "我家那只哈士奇叫二饼", {("pet:dog", "二饼")}),
    ("pet", "zh", "家里养了只布偶，名字叫雪球", {("pet:cat", "雪球")}),
    ("pet", "en", "my dog's name is Biscuit lol", {("pet:dog", "Biscuit")}),
    ("pet", "en", "we have a cat called Noodle", {("pet:cat", "Noodle")}),
    ("study", "zh", "我在同济读建筑", {("school", "同济"), ("major", "建筑")}),
    ("study", "zh", "我是学法律的", {("major", "法律")}),
    ("study", "en", "I'm studying law at King's College", {("major", "law"), ("school", "King's College")}),
    ("study", "en", "I'm a grad student at NYU", {("school", "NYU"), ("job", "grad student")}),
    ("job", "zh", "我是一名小学老师", {("job", "小学老师")}),
    ("job", "zh", "干会计的，天天对账", {("job", "会计")}),
    ("job", "en", "I'm a software dev lol", {("job", "software dev")}),
    ("job", "en", "full-time photographer here", {("job", "full-time photographer")}),
    ("allergy", "zh", "我对酒精过敏", {("allergy:酒精", "allergic")}),
    ("allergy", "zh", "本人花粉过敏，春天好痛苦", {("allergy:花粉", "allergic")}),
    ("allergy", "en", "I'm allergic to penicillin", {("allergy:penicillin", "allergic")}),
    ("allergy", "en", "got a really bad nut allergy", {("allergy:nut", "allergic")}),
    ("diet", "zh", "我不吃牛肉的哈", {("diet:牛肉", "does not eat")}),
    ("diet", "zh", "我吃素的，别给我点肉", {("diet", "吃素")}),
    ("diet", "en", "I don't eat pork btw", {("diet:pork", "does not eat")}),
    ("diet", "en", "vegan for 3 years now", {("diet", "vegan")}),
    ("opinion", "zh", "我贼喜欢打羽毛球", {("opinion:打羽毛球", "likes")}),
    ("opinion", "zh", "我特别讨厌下雨天", {("opinion:下雨天", "dislikes")}),
    ("opinion", "en", "I absolutely love sushi", {("opinion:sushi", "likes")}),
    ("opinion", "en", "not really a fan of jazz", {("opinion:jazz", "dislikes")}),
    ("favorite", "zh", "我最喜欢的歌手是周杰伦", {("favorite:歌手", "周杰伦")}),
    ("favorite", "en", "favorite food is ramen, hands down", {("favorite:food", "ramen")}),
]
SECOND_NOT_STATED = [
    "我才不吃素呢",
    "你是做什么工作的？",
    "我哥在阿里上班",
    "我要是能去谷歌就好了",
    "she moved to Paris",
    "I'd never move to LA",
    "我以前养过一只猫",
    "I used to work at Google",
    "等我搬到上海再说",
    "I'm not allergic to anything",
    "我在考虑养狗",
    "my mom is a teacher",
    "I'm in a rush",
    "我在开会",
    "I love you guys lol",
    "我爱死这个表情包了",
]
SECOND_MISSED = {"switched to Figma recently": "'switched to' a name: a job, a phone or a tool"}


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param(
            text,
            expected,
            id=f"second-{kind}-{lang}-{i}",
            marks=[pytest.mark.xfail(strict=True, reason=SECOND_MISSED[text])] if text in SECOND_MISSED else [],
        )
        for i, (kind, lang, text, expected) in enumerate(SECOND)
    ],
)
def test_second_set(text: str, expected: Facts) -> None:
    assert _facts(text) == expected


@pytest.mark.parametrize("text", SECOND_NOT_STATED)
def test_second_set_states_nothing(text: str) -> None:
    assert _facts(text) == set()
