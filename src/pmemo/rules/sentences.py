"""One plain sentence per memory item, in the language it was said in (pure).

A context line "霓霓对花生过敏" reads better to a model, and to the person checking it, than
"allergy:花生: allergic". The sentence is Chinese when the fact's object or value has Han
characters, else English: the person's name does not decide ("Neko在腾讯工作" is right for
a Chinese fact about Neko).

>>> fact_sentence("霓霓", "fact", "allergy:花生", "allergic")
'霓霓对花生过敏'
>>> fact_sentence("Neko", "preference", "opinion:sushi", "likes")
'Neko likes sushi'
>>> plan_sentence("霓霓", "考研", date(2024, 12, 23), date(2024, 12, 20))
'霓霓 12月23日考研（还有3天）'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from ..models import Fact
from .agenda_rules import names_event
from .extract_rules import JOB_FIELDS_ZH, PET_KINDS

_HAN = re.compile(r"[\u4e00-\u9fff]")
# an event's day; facts stored before the value was only the day carry the sentence after it
_EVENT_VALUE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?::\s*(.*))?$", re.S)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# the Chinese word for a pet kind the rules store in English ("pet:cat")
_PET_ZH = {en: zh for zh, en in reversed(PET_KINDS.items()) if not zh.isascii()}
_OPINION = {
    "likes": ("喜欢", "likes"), "loves": ("很喜欢", "loves"), "enjoys": ("喜欢", "enjoys"),
    "dislikes": ("不喜欢", "dislikes"), "hates": ("讨厌", "hates"), "no longer likes": ("不再喜欢", "no longer likes"),
}  # fmt: skip
_DIET_EN = {"halal": "eats halal", "kosher": "keeps kosher"}

# each key family: (Chinese, English) templates over name, obj (the key's part after ":"), value
_TEMPLATES = {
    "name": ("{name}的名字是{value}", "{name}'s name is {value}"),
    "preferred_name": ("{name}希望被叫作{value}", "{name} likes to be called {value}"),
    "tone": ("{name}希望回复用{value}的语气", "{name} wants replies in a {value} tone"),
    "favorite": ("{name}最喜欢的{obj}是{value}", "{name}'s favorite {obj} is {value}"),
    "allergy": ("{name}对{obj}过敏", "{name} is allergic to {obj}"),
    "employer": ("{name}在{value}工作", "{name} works at {value}"),
    "home_city": ("{name}住在{value}", "{name} lives in {value}"),
    "school": ("{name}在{value}读书", "{name} studies at {value}"),
    "major": ("{name}是{value}专业的", "{name} studies {value}"),
    "birthday": ("{name}的生日是{value}", "{name}'s birthday is {value}"),
}


def fact_sentence(name: str | None, category: str, key: str, value: str) -> str:
    """The fact ``key`` = ``value`` about ``name`` as one sentence (no name: "the user", 用户).

    >>> fact_sentence("周霓", "fact", "employer", "腾讯"), fact_sentence("霓霓", "fact", "pet:cat", "年糕")
    ('周霓在腾讯工作', '霓霓的猫叫年糕')
    """
    family, _, obj = key.partition(":")
    zh = bool(_HAN.search(obj) or _HAN.search(value))
    name = name or ("用户" if zh else "The user")
    special = _SPECIAL.get(family)
    if special is not None and (said := special(name, obj, value, zh)):
        return said
    if family in _TEMPLATES and (obj or "{obj}" not in _TEMPLATES[family][0]):
        return _TEMPLATES[family][0 if zh else 1].format(name=name, obj=obj, value=value)
    return _fallback(name, key, value, zh)


def unnamed(fact: Fact) -> str:
    """The fact as a sentence about nobody in particular: what its meaning is embedded from.
    A query finds a person by one of their names; what tells their facts apart is what each says.

    >>> from types import SimpleNamespace as F
    >>> unnamed(F(category="fact", key="home_city", value="闵行")), unnamed(F(category="fact",
    ...     key="allergy:pollen", value="allergic"))
    ('用户住在闵行', 'The user is allergic to pollen')
    """
    return fact_sentence(None, fact.category, fact.key, fact.value)


# the families of facts the statement model found and no rule normalised: the value is the clause
# itself ("我下个月换工作了"), said after the name (statements.read.FAMILY)
SAID_FAMILIES = frozenset({"called", "work", "study", "home", "family", "pets", "health", "likes", "habits", "plans",
                           "view"})


def _fallback(name: str, key: str, value: str, zh: bool) -> str:
    if key.partition(":")[0] in SAID_FAMILIES:
        return f"{name}：{value}" if zh else f"{name}: {value}"
    words = " ".join(key.replace(":", " ").replace("_", " ").split())
    return f"{name}的{words}：{value}" if zh else f"{name}: {words}: {value}"


def _opinion(name: str, obj: str, value: str, zh: bool) -> str | None:
    verb = _OPINION.get(value.lower())
    return None if verb is None or not obj else f"{name}{verb[0]}{obj}" if zh else f"{name} {verb[1]} {obj}"


def _diet(name: str, obj: str, value: str, zh: bool) -> str | None:
    low = value.lower()
    if obj:  # diet:香菜 = does not eat; diet:茶 = drinks (a switch to it)
        if low in ("eats", "drinks"):
            return f"{name}{'吃' if low == 'eats' else '喝'}{obj}" if zh else f"{name} {low} {obj}"
        if low not in ("does not eat", "does not drink"):
            return None
        if zh:
            return f"{name}不{'吃' if low.endswith('eat') else '喝'}{obj}"
        return f"{name} doesn't {low.rsplit(' ', 1)[1]} {obj}"
    if zh:
        said = value if value.startswith("吃") else _EATS_ZH.get(low)
        return f"{name}{said}" if said else f"{name}的饮食习惯：{value}"
    return f"{name} {_DIET_EN.get(low, f'is {value}')}"


_EATS_ZH = {"素食": "吃素", "vegetarian": "吃素", "纯素": "吃纯素", "vegan": "吃纯素"}


def _pet(name: str, obj: str, value: str, zh: bool) -> str | None:
    if not obj:
        return None
    if zh:
        return f"{name}的{_PET_ZH.get(obj, obj)}叫{value}"
    return f"{name}'s {obj} is called {value}"


def _job(name: str, obj: str, value: str, zh: bool) -> str | None:
    if zh:
        return f"{name}是做{value}的" if value in JOB_FIELDS_ZH else f"{name}是{value}"
    return f"{name} is {_article(value)}{value}"


def _event(name: str, obj: str, value: str, zh: bool) -> str | None:
    m = _EVENT_VALUE.match(value)
    if m is None:
        return None
    try:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
    noun = "" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", obj) else obj
    quote = (m.group(4) or "").strip()
    if zh:  # "用户 12月7日有日语N2考试", "用户 12月8日见客户"
        what = noun if noun and not names_event(noun) else "有" + (noun or "安排")
        said = f"{name} {_zh_day(day, None)}{what}"
        return f"{said}（原话：“{quote}”）" if quote else said
    if noun and not names_event(noun):  # "see mom": something they will do
        said = f"{name} will {noun} on {_en_day(day, None)}"
    else:
        said = f"{name} has {f'{_article(noun)}{noun}' if noun else 'plans'} on {_en_day(day, None)}"
    return f"{said} (said: “{quote}”)" if quote else said


_SPECIAL: dict[str, Callable[[str, str, str, bool], str | None]] = {
    "opinion": _opinion,
    "diet": _diet,
    "pet": _pet,
    "job": _job,
    "event": _event,
}


def plan_sentence(name: str, what: str, day: date, today: date, lang: str | None = None) -> str:
    """A plan as one line, with how far away it is (``lang`` "zh" or "en"; by default that of ``what``).

    >>> plan_sentence("Neko", "job interview", date(2026, 11, 27), date(2026, 11, 24))
    'Neko has a job interview on Fri 27 Nov (in 3 days)'
    >>> plan_sentence("霓霓", "考研", date(2024, 12, 23), date(2024, 12, 26))
    '霓霓 12月23日考研（3天前）'
    """
    days = (day - today).days
    if (lang or ("zh" if _HAN.search(what) else "en")) == "zh":
        when = {0: "今天", 1: "明天", -1: "昨天"}.get(days) or (f"还有{days}天" if days > 0 else f"{-days}天前")
        return f"{name} {_zh_day(day, today)}{what}（{when}）"
    when = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(days) or (
        f"in {days} days" if days > 0 else f"{-days} days ago"
    )
    verb = "has" if days >= 0 else "had"
    return f"{name} {verb} {_article(what)}{what} on {_en_day(day, today)} ({when})"


def _zh_day(day: date, today: date | None) -> str:
    """12月23日, with the year when it is not this year's (or when there is no "this year")."""
    year = "" if today is not None and day.year == today.year else f"{day.year}年"
    return f"{year}{day.month}月{day.day}日"


def _en_day(day: date, today: date | None) -> str:
    """Fri 27 Nov, with the year when it is not this year's; fixed names, whatever the locale."""
    year = "" if today is not None and day.year == today.year else f" {day.year}"
    return f"{_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}{year}"


def _article(noun: str) -> str:
    """ "a " or "an " before a singular English noun; nothing before a plural, a name or Chinese."""
    head = re.split(r" (?:to|with|at|for|in|on|of) ", noun)[0]  # "flight to Paris": one flight
    if not head or _HAN.match(head) or (head.endswith("s") and not head.endswith("ss")):
        return ""
    return "an " if noun[0].lower() in "aeiou" else "a "


# the words that ask about each kind of fact, in both languages: "许文涛现在在哪上班？" asks for
# the employer although it shares no word with "许文涛在蓝鲸数据工作"
TOPICS: dict[str, tuple[str, ...]] = {
    "employer": ("工作", "上班", "公司", "单位", "入职", "跳槽", "work", "job", "company", "employer", "office"),
    "job": ("工作", "上班", "职业", "做什么", "做些什么", "干什么", "干啥", "做啥", "job", "work", "profession",
            "living", "career"),
    "home_city": ("住", "哪里人", "哪儿", "城市", "搬", "live", "city", "move", "moved", "where"),
    "pet": ("宠物", "猫", "狗", "养", "pet", "cat", "dog"),
    "allergy": ("过敏", "allergic", "allergy", "allergies"),
    "diet": ("吃", "喝", "忌口", "素", "eat", "drink", "food", "diet", "vegetarian", "vegan"),
    "opinion": ("喜欢", "爱", "讨厌", "like", "likes", "love", "hate", "enjoy"),
    "favorite": ("最喜欢", "最爱", "favorite", "favourite"),
    "school": ("学校", "读书", "上学", "大学", "school", "study", "university", "college"),
    "major": ("专业", "学什么", "major", "study", "studies"),
    "name": ("名字", "叫什么", "name", "called"),
    "birthday": ("生日", "出生", "birthday", "bday", "born"),
    "preferred_name": ("叫", "称呼", "call", "called", "nickname"),
    "work_status": ("工作", "上班", "辞职", "离职", "状态", "job", "work", "quit", "status"),
    "relationship": ("对象", "男朋友", "女朋友", "结婚", "单身", "partner", "boyfriend", "girlfriend", "married",
                     "single"),
    "family": ("宝宝", "孩子", "怀孕", "家里", "baby", "kids", "children", "family"),
}
# the statement model's families ask as the rules' do (SAID_FAMILIES)
TOPICS |= {
    "work": TOPICS["employer"] + TOPICS["job"] + TOPICS["work_status"],
    "study": TOPICS["school"] + TOPICS["major"],
    "home": TOPICS["home_city"],
    "pets": TOPICS["pet"],
    "health": TOPICS["allergy"] + TOPICS["diet"] + ("身体", "病", "health", "sick"),
    "likes": TOPICS["opinion"],
    "habits": ("习惯", "每天", "平时", "用", "habit", "usually", "every day", "use"),
    "plans": ("计划", "安排", "考试", "比赛", "报名", "plan", "plans", "exam", "race", "signed up"),
    "view": ("觉得", "看法", "怎么看", "think", "opinion", "view"),
    "called": TOPICS["name"],
}
_LATIN_WORD = re.compile(r"[a-z]+")


def asks_about(query: str, key: str) -> bool:
    """Whether ``query`` asks about the kind of fact ``key`` is.

    >>> asks_about("许文涛现在在哪上班？", "employer"), asks_about("Where does Neko live?", "pet:cat")
    (True, False)
    >>> asks_about("何欣平时上班具体做些什么", "job")
    True
    """
    words = TOPICS.get(key.partition(":")[0], ())
    low = query.lower()
    latin = set(_LATIN_WORD.findall(low))
    return any((w in latin) if w.isascii() else (w in low) for w in words)
