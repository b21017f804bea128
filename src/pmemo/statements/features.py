"""The cheap lexical features of a clause (pure, numpy only): hashed character n-grams, words
and a few flags, the same at training and at run time.

The names a resolver found in the clause are masked first (each becomes one mark), so "霓霓在
腾讯上班" and "小林在腾讯上班" read alike: who is named is the resolver's business, that
someone is named is the model's.

>>> idx = lexical("哈哈我在腾讯上班", ())
>>> idx.dtype, len(idx) > 10, bool((idx < DIM).all())
(dtype('int32'), True, True)
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Sequence

import numpy as np

DIM = 1 << 12
NAME = "\x01"
_DIGITS = re.compile(r"\d+")
_WORDS = re.compile(r"[a-z\x01']+")
_SPACE = re.compile(r"\s+")
_FIRST = re.compile(r"我(?!们)|\bi\b|\bi'm\b|\bmy\b|\bme\b")
_YOU = re.compile(r"你|您|\byou\b|\byour\b")
_THIRD = re.compile(r"[他她]|\bhe\b|\bshe\b|\bhis\b|\bher\b")
_ASK = re.compile(r"[?？]|[吗嘛呢][\W]*$")
# the words that say how a clause is meant, across the phrasings a template list happens to hold
_QWORD = re.compile(r"什么|啥|哪|谁|几|怎么|多少|是不是|有没有|要不要|[吗嘛][\W]*|[不没][\W]*$|是吧|对吧"
                    r"|^(?:what|where|who|when|how|why|which|do|does|did|are|is|can|have|has|u|any|anyone)\b"
                    r"|\b(?:right|or not|huh)\W*$")
_REPORT = re.compile(r"说|听说|据说|讲|转述|[\u201c\u201d\"]|\b(?:said|says|told|heard|mentioned|apparently|rumou?r"
                     r"|according|word is|was like)\b")
_JOKE = re.compile(r"开玩笑|玩笑|狗头|doge|骗你|骗你们|做梦|梦里|才怪|想得美|bushi|怎么可能|假的"
                   r"|\b(?:jk|kidding|/s|as if|yeah right|not really|said no one)\b")
_KIN = re.compile(r"[妈爸]|老公|老婆|媳妇|对象|男朋友|女朋友|[姐妹哥弟]|儿子|女儿|爷爷|奶奶|外婆|外公|舅|姑|姨"
                  r"|\bmy (?:mom|mum|dad|wife|husband|sister|brother|son|daughter|cousin|partner|girlfriend|boyfriend"
                  r"|parents|grand\w+|uncle|aunt|fianc\w+)")
_ACQ = re.compile(r"同事|室友|舍友|朋友|闺蜜|邻居|领导|老板|同学|发小|学长|网友"
                  r"|\bmy (?:friend|roommate|coworker|colleague|boss|neighbou?r|classmate|flatmate|buddy|manager"
                  r"|teammate|best friend)")


def masked(text: str, names: Sequence[tuple[int, int]]) -> str:
    """``text`` with each name span (start, end) replaced by one ``NAME`` mark."""
    out, at = [], 0
    for a, b in sorted(names):
        if a < at:
            continue
        out += [text[at:a], NAME]
        at = b
    out.append(text[at:])
    return "".join(out)


def normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return _SPACE.sub(" ", _DIGITS.sub("0", text)).strip()


# the feature set a model file was trained with: 1, n-grams, words and the first six flags; 2, the
# flags of how a clause is meant and of whom (question words, reports, jokes, kin, acquaintances)
VERSION = 2


def _tokens(text: str, version: int = VERSION) -> list[str]:
    padded = f"^{text}$"
    out = [f"c{n}:{padded[i : i + n]}" for n in (1, 2, 3) for i in range(len(padded) - n + 1)]
    words = _WORDS.findall(text)
    out += [f"w:{w}" for w in words] + [f"b:{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    flags = {
        "first": bool(_FIRST.search(text)), "you": bool(_YOU.search(text)), "third": bool(_THIRD.search(text)),
        "ask": bool(_ASK.search(text)), "name": NAME in text, "name0": NAME in text[:6],
    }  # fmt: skip
    if version >= 2:  # a wish or a negation flag was tried and dropped: "I can't stand cilantro" read as denied
        flags.update(qword=bool(_QWORD.search(text)), report=bool(_REPORT.search(text)),
                     joke=bool(_JOKE.search(text)), kin=bool(_KIN.search(text)), acq=bool(_ACQ.search(text)))
    out += [f"f:{k}" for k, on in flags.items() if on]
    out.append(f"len:{min(len(text) // 6, 8)}")
    return out


def lexical(text: str, names: Sequence[tuple[int, int]], version: int = VERSION) -> np.ndarray:
    """The hashed feature indices of a clause (unique, sorted), each worth 1/sqrt(count)."""
    tokens = _tokens(normal(masked(text, names)), version)
    return np.unique(np.fromiter((zlib.crc32(t.encode()) % DIM for t in tokens), dtype=np.int32, count=len(tokens)))
