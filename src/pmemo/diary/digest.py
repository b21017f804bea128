"""The offline diary entry (pure): an extractive digest of a day, in the chat's language.

What the day was about (its keywords, said by several people first), who said what (each
speaker's most telling sentences, verbatim, the most active speaker first) and the plans and
dated events mentioned (the agenda's rules). Within ``max_chars``: the least active speakers'
lines go first, then the last plans; nothing is ever made up.

>>> from datetime import datetime
>>> from pmemo.models import Scope, Turn
>>> g = Scope.of(group_id="study")
>>> said = ["下周三考高数，最近压力好大", "加油！高数不难", "考完请你们吃火锅"]
>>> turns = [Turn(i, g, i, "user", text, who, datetime(2024, 3, 4, 20, i))
...          for i, (text, who) in enumerate(zip(said, ["周霓", "Bo", "周霓"]), 1)]
>>> print(digest(date(2024, 3, 4), turns, 400))
2024年3月4日（周一）：3 条消息，2 人发言。
话题：高数、吃火锅、压力
谁说了什么：
- 周霓（2 条）：下周三考高数，最近压力好大 / 考完请你们吃火锅
- Bo（1 条）：高数不难
提到的安排：
- 3月13日 高数考试（周霓）
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from ..models import Turn
from ..rules.agenda_rules import plans
from ..text.filler import content_free
from ..text.keywords import keywords
from ..text.segment import has_cjk
from ..tiers.long_term import telling

LINES_PER_SPEAKER = 2
SENTENCE_CHARS = 120
_WEEKDAYS_ZH = "一二三四五六日"


@dataclass(frozen=True)
class Words:
    """The digest's own words in one language."""

    header: str
    topics: str
    people: str
    plans: str
    sep: str  # between two items of a list


ZH = Words("{y}年{m}月{d}日（周{w}）：{n} 条消息，{k} 人发言。", "话题：", "谁说了什么：", "提到的安排：", "、")
EN = Words("{weekday} {d} {month} {y}: {n} {messages} from {k} {people}.", "Topics: ", "Who said what:",
           "Plans and dates:", ", ")


def digest(day: date, turns: Sequence[Turn], max_chars: int, names: Iterable[str] = ()) -> str:
    """The digest of ``day`` from its turns (the people's: the assistant's are left out).
    ``names``: what the chat's people are called besides their display names (no topics)."""
    said = [t for t in turns if t.role == "user"]
    if not said:
        return ""
    zh = sum(has_cjk(t.content) for t in said) * 2 >= len(said)
    words = ZH if zh else EN
    by_speaker: dict[str, list[Turn]] = {}
    for turn in said:
        by_speaker.setdefault(speaker(turn), []).append(turn)
    head = [_header(words, day, len(said), len(by_speaker), zh)]
    free = {id(t) for t in said if content_free(t)}  # once a turn: the topics and the speakers' lines ask
    found = keywords([t.content for t in said if id(t) not in free], [*by_speaker, *names])
    if found:
        head.append(words.topics + words.sep.join(found))
    people = [_speaker_line(name, [t for t in mine if id(t) not in free], len(mine), zh) for name, mine in
              sorted(by_speaker.items(), key=lambda kv: -len(kv[1]))]  # stable: first to speak first on ties
    dated = _plan_lines(said, day, zh)
    return _fit(head, [words.people, *filter(None, people)], [words.plans, *dated] if dated else [], max_chars)


def speaker(turn: Turn) -> str:
    """Who said a turn, by the name they went by then."""
    return turn.actor or turn.actor_id or turn.scope.user_id or turn.role


def _header(words: Words, day: date, messages: int, people: int, zh: bool) -> str:
    if zh:
        return words.header.format(y=day.year, m=day.month, d=day.day, w=_WEEKDAYS_ZH[day.weekday()], n=messages,
                                   k=people)
    return words.header.format(weekday=f"{day:%A}", d=day.day, month=f"{day:%B}", y=day.year, n=messages, k=people,
                               messages="message" if messages == 1 else "messages",
                               people="person" if people == 1 else "people")


def _speaker_line(name: str, telling_ones: list[Turn], n: int, zh: bool) -> str | None:
    """``- name (n): best sentence / second best``, in the order they were said, from the
    speaker's ``n`` turns less those with nothing to tell ("哈哈哈", "[图片]")."""
    best = [(found[0], i, found[1]) for i, t in enumerate(telling_ones) if (found := telling(t.content))]
    chosen = sorted(sorted(best, key=lambda b: (-b[0], b[1]))[:LINES_PER_SPEAKER], key=lambda b: b[1])
    if not chosen:
        return None
    lines = " / ".join(cut(s, SENTENCE_CHARS) for _, _, s in chosen)
    count = f"（{n} 条）：" if zh else f" ({n} message{'s' if n > 1 else ''}): "
    return f"- {name}{count}{lines}"


def _plan_lines(said: Sequence[Turn], day: date, zh: bool) -> list[str]:
    """The dated plans the day's messages state, each once, by date."""
    found: dict[tuple[date, str], str] = {}
    for turn in said:
        for plan in plans(turn.content, turn.timestamp):
            found.setdefault((plan.day, plan.what), speaker(turn))
    out = []
    for (when, what), who in sorted(found.items()):
        if zh:
            year = f"{when.year}年" if when.year != day.year else ""
            out.append(f"- {year}{when.month}月{when.day}日 {what}（{who}）")
        else:
            out.append(f"- {when:%a} {when.day} {when:%b} {when.year}: {what} ({who})")
    return out


def _fit(head: list[str], people: list[str], dated: list[str], max_chars: int) -> str:
    """The lines within ``max_chars``: the last speakers' lines go first (they spoke least),
    then the last plans; a header left alone goes too. The rest is cut as a last resort."""
    people, dated = list(people), list(dated)
    while True:
        text = "\n".join([*head, *people, *dated])
        if len(text) <= max_chars:
            return text
        if len(people) > 1:
            people.pop()
            people = people if len(people) > 1 else []
        elif len(dated) > 1:
            dated.pop()
            dated = dated if len(dated) > 1 else []
        else:
            return cut(text, max_chars)


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
