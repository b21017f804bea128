"""IM system notices and media placeholders (pure): structure of a chat, not what people said.

QQ / WeChat bots forward what the platform shows: "周霓 修改群名片为 霓霓", "小王 加入了群聊",
"老张 撤回了一条消息", "[图片]". A platform that knows better says so in the turn's metadata:

- ``metadata["kind"]``: ``"notice"`` (a system notice; ``"rename"``, ``"join"``, ``"leave"``,
  ``"recall"``, ``"poke"`` name which), or a medium: ``"image"``, ``"voice"``, ``"sticker"``,
  ``"video"``, ``"file"``, ``"link"``, ``"location"``, ``"card"``, ``"red_packet"``;
  ``"text"`` (or none) is an ordinary message.
- for a notice, ``metadata["person"]`` (whom it is about, a person id) and
  ``metadata["name"]`` (the new display name of a rename) when the platform gives them.

Without them the text is read: ``notice`` finds the notices below in Chinese and English,
``placeholder_only`` a message of nothing but "[图片]"-like placeholders, emoji or a bare link,
and ``content_free`` says whether a turn is content at all: such a turn is never read for facts,
key memory or a context line (issue 44 §2).

>>> notice("周霓 修改群名片为 霓霓")
Notice(type='rename', who='周霓', other='霓霓')
>>> notice("Tom changed his group nickname to Tommy")
Notice(type='rename', who='Tom', other='Tommy')
>>> notice("小王 加入了群聊").type, notice("老张撤回了一条消息").type, notice("我拍了拍 小王").type
('join', 'recall', 'poke')
>>> notice("周霓说她加入了群聊的讨论") is None, placeholder_only("[图片][表情]"), placeholder_only("[图片] 好看吗")
(True, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

NOTICE_KINDS = ("notice", "rename", "join", "leave", "recall", "poke")
MEDIA_KINDS = ("image", "voice", "sticker", "video", "file", "link", "location", "card", "red_packet")

_NAME = r"[^\s，。,:：]{1,24}?"
_NAME_SPACED = r".{1,24}?"
# (type, pattern): ``who`` is whom the notice is about; ``other`` the new name, or whom one pokes
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [(t, re.compile(p, re.IGNORECASE)) for t, p in [
    ("rename", rf"^[\"“「]?(?P<who>{_NAME_SPACED})[\"”」]?\s*(?:修改群名片为|将群名片修改为|修改了群名片为|修改群昵称为"
               r"|修改了群昵称为|的群名片已修改为)\s*[\"“「]?(?P<other>.{1,32}?)[\"”」]?[。.]?$"),
    ("rename", rf"^(?P<who>{_NAME_SPACED}) (?:changed (?:his|her|their) (?:group )?(?:nickname|display name|name card)"
               r"|changed the group (?:nickname|name card)|renamed (?:himself|herself|themselves)) to"
               r" [\"“']?(?P<other>.{1,32}?)[\"”']?\.?$"),
    ("join", rf"^(?:{_NAME}\s*邀请\s*)?[\"“「]?(?P<who>{_NAME_SPACED})[\"”」]?\s*"
             r"(?:加入了群聊|加入群聊|进入了群聊|已加入群聊)[。.]?$"),
    ("join", rf"^(?:{_NAME_SPACED} added )?(?P<who>{_NAME_SPACED}) (?:joined|was added to|has joined) the"
             r" (?:group|chat)(?: chat)?\.?$"),
    ("join", rf"^{_NAME_SPACED} (?:added|invited) (?P<who>{_NAME_SPACED}) (?:to|into) the"
             r" (?:group|chat)(?: chat)?\.?$"),
    ("leave", rf"^[\"“「]?(?P<who>{_NAME_SPACED})[\"”」]?\s*"
              r"(?:退出了群聊|退出群聊|已退出群聊|被移出了?群聊|离开了群聊)[。.]?$"),
    ("leave", rf"^(?P<who>{_NAME_SPACED})\s*被{_NAME}移出了?群聊[。.]?$"),
    ("leave", rf"^(?P<who>{_NAME_SPACED}) (?:left|has left|was removed from) the (?:group|chat)(?: chat)?\.?$"),
    ("recall", rf"^[\"“「]?(?P<who>{_NAME_SPACED})[\"”」]?\s*撤回了一条(?:成员)?消息[。.]?$"),
    ("recall", rf"^(?P<who>{_NAME_SPACED}) (?:recalled|unsent|deleted|withdrew) a message\.?$"),
    ("recall", r"^(?P<who>)(?:this message was (?:deleted|recalled)|此消息已撤回|该消息已撤回)\.?$"),
    ("poke", rf"^(?P<who>{_NAME_SPACED})\s*拍了拍\s*(?P<other>{_NAME_SPACED})(?:的\S{{0,12}})?[。.]?$"),
    ("poke", r"^(?P<who>)\[?拍一拍\]?$"),
    ("poke", rf"^(?P<who>{_NAME_SPACED}) (?:nudged|poked|tickled) (?P<other>{_NAME_SPACED})\.?$"),
]]

# what a bot forwards for a message that holds no words: QQ's and WeChat's placeholders
_PLACEHOLDER = re.compile(
    r"\[(?:图片|照片|语音|表情|动画表情|表情包|视频|文件|链接|位置|名片|红包|转账|聊天记录|小程序|音乐|卡片消息|动画|闪照"
    r"|image|photo|picture|voice|audio|sticker|emoji|gif|video|file|link|location|contact|card)(?:[:：][^\]]{0,200})?\]"
    r"(?:\s*\d{1,3}(?:\"|″|''|秒|s)?)?", re.IGNORECASE)
_LINK = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)
_WORDLESS = re.compile(r"^[\W_]*$")  # no letter, digit or CJK character: emoji and punctuation


@dataclass(frozen=True)
class Notice:
    type: str  # rename, join, leave, recall, poke
    who: str  # the display name it is about ("" when the text names nobody)
    other: str = ""  # a rename's new name; whom one pokes


class Said(Protocol):
    """What ``content_free`` reads of a turn."""

    @property
    def content(self) -> str: ...
    @property
    def metadata(self) -> Mapping[str, Any]: ...


def notice(text: str, metadata: Mapping[str, Any] | None = None) -> Notice | None:
    """The system notice a turn is, or None: the platform's word (``kind``) first, then the text."""
    meta = metadata or {}
    kind = meta.get("kind")
    found = _read(text.strip())
    if kind in NOTICE_KINDS:
        named = meta.get("name")
        if found is not None and kind in ("notice", found.type):
            return found if not isinstance(named, str) else Notice(found.type, found.who, named)
        return Notice("notice" if kind == "notice" else kind, "", named if isinstance(named, str) else "")
    return found


# a word every notice above holds: most messages hold none, and are not read further
_HINT = re.compile(r"群聊|群名片|群昵称|撤回|消息已|拍|group|chat|message|nickname|name card|renamed|nudged|poked"
                   r"|tickled", re.IGNORECASE)


def _read(text: str) -> Notice | None:
    if not text or len(text) > 80 or "\n" in text or _HINT.search(text) is None:
        return None
    for kind, pattern in _PATTERNS:
        m = pattern.match(text)
        if m is not None:
            groups = m.groupdict()
            return Notice(kind, (groups.get("who") or "").strip(), (groups.get("other") or "").strip())
    return None


def placeholder_only(text: str) -> bool:
    """Whether ``text`` holds no words: only placeholders ("[图片]", "[语音] 5\\""), bare links,
    emoji and punctuation."""
    rest = _LINK.sub(" ", _PLACEHOLDER.sub(" ", text))
    return bool(_WORDLESS.match(rest))


def content_free(turn: Said) -> bool:
    """Whether a turn is structure, not content: a system notice, or a medium without words
    (an image, a voice note, a sticker, a link with no text). Such a turn is never read for facts,
    key memory or a context line.

    >>> from types import SimpleNamespace as T
    >>> content_free(T(content="[语音] 12\\"", metadata={})), content_free(T(content="我下周考雅思", metadata={}))
    (True, False)
    >>> image, recall = {"kind": "image"}, {"kind": "recall"}
    >>> content_free(T(content="看这个", metadata=image)), content_free(T(content="x", metadata=recall))
    (False, True)
    """
    meta = turn.metadata if isinstance(turn.metadata, Mapping) else {}
    if meta.get("kind") in NOTICE_KINDS:
        return True
    return placeholder_only(turn.content) or notice(turn.content) is not None
