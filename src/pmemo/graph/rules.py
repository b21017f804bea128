"""Offline rules for links the profile facts do not hold (pure), zh/en: people to people, and
where someone comes from.

Relations are read on the message as said, its people already found by the resolver (a
statement about two people is about neither alone, so attribution leaves it out): "霓霓是我同学",
"我和霓霓是同事", "我妹妹霓霓…", "周周是霓霓的姐姐", "Neko is my friend", "Bob and I are
colleagues", "my sister Neko", "I'm Neko's roommate". Each gives one triple whose subject is the
person the sentence is about first. Origins come from first-person statements, a third-person
one already rewritten by attribution ("霓霓是杭州人" reaches here as "我是杭州人").

>>> [(s, r.predicate, r.value) for s, r in relations("霓霓是我同学", [(0, 2, "ni")], "me")]
[('ni', 'classmate_of', 'me')]
>>> [(s, r.predicate, r.value) for s, r in relations("Bob and I are colleagues", [(0, 3, "bob")], "me")]
[('bob', 'colleague_of', 'me')]
>>> [(r.predicate, r.value) for r in origins("我是四川人，在上海工作")]
[('from', '四川')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.slices import LIMIT, handing_over, pieces, spans
from .predicates import Said, said

Mention = tuple[int, int, str]  # start, end, person id

_REL_ZH = {
    "好朋友": "friend_of", "朋友": "friend_of", "闺蜜": "friend_of", "好友": "friend_of", "发小": "friend_of",
    "同学": "classmate_of", "同事": "colleague_of", "室友": "roommate_of", "舍友": "roommate_of",
    "姐姐": "sister_of", "妹妹": "sister_of", "哥哥": "brother_of", "弟弟": "brother_of",
    "老公": "partner_of", "老婆": "partner_of", "男朋友": "partner_of", "女朋友": "partner_of", "对象": "partner_of",
    "妈妈": "parent_of", "爸爸": "parent_of", "儿子": "child_of", "女儿": "child_of",
    "老板": "boss_of", "领导": "boss_of", "老师": "teacher_of",
}  # fmt: skip
_PAIR_ZH = {"姐妹": "sister_of", "兄弟": "brother_of", "情侣": "partner_of", "夫妻": "partner_of"}
_REL_EN = {
    "best friend": "friend_of", "friend": "friend_of", "classmate": "classmate_of", "colleague": "colleague_of",
    "coworker": "colleague_of", "co-worker": "colleague_of", "roommate": "roommate_of", "flatmate": "roommate_of",
    "sister": "sister_of", "brother": "brother_of", "husband": "partner_of", "wife": "partner_of",
    "boyfriend": "partner_of", "girlfriend": "partner_of", "partner": "partner_of", "mom": "parent_of",
    "mum": "parent_of", "mother": "parent_of", "dad": "parent_of", "father": "parent_of", "son": "child_of",
    "daughter": "child_of", "boss": "boss_of", "manager": "boss_of", "teacher": "teacher_of",
}  # fmt: skip


def _alt(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[call-overload]


_P = "(\x00\\d+\x00|我)"  # a person: a name the resolver found (as a marker), or the speaker
_END = r"(?=$|[，。！？!?,.;；~～\s]|[啦呀哦啊吧嘛呢了哈]|来着)"
_ZH = (
    re.compile(rf"{_P}(?:也|都|其实|就)?是{_P}(?:的)?({_alt(_REL_ZH)}){_END}"),
    re.compile(rf"{_P}(?:和|跟|与){_P}(?:也|都|其实)*是(?:好)?({_alt([*_REL_ZH, *_PAIR_ZH])})(?:关系)?{_END}"),
)
_MY_ZH = re.compile(rf"我(?:的)?({_alt(_REL_ZH)})(\x00\d+\x00)")
_PE = "(\x00\\d+\x00|I|me)"
_ADJ = r"(?:best |good |old |close |new )?"
_EN = (
    re.compile(rf"(?i:{_PE}(?:'m| am| is|'s| was)(?: also| actually| still)? (?:(\x00\d+\x00)['’]s|my) "
               rf"{_ADJ}({_alt(_REL_EN)}))\b(?!['’]s\b)"),
    re.compile(rf"(?i:{_PE} and {_PE} are (?:also |both )?{_ADJ}({_alt(_REL_EN)})s)\b"),
)
_MY_EN = re.compile(rf"\b(?i:my {_ADJ}({_alt(_REL_EN)}),? )(\x00\d+\x00)")


def relations(text: str, mentions: Sequence[Mention], speaker: str | None) -> list[tuple[str, Said]]:
    """(subject, what is said) for each relation between two people that ``text`` states;
    ``mentions`` are the people the resolver found in it, ``speaker`` who said it. A text past
    ``text.slices.LIMIT`` is read piece by piece."""
    if len(text) > LIMIT:
        pairs = {(s, w): None for a, b in handing_over(spans(text))
                 for s, w in relations(text[a:b], [(s - a, e - a, p) for s, e, p in mentions if a <= s and e <= b],
                                       speaker)}
        return list(pairs)
    marked, people = _marked(text, mentions)

    def who(token: str | None) -> str | None:
        if token is None:
            return None
        if token.startswith("\x00"):
            return people[int(token.strip("\x00"))]
        return speaker if token in ("我", "I", "me", "i", "Me") else None

    out: list[tuple[str | None, str | None, str]] = []
    for pat in _ZH:
        for m in pat.finditer(marked):
            word = m.group(3)
            out.append((who(m.group(1)), who(m.group(2)), _REL_ZH.get(word) or _PAIR_ZH[word]))
    for m in _MY_ZH.finditer(marked):
        out.append((who(m.group(2)), speaker, _REL_ZH[m.group(1)]))
    for m in _EN[0].finditer(marked):
        out.append((who(m.group(1)), who(m.group(2)) if m.group(2) else speaker, _REL_EN[m.group(3).lower()]))
    for m in _EN[1].finditer(marked):
        out.append((who(m.group(1)), who(m.group(2)), _REL_EN[m.group(3).lower()]))
    for m in _MY_EN.finditer(marked):
        out.append((who(m.group(2)), speaker, _REL_EN[m.group(1).lower()]))
    found: dict[tuple[str, str, str], None] = {}
    for subject, obj, name in out:
        if subject and obj and subject != obj:
            found[(subject, name, obj)] = None
    return [(s, said(name, o, kind="person")) for s, name, o in found]


def _marked(text: str, mentions: Sequence[Mention]) -> tuple[str, list[str]]:
    """``text`` with each mention replaced by a marker ``\\0<n>\\0``, and the person of each."""
    parts: list[str] = []
    people: list[str] = []
    at = 0
    for start, end, person in sorted(mentions):
        if start < at:
            continue
        parts += [text[at:start].replace("\x00", " "), f"\x00{len(people)}\x00"]
        people.append(person)
        at = end
    parts.append(text[at:].replace("\x00", " "))
    return "".join(parts), people


# ---- where someone is from -------------------------------------------------------------------
_PROVINCES = frozenset(
    "北京 上海 天津 重庆 四川 广东 浙江 江苏 山东 河南 河北 湖南 湖北 福建 安徽 江西 山西 陕西 云南 贵州 广西 "
    "辽宁 吉林 黑龙江 甘肃 内蒙古 新疆 西藏 宁夏 青海 海南 台湾 香港 澳门 东北".split()
)
# X人 that says what someone is, not where they are from: 打工人, 年轻人, 外地人…
_NOT_ORIGIN = frozenset(
    "打工 年轻 读书 工具 文化 有钱 社会 机器 外地 本地 普通 正常 老实 老好 成年 单身 上班 自由 职场 中年 "
    "老年 南方 北方 城里 乡下 农村 一家 一个 好 坏 男 女 老 新 家 客 病 主 别 本 外 路 熟 名 真 美".split()
)
_FROM_ZH = re.compile(
    r"(?:^|我)(?:是来自|来自|老家是|老家在|出生在|出生于|从小在|也是|是)([\u4e00-\u9fff]{2,6}?)(?:人|长大的?|的人|来的|的)?"
    r"(?=$|[，。！？!?,.;；~～\s]|[啦呀哦啊吧嘛呢了哈])"
)
_FROM_EN = re.compile(
    r"\bI(?:'m| am| come| came) (?:originally )?from ((?:the )?[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)*)"
    r"|\bI grew up in ([A-Z][\w.'-]*(?: [A-Z][\w.'-]*)*)"
)


def origins(statement: str) -> list[Said]:
    """Where the speaker of a first-person ``statement`` comes from: "我是四川人", "我来自成都",
    "老家在湖南", "I'm from Lyon", "I grew up in Ohio"."""
    if len(statement) > LIMIT:
        return [said for piece in handing_over(pieces(statement)) for said in origins(piece)]
    out = []
    for m in _FROM_ZH.finditer(statement):
        place, said_as = m.group(1), m.group(0)
        explicit = any(w in said_as for w in ("来自", "老家", "出生", "从小"))
        if place in _NOT_ORIGIN or place[:-1] in _NOT_ORIGIN:
            continue
        if explicit or said_as.endswith("人") and (place in _PROVINCES or place[-1] in "省市县区" or len(place) <= 3):
            out.append(said("from", place))
    for m in _FROM_EN.finditer(statement):
        out.append(said("from", m.group(1) or m.group(2)))
    return out
