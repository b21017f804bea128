"""A message cut into the clauses the statement model reads (pure, bounded).

A clause ends at a sentence mark, a comma, a semicolon or a line break. A piece too short to
say anything ("不对", "哈哈", "no wait") joins the one after it, so "不对，是下周三" stays one
correction and "嗯，我换工作了" one statement. A message is read in bounded pieces: at most
``MAX_CLAUSES`` clauses of at most ``MAX_CHARS`` characters each (a pasted log or a key held
down costs the same as a long message). A clause of only emoji, stickers and punctuation
("😂😂", "[图片]") is no clause.

>>> clauses("不对，是下周三。我妹妹在北京读大学，学医的！！😂")
['不对，是下周三。', '我妹妹在北京读大学，', '学医的！！😂']
>>> clauses("[图片][图片] 😂")
[]
"""

from __future__ import annotations

import re

MAX_CLAUSES = 32
MAX_CHARS = 160
_SHORT = 4  # characters (CJK) or two words (Latin) and less: an opener, not a clause

_END = re.compile(r"[。！？!?；;，,\n]+|(?<=[A-Za-z0-9)])\.+(?=\s|$)|…+")
_TAGS = re.compile(r"\[[^\[\]]{1,8}\]")  # [图片], [表情], [image], [狗头]
_CONTENT = re.compile(r"[0-9A-Za-z\u3400-\u9fff\u00c0-\u024f\u0400-\u04ff]")
_WORD = re.compile(r"[A-Za-z0-9']+|[\u3400-\u9fff]")


def has_content(text: str) -> bool:
    """Whether ``text`` holds a word: not only emoji, stickers, tags and punctuation."""
    return bool(_CONTENT.search(_TAGS.sub("", text)))


def _short(piece: str) -> bool:
    words = _WORD.findall(_TAGS.sub("", piece))
    han = sum(1 for w in words if len(w) == 1 and "\u3400" <= w <= "\u9fff")
    return han <= _SHORT and len(words) - han <= 2 and (han == 0 or len(words) == han)


def _pieces(text: str) -> list[str]:
    out, start = [], 0
    for m in _END.finditer(text):
        out.append(text[start : m.end()])
        start = m.end()
        if len(out) > 4 * MAX_CLAUSES:
            break
    else:
        out.append(text[start:])
    return [p for p in out if p.strip()]


def clauses(text: str) -> list[str]:
    """The clauses of ``text`` in order, each stripped, none empty or longer than ``MAX_CHARS``."""
    out: list[str] = []
    carry = ""
    for piece in _pieces(text[: MAX_CLAUSES * MAX_CHARS]):
        piece = carry + piece
        carry = ""
        if _short(piece) and has_content(piece):
            carry = piece
            continue
        out.extend(_bounded(piece.strip()))
        if len(out) >= MAX_CLAUSES:
            break
    if carry:
        out.extend(_bounded(carry.strip()))
    return [c for c in out if has_content(c)][:MAX_CLAUSES]


def _bounded(piece: str) -> list[str]:
    """A piece cut at spaces into clauses of at most ``MAX_CHARS`` (a run of one character where
    it has no space)."""
    if len(piece) <= MAX_CHARS:
        return [piece]
    out = []
    while len(piece) > MAX_CHARS:
        cut = piece.rfind(" ", 0, MAX_CHARS)
        cut = cut if cut > MAX_CHARS // 2 else MAX_CHARS
        out.append(piece[:cut].strip())
        piece = piece[cut:].strip()
    return [*out, piece] if piece else out
