"""When a generated name form may name someone (pure): the policy of issue 44 §6.

``aliases.generated_aliases`` guesses how people may be called (老周, 周姐, 周老师 ...). A guess
is not a name anyone used: "王老师讲的课真好" in a study group is about a teacher, not the member
王磊. So a generated form names a member of the chat only when

- someone in that chat used it for them: it was learned there ("大家都叫他王老师"), or said to
  them in a way the platform ties to them (a message that @-tags or replies to exactly one
  person and opens with one of their forms, "王老师，这题怎么做": ``tiers.people`` records it as
  a ``mention`` in that chat); such a form is no longer a guess there and resolves as said;
- or, never used, it is unambiguous among the chat's members and fits them: a title form
  (X老师, X总, X工, X经理 ...) never fits unused, X哥 does not fit a woman nor X姐 a man where
  the messages or the platform say who is who (``gender_of``); two members who both fit are
  reported as ambiguous.

Gender comes from three kinds of evidence, strongest first: the platform (a turn's metadata
``gender``, e.g. "female" / "male", on the speaker's own turns), what a person says of
themselves ("我一个女生"), and the 她 / 他 of a message that names one other person.

>>> form_kind("周老师"), form_kind("周姐"), form_kind("老周"), form_kind("Alex")
('title', 'f', '', '')
>>> fits("周姐", "m"), fits("周姐", None), fits("周老师", "f")
(False, True, False)
>>> gender_of([("pronoun", "f", 3), ("pronoun", "m", 1)]), gender_of([("platform", "m", 1), ("self", "f", 2)])
('f', 'm')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

__all__ = ["GENDERS", "SIGN_SOURCES", "fits", "form_kind", "gender_of", "platform_gender", "pronoun_gender",
           "self_gender"]

GENDERS = ("f", "m")
SIGN_SOURCES = ("platform", "self", "pronoun")  # strongest first
Gender = Literal["f", "m"]

# forms of address that say what someone does: only a chat that used one for a member makes it theirs
# (not 董: a surname too, 小董 and 老董 are plain forms of 董明)
_TITLES = ("老师", "总", "工", "经理", "主任", "医生", "大夫", "律师", "教授", "老板", "博士", "校长", "书记", "处长",
           "局长", "科长", "部长")
_FOR_MEN = ("哥", "叔", "爷", "伯", "弟")
_FOR_WOMEN = ("姐", "姨", "妹", "嫂", "婆")


def form_kind(form: str) -> str:
    """What a generated form says of its bearer: "title" (周老师, 周总, 周工), "m" (周哥), "f"
    (周姐), or "" (老周, 小周, 霓霓, Alex: anyone may be called so)."""
    if len(form) < 2 or not all("\u3400" <= c <= "\u9fff" for c in form):
        return ""
    if any(form.endswith(t) and len(form) > len(t) for t in _TITLES):
        return "title"
    if form[-1] in _FOR_MEN:
        return "m"
    if form[-1] in _FOR_WOMEN:
        return "f"
    return ""


def fits(form: str, gender: str | None) -> bool:
    """Whether a generated form, never used for someone, may stand for them: no title, and no
    form for the other sex where their ``gender`` is known ("f", "m"; None: not known)."""
    kind = form_kind(form)
    if kind == "title":
        return False
    return not kind or gender is None or kind == gender


def gender_of(signs: Iterable[tuple[str, str, int]]) -> str | None:
    """A person's gender from their evidence ``(source, gender, count)``: the strongest source
    that has any decides, by a clear majority (two to one); a split source says nothing and the
    next one is asked.

    >>> gender_of([]), gender_of([("pronoun", "f", 1), ("pronoun", "m", 1)]), gender_of([("self", "m", 1)])
    (None, None, 'm')
    """
    counts: dict[str, dict[str, int]] = {}
    for source, gender, n in signs:
        if source in SIGN_SOURCES and gender in GENDERS:
            by = counts.setdefault(source, {})
            by[gender] = by.get(gender, 0) + n
    for source in SIGN_SOURCES:
        said = counts.get(source, {})
        f, m = said.get("f", 0), said.get("m", 0)
        if f >= 2 * m and f:
            return "f"
        if m >= 2 * f and m:
            return "m"
    return None


_PLATFORM = {"f": "f", "female": "f", "woman": "f", "女": "f", "m": "m", "male": "m", "man": "m", "男": "m"}


def platform_gender(metadata: object) -> str | None:
    """The gender a turn's metadata gives its speaker: ``gender`` ("female"/"male", "f"/"m",
    "女"/"男", any case); "unknown" or anything else says nothing.

    >>> platform_gender({"gender": "Female"}), platform_gender({"gender": "unknown"}), platform_gender(None)
    ('f', None, None)
    """
    if not isinstance(metadata, dict):
        return None
    value = metadata.get("gender")
    return _PLATFORM.get(value.strip().lower()) if isinstance(value, str) else None


# what someone says of themselves: "我一个女生", "我是男生", "作为女孩子", "我们女生" (the speaker among them)
_SELF = re.compile(r"(?:我(?:是|也是|一个|就是|本)?(?:个|一个|一枚)?|作为(?:一个|一名|一枚)?|我们|咱们?)"
                   r"(?P<who>女生|女孩子|女孩|女的|妹子|姑娘|宝妈|男生|男孩子|男孩|男的|爷们|大老爷们|宝爸)")
_FEMALE_WORDS = frozenset("女生 女孩子 女孩 女的 妹子 姑娘 宝妈".split())
_NOT_SELF = re.compile(r"不是|不算|又不|才不|哪是|谁说|如果|假如|要是|[吗么?？]")


def self_gender(text: str) -> str | None:
    """The gender the speaker gives themself ("我一个女生，晚上不敢走夜路"); a question, a
    negation or a hypothetical says nothing, nor a text that says both.

    >>> self_gender("我一个女生扛不动"), self_gender("我又不是女生"), self_gender("我是男生吗？")
    ('f', None, None)
    """
    found: set[str] = set()
    for match in _SELF.finditer(text):
        clause = _clause(text, match.start(), match.end())
        if _NOT_SELF.search(clause):
            continue
        found.add("f" if match.group("who") in _FEMALE_WORDS else "m")
    return found.pop() if len(found) == 1 else None


# 他 / 她 standing for one person: not 他们 / 她们 (several), 其他 / 他人 / 吉他 (other words)
_SHE = re.compile(r"(?<![其])她(?![们])")
_HE = re.compile(r"(?<![其吉])他(?![们人])")


def pronoun_gender(text: str, named_at: int) -> str | None:
    """The gender the 她 or 他 after a name at ``named_at`` gives that person, in a text that
    names one person (besides its speaker): "周霓说她明天不来" → "f"; nothing when both appear
    or neither does after the name.

    >>> pronoun_gender("周霓说她明天不来", 0), pronoun_gender("他说周霓不来", 2), pronoun_gender("周霓和他们", 0)
    ('f', None, None)
    """
    after = text[named_at:]
    she, he = bool(_SHE.search(after)), bool(_HE.search(after))
    if she == he or _SHE.search(text[:named_at]) or _HE.search(text[:named_at]):
        return None
    return "f" if she else "m"


_CLAUSE_MARK = re.compile(r"[，。！？!?,;；\n]")


def _clause(text: str, start: int, end: int) -> str:
    marks = [m.end() for m in _CLAUSE_MARK.finditer(text, 0, start)]
    tail = _CLAUSE_MARK.search(text, end)
    return text[marks[-1] if marks else 0 : tail.end() if tail else len(text)]
