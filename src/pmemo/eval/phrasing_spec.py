"""The phrasing set's model: kinds, labels, lines and chats, and the one-line label grammar the
hand-written chats (``phrasing_zh``, ``phrasing_en``) are written in.

A line's spec is either a negative, ``-why`` (why it states no fact: one of ``NEGATIVE``), or one or
more labels joined by ``;``, each::

    [@member |^]kind:words[!ended]

- no prefix: the fact is about the speaker; ``@member``: about that member of the chat (by key);
  ``^``: about a relative or partner of the speaker, filed under the speaker ("我妹妹在读高三").
- ``kind``: one of ``KINDS``.
- ``words``: what the fact must carry, groups joined by ``+``, each group's alternatives by ``|``
  (every group must appear, by any one of its alternatives): ``考试+周四|2026-11-12``.
- ``ended``: alternatives (``|``) naming the value this statement ends, a correction or a change
  ("不对，是下周四" ends 周三; "跳槽去腾讯" ends 字节): no current fact of that person may carry it.

>>> parse_spec("@man pets:团子|猫", "ni", ("ni", "man"))
((Label(person='man', kind='pets', words=(('团子', '猫'),), about='named', ends=()),), None)
>>> parse_spec("-question", "ni", ("ni",))
((), 'question')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("name", "work", "study", "home", "family", "pets", "health", "likes", "habits", "events", "opinions")
NEGATIVE = ("question", "hypothetical", "joke", "quote", "others", "smalltalk", "media", "emoji", "negated")

RawLine = tuple[str, str, str]  # speaker key, text, spec
RawChat = tuple[str, str, tuple[tuple[str, str], ...], tuple[RawLine, ...]]  # id, "group"/"private", members, lines

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Label:
    """One fact a line states: about whom (a person id of its chat), what kind, the words its value
    carries (every group, by one of its alternatives) and the value it ends, if any."""

    person: str
    kind: str
    words: tuple[tuple[str, ...], ...]
    about: str  # "self", "named" or "relative" (filed under the speaker)
    ends: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    """One message of the set: ``idx`` is its place in the whole set; a negative has ``why`` and no labels."""

    idx: int
    chat: str
    speaker: str
    actor: str
    text: str
    timestamp: str
    labels: tuple[Label, ...]
    why: str | None

    @property
    def lang(self) -> str:
        """ "zh" when the text holds a Chinese character, else "en" (mixed lines count as Chinese)."""
        return "zh" if _CJK.search(self.text) else "en"


@dataclass(frozen=True)
class Chat:
    """A group chat (``group_id``) or a private chat (``user_id``, its one member); members as
    (person id, display name)."""

    id: str
    group_id: str | None
    user_id: str | None
    members: tuple[tuple[str, str], ...]
    lines: tuple[Line, ...]

    @property
    def where(self) -> dict[str, str]:
        """The scope arguments of the chat for ``add_many``, ``profile`` and ``agenda``."""
        return {"group_id": self.group_id} if self.group_id else {"user_id": self.user_id or ""}


def parse_spec(spec: str, speaker: str, members: tuple[str, ...]) -> tuple[tuple[Label, ...], str | None]:
    """A line's labels and, for a negative, why; ValueError names what is wrong with the spec."""
    spec = spec.strip()
    if spec.startswith("-"):
        why = spec[1:]
        if why not in NEGATIVE:
            raise ValueError(f"unknown negative {why!r}: use one of {', '.join(NEGATIVE)}")
        return (), why
    labels = tuple(_label(part.strip(), speaker, members) for part in spec.split(";"))
    if not labels:
        raise ValueError("a line needs a label or a negative")
    return labels, None


def _label(text: str, speaker: str, members: tuple[str, ...]) -> Label:
    person, about = speaker, "self"
    if text.startswith("@"):
        person, _, text = text[1:].partition(" ")
        about = "named"
        if person not in members or person == speaker:
            raise ValueError(f"@{person} is not another member of the chat")
    elif text.startswith("^"):
        text, about = text[1:], "relative"
    kind, sep, rest = text.partition(":")
    if not sep or kind not in KINDS:
        raise ValueError(f"unknown kind in {text!r}: use one of {', '.join(KINDS)}")
    value, _, ended = rest.partition("!")
    words = tuple(tuple(a.strip().lower() for a in group.split("|") if a.strip()) for group in value.split("+"))
    if not words or not all(words):
        raise ValueError(f"label {text!r} names no words its fact must carry")
    ends = tuple(a.strip().lower() for a in ended.split("|") if a.strip())
    return Label(person, kind, words, about, ends)
