"""Roles a chat gives its members (pure): "我是班长", "@小王 是群主", "群主是小王", "I'm the admin".

A role said of a member becomes a name of theirs in that chat (a learned alias, kept apart per
chat), so "班长说明天不上课" names whoever the chat said is 班长, and no other chat's. A class's
老师 is a role only when the chat says so of its class ("我是咱们班的老师", "王磊是我们的班主任"); a
bare "我是老师" is a job, not a role here. Questions and denials give nothing.

>>> [(r.alias, r.about, r.target) for r in role_claims("大家好，我是班长，有事找我")]
[('班长', 'speaker', None)]
>>> [(r.alias, r.about, r.target) for r in role_claims("@小王 是群主，别乱发广告")]
[('群主', 'other', '小王')]
>>> [(r.alias, r.about, r.target) for r in role_claims("群主是小王吧")]
[('群主', 'other', '小王')]
>>> role_claims("谁是群主？"), role_claims("我不是班长"), role_claims("我是老师")
([], [], [])
>>> [(r.alias, r.about, r.target) for r in role_claims("Tom is the admin here")]
[('admin', 'other', 'Tom')]
"""

from __future__ import annotations

import re

from .aliases import Learned

ROLES_ZH = ("群主", "副群主", "管理员", "班长", "副班长", "学习委员", "学委", "团支书", "课代表", "组长", "队长",
            "班主任", "助教", "群管")
CLASS_ROLES_ZH = ("老师",)  # only "…班的老师" / "我们的老师"
ROLES_EN = ("group owner", "owner", "admin", "moderator", "class monitor", "monitor", "class rep", "teacher")

_ROLE = "|".join(sorted(ROLES_ZH, key=len, reverse=True))
_OF = r"(?:这个群|本群|咱们群|我们群|这个班|本班|咱们班|我们班|咱班|你们|我们|咱们|大家)?的?"
_CLASS = r"(?:这个班|本班|咱们班|我们班|咱班|你们|我们|咱们|大家)的"
_NAME = r"[@＠]?(?P<target>[^\s@＠，,。.:：！？!?、]{1,12}?)"
_END = r"(?=$|[\s，,。.！!~～、；;）)吧啦哈呀哦了]|，|有)"
_ZH: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"(?:我是|我就是|本人是|我来当|我当)\s*{_OF}(?P<role>{_ROLE}){_END}"), "speaker"),
    (re.compile(rf"(?:我是|我就是|本人是)\s*{_CLASS}(?P<role>老师){_END}"), "speaker"),
    (re.compile(rf"{_NAME}\s*(?:是|就是|当了|当上了|做了)\s*{_OF}(?P<role>{_ROLE}){_END}"), "other"),
    (re.compile(rf"{_NAME}\s*(?:是|就是)\s*{_CLASS}(?P<role>老师){_END}"), "other"),
    (re.compile(rf"(?:^|[\s，,。！!])(?:{_OF})(?P<role>{_ROLE})(?:是|就是)\s*{_NAME}"
                r"(?=$|[\s，,。.！!?？吧啊呀哦了])"), "other"),
]
_EN_ROLE = "|".join(sorted(ROLES_EN, key=len, reverse=True))
_EN: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\bI(?:'m| am) (?:the|your|this group's|the group's) (?P<role>{_EN_ROLE})\b", re.IGNORECASE),
     "speaker"),
    (re.compile(rf"(?:^|\s)@?(?P<target>[A-Z][\w.-]{{0,23}}) is (?:the|our|your|this group's) (?P<role>{_EN_ROLE})\b"),
     "other"),
    (re.compile(rf"\b(?:the|our) (?P<role>{_EN_ROLE}) is @?(?P<target>[A-Z][\w.-]{{0,23}})\b"), "other"),
]
_HINT = re.compile("|".join([*ROLES_ZH, *CLASS_ROLES_ZH, *ROLES_EN]), re.IGNORECASE)
_ASKED = re.compile(r"[?？]|吗|谁|哪个|哪位|是不是|\bwho\b", re.IGNORECASE)
_DENIED = re.compile(r"不是|不当|没当|isn't|is not|not the|no longer|不再", re.IGNORECASE)


def role_claims(text: str) -> list[Learned]:
    """The roles a message gives members: of its speaker or of a member it names."""
    if _HINT.search(text) is None:  # no role word: most messages
        return []
    out: dict[tuple[int, int], Learned] = {}
    for pattern, about in [*_ZH, *_EN]:
        for m in pattern.finditer(text):
            clause = _clause(text, m.start(), m.end())
            if _ASKED.search(clause) or _DENIED.search(clause):
                continue
            target = m.groupdict().get("target")
            if about == "other" and (not target or target in ("我", "你", "他", "她", "I", "You", "He", "She")):
                continue
            span = m.span("role")
            out.setdefault(span, Learned(m.group("role").lower() if about and m.group("role").isascii()
                                         else m.group("role"), about, target if about == "other" else None, span))
    return sorted(out.values(), key=lambda r: r.span)


def _clause(text: str, start: int, end: int) -> str:
    """The clause around a match: from the last stop before it to the next after it."""
    left = max(text.rfind(c, 0, start) for c in "。.!！；;\n") + 1
    stops = [i for c in "。.!！；;\n?？" if (i := text.find(c, end)) != -1]
    return text[left:(min(stops) + 1 if stops else len(text))]
