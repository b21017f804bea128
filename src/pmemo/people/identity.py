"""Who a person is, in one line (pure): their name, the other names an agent may meet, and how
they talk in this group. The people section of a context and the derived core-memory blocks
both open with it.

The line is written in the chat's language (``WORDS``), and it says nothing that changes with
every message: the day they last spoke, and how many messages to one significant digit
("20+"), so a card reads the same bytes, and a provider's prompt cache reuses it, until
something worth saying about them changed (issue 44 §5).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..models import SAID_IN_A_CHAT, Member, Person

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"also": "also {names}", "spoke": "last spoke here {day:%Y-%m-%d}", "messages": "{n} messages here",
           "message": "1 message here", "sep": "; ", "list": ", ", "style_sep": ", ", "open": " (", "close": ")",
           "said": "{said}: {style}",
           "short": "short messages", "medium": "medium messages", "long": "long messages", "zh": "in Chinese",
           "en": "in English", "zh+en": "in Chinese and English", "asks": "often asks questions"},
    "zh": {"also": "又名{names}", "spoke": "最近发言 {day:%Y-%m-%d}", "messages": "在这里发过{n}条消息",
           "message": "在这里发过1条消息", "sep": "；", "list": "、", "style_sep": "，", "open": "（", "close": "）",
           "said": "{said}：{style}",
           "short": "消息简短", "medium": "消息长短适中", "long": "消息较长", "zh": "说中文", "en": "说英文",
           "zh+en": "中英文都说", "asks": "常提问"},
}


def about(n: int) -> str:
    """A count to one significant digit, so it changes rarely: exact below 10, then "20+".

    >>> [about(n) for n in (1, 9, 10, 27, 120, 3456)]
    ['1', '9', '10+', '20+', '100+', '3000+']
    """
    if n < 10:
        return str(n)
    scale = 10 ** (len(str(n)) - 1)
    return f"{n // scale * scale}+"


def identity_line(person: Person, here: Member | None, owner: str | None = None, lang: str = "en") -> str:
    """"周霓 (also 霓霓, Neko; last spoke here 2026-06-01; 100+ messages here: short messages, in
    Chinese)": the names an agent may meet, and how they talk in this group (``here``), in
    ``lang`` ("en", "zh"). A nickname learned in another group (``owner`` is this one) is what
    was said there: not shown."""
    words = WORDS.get(lang, WORDS["en"])
    others = list(dict.fromkeys(
        a.alias for a in person.aliases if a.alias != person.name and a.source != "generated"
        and (a.source not in SAID_IN_A_CHAT or owner is None or a.learned_in == owner)))
    name = person.name or person.id
    extra = [words["also"].format(names=words["list"].join(others[:5]))] if others else []
    if here is not None and here.messages:
        said = words["message"] if here.messages == 1 else words["messages"].format(n=about(here.messages))
        style = words["style_sep"].join(words[t] for t in here.traits)
        extra.append(words["spoke"].format(day=here.last_seen) + words["sep"] + words["said"].format(
            said=said, style=style))
    return f"{name}{words['open']}{words['sep'].join(extra)}{words['close']}" if extra else name
