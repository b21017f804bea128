"""Extraction: rules for explicit statements (zh/en), no hedges; LLM path with fallback."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pmemo.rules.extract_rules import extract

WHEN = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)  # a Monday


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.key, c.value) for c in extract(text, WHEN)}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My name is Louis Chen.", {("name", "Louis Chen")}),
        ("我叫路易，今年30岁。", {("name", "路易")}),
        ("Please call me Lou.", {("preferred_name", "Lou")}),
        ("以后叫我小路就好。", {("preferred_name", "小路")}),
        ("I love hiking on weekends.", {("opinion:hiking", "likes")}),
        ("I hate cilantro.", {("opinion:cilantro", "dislikes")}),
        ("I don't like coffee anymore.", {("opinion:coffee", "dislikes")}),
        ("我喜欢喝咖啡。", {("opinion:咖啡", "likes")}),
        ("我不喜欢咖啡了。", {("opinion:咖啡", "dislikes")}),
        ("我讨厌下雨天。", {("opinion:下雨天", "dislikes")}),
        ("我不吃香菜。", {("diet:香菜", "does not eat")}),
        ("请用轻松幽默的语气回答我。", {("tone", "轻松幽默")}),
        ("Please use a formal tone.", {("tone", "formal")}),
        ("My favorite color is blue.", {("favorite:color", "blue")}),
        ("I'm a big fan of jazz.", {("opinion:jazz", "likes")}),
        ("My job interview is on March 15.", {("event:job interview", "2024-03-15")}),
        ("我下周五要去北京出差。", {("event:北京出差", "2024-03-15")}),
    ],
)
def test_explicit_statements(text: str, expected: set[tuple[str, str]]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I think I like Python.",
        "我觉得我可能喜欢Python。",
        "Maybe I like jazz.",
        "我好像不太喜欢这个。",
        "Do you like tea?",
        "你喜欢喝茶吗？",
        "If I like it, I will buy it.",
        "我叫了外卖。",
        "I like it when you answer briefly.",
        "The meeting was on March 1.",  # past, and no future marker
    ],
)
def test_no_fact_from_hedges_questions_or_noise(text: str) -> None:
    assert facts(text) == set()


def test_corrections_outrank_plain_statements() -> None:
    plain = extract("I like tea.", WHEN)[0]
    changed = extract("I like tea now.", WHEN)[0]
    assert changed.confidence > plain.confidence and changed.source == "corrected"


def test_events_expire_the_day_after() -> None:
    (c,) = extract("I have a dentist appointment tomorrow.", WHEN)
    assert c.expires_epoch == datetime(2024, 3, 6, tzinfo=UTC).timestamp()


def test_diet_and_allergies_are_explicit_facts():
    from pmemo.rules.extract_rules import extract

    def facts(text):
        return {(c.category, c.key, c.value) for c in extract(text, None)}

    assert facts("I'm vegetarian.") == {("preference", "diet", "vegetarian")}
    assert facts("我吃素。") == {("preference", "diet", "吃素")}
    assert facts("I'm allergic to peanuts.") == {("fact", "allergy:peanuts", "allergic")}
    assert facts("我对花生过敏") == {("fact", "allergy:花生", "allergic")}
    assert facts("I think I am vegetarian?") == set()  # hedged questions stay out


# ---- work, home, pets, study, job (first person, zh/en) -------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("我在腾讯工作。", {("employer", "腾讯")}),
        ("我在字节跳动上班", {("employer", "字节跳动")}),
        ("我在腾讯做产品", {("employer", "腾讯"), ("job", "产品")}),
        ("我是美团的员工", {("employer", "美团")}),
        ("我入职字节了", {("employer", "字节")}),
        ("I work at Google.", {("employer", "Google")}),
        ("I work for Acme Corp.", {("employer", "Acme Corp")}),
        ("I joined Stripe last month.", {("employer", "Stripe")}),
        ("I'm now at Globex.", {("employer", "Globex")}),
        ("I started a new job at Initech.", {("employer", "Initech")}),
        ("我住在上海。", {("home_city", "上海")}),
        ("我在杭州生活", {("home_city", "杭州")}),
        ("I live in New York.", {("home_city", "New York")}),
        ("我的猫叫年糕。", {("pet:cat", "年糕")}),
        ("我家狗叫旺财", {("pet:dog", "旺财")}),
        ("我养了一只叫年糕的猫", {("pet:cat", "年糕")}),
        ("My cat is called 年糕.", {("pet:cat", "年糕")}),
        ("my dog's name is Rex", {("pet:dog", "Rex")}),
        ("I have a cat named Mochi.", {("pet:cat", "Mochi")}),
        ("我在北大读研", {("school", "北大")}),
        ("我在清华读计算机", {("school", "清华"), ("major", "计算机")}),
        ("我是计算机专业的", {("major", "计算机")}),
        ("I study physics at MIT.", {("major", "physics"), ("school", "MIT")}),
        ("I'm a student at Stanford.", {("school", "Stanford"), ("job", "student")}),
        ("我是一名程序员", {("job", "程序员")}),
        ("我是一名高中数学老师", {("job", "高中数学老师")}),
        ("我是做设计的", {("job", "设计")}),
        ("I'm a teacher.", {("job", "teacher")}),
        ("I'm a software engineer at Google.", {("job", "software engineer"), ("employer", "Google")}),
        ("I work as a nurse.", {("job", "nurse")}),
    ],
)
def test_life_facts(text: str, expected: set[tuple[str, str]]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("我跳槽到阿里了", "employer", "阿里"),
        ("我从阿里跳槽到字节了", "employer", "字节"),
        ("我换工作了，现在在美团", "employer", "美团"),
        ("I left Acme for Globex.", "employer", "Globex"),
        ("我搬到深圳了", "home_city", "深圳"),
        ("I moved to London last year.", "home_city", "London"),
    ],
)
def test_a_change_of_job_or_home_supersedes(text: str, key: str, value: str) -> None:
    (c,) = extract(text, WHEN)
    assert (c.key, c.value, c.source, c.confidence) == (key, value, "corrected", 0.97)
    (plain,) = extract("我在腾讯工作" if key == "employer" else "我住在上海", WHEN)
    assert c.confidence > plain.confidence  # so the upsert rules let the new value take over


@pytest.mark.parametrize(
    "text",
    [
        "我在家工作",  # where, not whom for
        "我在北京工作",  # a city is not an employer
        "我在公司上班",
        "我在家做饭",
        "I work at home.",
        "I joined a gym.",
        "I live in a small flat.",
        "I lived in Paris.",  # past
        "我住在公司附近",
        "我的猫叫什么好呢？",
        "我是你老师",
        "我是学生会的",
        "I study hard.",
        "I'm a big fan.",
        "我觉得我可能在腾讯工作",  # hedged
        "I might move to Berlin.",
        "你在腾讯工作吗？",
        "Do you work at Google?",
        "他在腾讯工作",  # third person: attribution rewrites it first
        "吃货一枚",  # a kind of person, not a place
        "我是打工人",
        "干饭人一枚",
    ],
)
def test_no_life_fact_from_noise(text: str) -> None:
    assert facts(text) == set()


def test_existing_kinds_unchanged_beside_the_new_ones() -> None:
    assert facts("我叫路易，我在腾讯工作，我不吃香菜。") == {
        ("name", "路易"),
        ("employer", "腾讯"),
        ("diet:香菜", "does not eat"),
    }


def test_past_dates_are_not_events() -> None:
    # "March 1" said on March 4 is three days ago, not next year's March 1
    assert facts("I will call the bank on March 1.") == set()
    assert facts("我12月23日要考研。") == {("event:考研", "2024-12-23")}


# ---- group-chat phrasings: each family with phrasings of our own, zh and en --------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        # fillers before and after what is said
        ("just so you know, I'm allergic to kiwi", {("allergy:kiwi", "allergic")}),
        ("fyi, I'm vegan", {("diet", "vegan")}),
        ("提前说一声，我不吃辣", {("diet:辣", "does not eat")}),
        ("说实话，我受不了香菜", {("opinion:香菜", "dislikes")}),
        # what someone cuts out, a diet they keep, a nemesis
        ("I'm cutting out sugar", {("diet:sugar", "does not eat")}),
        ("I'm avoiding dairy", {("diet:dairy", "does not eat")}),
        ("我不能碰花生", {("diet:花生", "does not eat")}),
        ("我吃不了辣", {("diet:辣", "does not eat")}),
        ("我在戒糖", {("diet", "戒糖")}),
        ("我最近戒奶茶了", {("diet", "戒奶茶")}),
        ("I'm on a keto diet", {("diet", "keto")}),
        ("I've been on a low-carb diet", {("diet", "low-carb")}),
        ("I've been vegan since 2020", {("diet", "vegan")}),
        ("I'm plant-based", {("diet", "plant-based")}),
        ("苦瓜是我的天敌", {("opinion:苦瓜", "dislikes")}),
        ("我的天敌是早八", {("opinion:早八", "dislikes")}),
        ("cilantro is my nemesis", {("opinion:cilantro", "dislikes")}),
        ("my kryptonite is cheese fries", {("opinion:cheese fries", "dislikes")}),
        # likes, said the ways a chat says them
        ("我爱上了攀岩", {("opinion:攀岩", "likes")}),
        ("我喜欢上了咖啡", {("opinion:咖啡", "likes")}),
        ("早起真的受不了", {("opinion:早起", "dislikes")}),
        ("加班实在受不了", {("opinion:加班", "dislikes")}),
        ("我对摄影很感兴趣", {("opinion:摄影", "likes")}),
        ("我对足球没兴趣", {("opinion:足球", "dislikes")}),
        ("我最喜欢的一部电影是《霸王别姬》", {("favorite:电影", "《霸王别姬》")}),
        ("我的工作？程序员", {("job", "程序员")}),  # a question asked to answer it
        ("我最喜欢的水果？芒果", {("favorite:水果", "芒果")}),
        # an allergy said as the reason for not eating something
        ("I can't eat shrimp, allergic", {("allergy:shrimp", "allergic"), ("diet:shrimp", "does not eat")}),
        ("I can't have peanuts, I'm allergic", {("allergy:peanuts", "allergic"), ("diet:peanuts", "does not eat")}),
        ("我不能碰芒果，过敏", {("allergy:芒果", "allergic"), ("diet:芒果", "does not eat")}),
        ("我不能吃虾，会过敏", {("allergy:虾", "allergic"), ("diet:虾", "does not eat")}),
        # work
        ("我任职于中信证券", {("employer", "中信证券")}),
        ("美团打工人报到", {("employer", "美团")}),
        ("字节社畜报到～", {("employer", "字节")}),
        ("我是招商银行的", {("employer", "招商银行")}),
        ("我在网易哈", {("employer", "网易")}),
        ("working at Pixar these days", {("employer", "Pixar")}),
        ("I'm employed by Deloitte", {("employer", "Deloitte")}),
        ("I've been with Accenture since 2018", {("employer", "Accenture")}),
        ("I'm at Atlassian nowadays", {("employer", "Atlassian")}),
        ("I'm with Redwood Labs", {("employer", "Redwood Labs")}),
        ("I work for the BBC as a journalist", {("employer", "the BBC"), ("job", "journalist")}),
        ("当了十年老师", {("job", "老师")}),
        # home
        ("我常驻北京", {("home_city", "北京")}),
        ("坐标成都哈", {("home_city", "成都")}),
        ("我base深圳", {("home_city", "深圳")}),
        ("我住杭州", {("home_city", "杭州")}),
        ("定居青岛了", {("home_city", "青岛")}),
        # a district or province the national gazetteer knows, said the way people say it
        ("闵行人一枚", {("home_city", "闵行")}),
        ("我是海淀人", {("home_city", "海淀")}),
        ("浦东人一枚", {("home_city", "浦东")}),
        ("我在苏州住", {("home_city", "苏州")}),
        ("我家在重庆", {("home_city", "重庆")}),
        ("I've lived in Austin since 2015", {("home_city", "Austin")}),
        ("I'm in Lisbon nowadays", {("home_city", "Lisbon")}),
        ("I'm London-based", {("home_city", "London")}),
        ("home is Auckland these days", {("home_city", "Auckland")}),
        ("I'm in Leeds, happy to grab coffee", {("home_city", "Leeds")}),
        ("I'm in Denver btw", {("home_city", "Denver")}),
        ("adopted a kitten, her name is Pepper", {("pet:cat", "Pepper")}),
        # study
        ("我在武大读大二", {("school", "武大")}),
        ("我复旦在读", {("school", "复旦")}),
        ("我是北大物理系的", {("school", "北大"), ("major", "物理")}),
        ("浙江大学毕业的", {("school", "浙江大学")}),
        ("我本科毕业于厦门大学", {("school", "厦门大学")}),
        ("中山大学的，学医", {("school", "中山大学")}),
        ("计算机专业，大三", {("major", "计算机")}),
        ("新闻专业的", {("major", "新闻")}),
        ("我在读经济学", {("major", "经济学")}),
        ("我金融专业的", {("major", "金融")}),
        ("pursuing a master's in statistics", {("major", "statistics")}),
        ("finishing my MBA at Wharton", {("major", "mba"), ("school", "Wharton")}),
        ("I'm in my final year at Leeds", {("school", "Leeds")}),
        ("graduated from UCLA in 2019", {("school", "UCLA")}),
        ("I graduated from Durham", {("school", "Durham")}),
        # a school or a job said as a fragment, a day job
        ("本科在武汉大学，学的新闻", {("school", "武汉大学"), ("major", "新闻")}),
        ("研究生在武大读的", {("school", "武大")}),
        ("nurse by day", {("job", "nurse")}),
        ("accountant by day, DJ by night", {("job", "accountant")}),
        ("主业是程序员", {("job", "程序员")}),
        ("我的本职工作是会计", {("job", "会计")}),
        # a pet named first, or in brackets, or as "我家<name>" with its kind said later
        ("布丁是我家的猫", {("pet:cat", "布丁")}),
        ("Rex is my dog", {("pet:dog", "Rex")}),
        ("Biscuit (my dog) ate my sock", {("pet:dog", "Biscuit")}),
        ("年糕（我家的猫）又打翻杯子了", {("pet:cat", "年糕")}),
        ("我家年糕昨天又把杯子打翻了，猫真是的", {("pet:cat", "年糕")}),
        ("我家旺财又偷吃了，狗子真馋", {("pet:dog", "旺财")}),
        # allergies said in passing or with the food first
        ("my pollen allergy is killing me", {("allergy:pollen", "allergic")}),
        ("my peanut allergy is acting up", {("allergy:peanut", "allergic")}),
        ("虾我是真不能吃，一吃就过敏", {("allergy:虾", "allergic")}),
        ("芒果我不能碰，会过敏", {("allergy:芒果", "allergic")}),
        ("记得我不能碰芒果，过敏", {("allergy:芒果", "allergic"), ("diet:芒果", "does not eat")}),  # 记得 is no topic
        ("今天我不能吃芒果，过敏", {("allergy:芒果", "allergic"), ("diet:芒果", "does not eat")}),  # nor is 今天
        # likes and dislikes as people put them
        ("人生不能没有奶茶", {("opinion:奶茶", "likes")}),
        ("我离不开咖啡", {("opinion:咖啡", "likes")}),
        ("can't live without coffee", {("opinion:coffee", "likes")}),
        ("running is the best part of my day", {("opinion:running", "likes")}),
        ("tea time is the best part of my day", {("opinion:tea time", "likes")}),
        ("olives are a hard no for me", {("opinion:olives", "dislikes")}),
        ("karaoke is not for me", {("opinion:karaoke", "dislikes")}),
        ("榴莲太劝退了", {("opinion:榴莲", "dislikes")}),
        ("谁懂啊，加班真的劝退", {("opinion:加班", "dislikes")}),
        # where someone likely lives: a known city, said without a stay
        ("我是上海人", {("home_city", "上海")}),
        ("杭州人一枚", {("home_city", "杭州")}),
        ("我人在成都，周末可以约", {("home_city", "成都")}),
        # a statement before a question still states
        ("我喜欢猫，你呢？", {("opinion:猫", "likes")}),
        ("I'm allergic to kiwi, anyone else?", {("allergy:kiwi", "allergic")}),
        # news told to a friend: a relationship, a baby, a job left
        ("我还是单身", {("relationship", "单身")}),
        ("I'm single", {("relationship", "single")}),
        ("我怀孕了", {("family", "怀孕")}),
        ("I'm pregnant with twins", {("family", "expecting a baby")}),
    ],
)
def test_group_chat_phrasings(text: str, expected: set[tuple[str, str]]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("辞职了，下个月去米哈游上班", "employer", "米哈游"),
        ("moved out of Leeds, in York now", "home_city", "York"),
        ("moved from Leeds to York last year", "home_city", "York"),
        ("我跟男朋友分手了", "relationship", "分手"),
        ("我结婚啦", "relationship", "结婚"),
        ("we broke up last month", "relationship", "broke up"),
        ("I got engaged!", "relationship", "engaged"),
        ("我要当爸爸了", "family", "要当爸爸"),
        ("we're expecting!", "family", "expecting a baby"),
        ("我被裁了", "work_status", "被裁"),
        ("我裸辞了", "work_status", "裸辞"),
        ("I quit my job last week", "work_status", "quit my job"),
        ("I got laid off", "work_status", "laid off"),
        ("我老婆怀孕了", "family", "怀孕"),  # the partner's news is the speaker's family's
        ("my wife is pregnant!", "family", "expecting a baby"),
        # a change said with an arrow, as a label, or as "现在在" after a move
        ("换工作了，阿里→字节", "employer", "字节"),
        ("switched jobs: Acme -> Globex", "employer", "Globex"),
        ("搬家了，北京→上海", "home_city", "上海"),
        ("new city: Lisbon!", "home_city", "Lisbon"),
        ("新城市：成都", "home_city", "成都"),
        ("new job: Canva 🎉", "employer", "Canva"),
        ("新工作：字节", "employer", "字节"),
        ("搬家了，现在在成都", "home_city", "成都"),
        ("搬完家啦，现在在苏州了", "home_city", "苏州"),
        ("I just moved to Leeds, any good cafes?", "home_city", "Leeds"),
        ("我搬到杭州了，有什么好吃的推荐吗？", "home_city", "杭州"),
    ],
)
def test_news_is_a_change(text: str, key: str, value: str) -> None:
    (c,) = extract(text, WHEN)
    assert (c.key, c.value, c.source) == (key, value, "corrected")


@pytest.mark.parametrize("text", ["I'm at Globex these days", "I'm in Berlin these days"])
def test_these_days_says_how_things_are_not_that_they_changed(text: str) -> None:
    (c,) = extract(text, WHEN)
    assert c.source == "explicit"  # so a later "I left Globex and joined Initech" supersedes it


def test_where_someone_is_is_only_likely_where_they_live() -> None:
    (likely,) = extract("I'm in Leeds, happy to grab coffee", WHEN)
    (said,) = extract("I live in York", WHEN)
    assert likely.confidence < said.confidence  # a later plain statement supersedes it


@pytest.mark.parametrize(
    "text",
    [
        "你有没有养猫",  # a question without its mark
        "我在戒烟",  # quitting what is no food
        "I'm in Tokyo this week",  # a stay, not a home
        "I'm in London for work",
        "we're expecting guests",
        "I'm married to my job lol",
        "I got fired up",
        "入职培训好累",
        "喜欢就买",
        "真的受不了",
        "我有点过敏",
        "我跳槽去了一家小公司",  # a job, but no employer named
        "我朋友在阿里工作，做产品的",  # the second clause goes on with the friend
        "阿杰在网易上班，做销售的",  # a name the resolver did not find: not the speaker
        "我家宝宝今天又拆家了，狗都没他能闹",  # a child, not a pet
        "我家老公又加班了",
        "hiking was fun",  # a gerund is no speaker
        "你喜欢猫，还是狗？",
        "Do you like tea, or coffee?",
        "我在北京出差呢",
        "my wife is a teacher",  # another person's job
    ],
)
def test_no_fact_from_group_chat_noise(text: str) -> None:
    assert facts(text) == set()
