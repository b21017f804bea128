"""A reply that quotes what it answers, read from its text (pure): what QQ / WeChat bots forward
when the platform gives no reply id.

Two shapes: WeChat's 「群名片：原文」 (or "群名片: 原文") before the reply, and e-mail style ``>``
lines. ``answered`` finds the quoted message among a chat's earlier ones. A message that opens
with "@someone" and quotes nothing answers that person's latest question (``addressee``).

>>> quoted("「周霓：明天几点集合？」\\n八点，校门口")
Quote(name='周霓', text='明天几点集合？', body='八点，校门口')
>>> quoted("> what time tomorrow?\\n8am at the gate")
Quote(name='', text='what time tomorrow?', body='8am at the gate')
>>> quoted("我觉得「挺好」这个说法不对") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

# with a name the reply may follow at once; without one, only on a line of its own ("「挺好」这个
# 说法不对" quotes a word, not a message)
_BRACKET = re.compile(r"^\s*[「『\"“](?:(?P<name>[^「」『』:：\n]{1,32})[:：]\s*(?P<text>[^「」『』]{1,500}?)[」』\"”]"
                      r"\s*(?:[-—]{2,}\s*)?|(?P<bare>[^「」『』]{1,500}?)[」』\"”]\s*\n\s*(?:[-—]{2,}\s*)?)"
                      r"(?P<body>\S[\s\S]*)$")
_ARROWS = re.compile(r"^((?:\s*>[^\n]*\n)+)([\s\S]*\S[\s\S]*)$")
_ELLIPSIS = re.compile(r"(?:\.\.\.|…+)$")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Quote:
    name: str  # the quoted person's display name as written ("" when the quote names nobody)
    text: str  # the quoted words (perhaps cut short)
    body: str  # the reply itself


class Earlier(Protocol):
    """What ``answered`` reads of a candidate turn."""

    @property
    def content(self) -> str: ...
    @property
    def actor(self) -> str | None: ...


def quoted(text: str) -> Quote | None:
    """The quote a message opens with, and its reply, or None."""
    m = _BRACKET.match(text)
    if m is not None:
        said = m.group("text") if m.group("name") is not None else m.group("bare")
        return Quote((m.group("name") or "").strip(), said.strip(), m.group("body").strip())
    m = _ARROWS.match(text)
    if m is not None:
        lines = [line.strip()[1:].strip() for line in m.group(1).splitlines() if line.strip()]
        name, said = "", " ".join(lines)
        head = re.match(r"^([^:：\s]{1,32})[:：]\s*(\S.*)$", said)
        if head is not None and len(lines) == 1 and not head.group(1).startswith("http"):
            name, said = head.group(1), head.group(2)
        return Quote(name, said, m.group(2).strip()) if said else None
    return None


def _norm(text: str) -> str:
    return _SPACE.sub("", _ELLIPSIS.sub("", text.strip())).lower()


def answered(quote: Quote, earlier: Sequence[Any]) -> int | None:
    """The index in ``earlier`` (oldest first) of the message ``quote`` quotes: the latest whose
    words hold the quoted ones (a quote may be cut short), said by the quoted name where one
    such is; None when no message holds them."""
    said = _norm(quote.text)
    if not said:
        return None
    found = [i for i, t in enumerate(earlier) if said in _norm(t.content) or (
        len(said) >= 8 and _norm(t.content).startswith(said[: max(8, len(said) - 3)]))]
    by_name = [i for i in found if quote.name and (earlier[i].actor or "") == quote.name]
    best = by_name or found
    return best[-1] if best else None


@dataclass(frozen=True)
class Address:
    """A message that opens with an @mention: whom the platform tagged (person ids), and its
    text after the "@" (which starts with the name as the group card shows it)."""

    people: tuple[str, ...]
    text: str


_ASKS = re.compile(r"[?？]|(?:吗|呢|么|没有|不)[\s\W]*$")
# a question without a question mark: an interrogative in its last clause ("AA费用是多少啊",
# "图书馆几点关门来着"), or in English a last clause that opens like one ("anyone up for lunch")
_WH_ZH = re.compile(r"谁|什么|啥|哪|几[点个号天时次位]|多少|多久|多长|怎么|咋|为什么|为啥|如何|"
                    r"是不是|有没有|要不要|能不能")
_WH_EN = re.compile(r"^(?:who|what|when|where|which|whose|how|why|is|are|do|does|did|can|could|will|would|"
                    r"should|has|have|any|anyone|anybody)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[，,。.!！；;\n]")


def addressed(text: str, tagged: Sequence[str] = ()) -> Address | None:
    """The @mention a message opens with, or None.

    >>> addressed("@周霓 我可以", ["ni"])
    Address(people=('ni',), text='周霓 我可以')
    """
    body = text.lstrip()
    return Address(tuple(tagged), body[1:]) if body[:1] in ("@", "＠") and len(body) > 1 else None


def asks(text: str) -> bool:
    """Whether a message asks something: a question mark, a sentence-final 吗 / 呢 / 么, or an
    interrogative in its last clause (a question mark is often left out in a chat).

    >>> asks("周末谁能帮我搬家？"), asks("明天去吗"), asks("我明天去")
    (True, True, False)
    >>> asks("下次活动的AA费用是多少啊"), asks("图书馆几点关门来着"), asks("anyone up for lunch"), asks("确实")
    (True, True, True, False)
    >>> asks("好的，我明天去"), asks("我知道了")
    (False, False)
    """
    if _ASKS.search(text):
        return True
    last = [c.strip() for c in _CLAUSE.split(text[-200:]) if c.strip()]
    return bool(last) and bool(_WH_ZH.search(last[-1]) or _WH_EN.match(last[-1]))


def addressee(address: Address, earlier: Sequence[Any]) -> int | None:
    """The index in ``earlier`` (oldest first) of the latest question by the person the message
    opens by @-mentioning (a tagged id, else the display name the text starts with), or None."""
    for i in range(len(earlier) - 1, -1, -1):
        t = earlier[i]
        person = getattr(t, "actor_id", None)
        if (person is not None and person in address.people) or (
                not address.people and t.actor and address.text.startswith(t.actor)):
            if asks(t.content):
                return i
    return None
