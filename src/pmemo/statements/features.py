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


def _tokens(text: str) -> list[str]:
    padded = f"^{text}$"
    out = [f"c{n}:{padded[i : i + n]}" for n in (1, 2, 3) for i in range(len(padded) - n + 1)]
    words = _WORDS.findall(text)
    out += [f"w:{w}" for w in words] + [f"b:{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    flags = {
        "first": bool(_FIRST.search(text)), "you": bool(_YOU.search(text)), "third": bool(_THIRD.search(text)),
        "ask": bool(_ASK.search(text)), "name": NAME in text, "name0": NAME in text[:6],
    }  # fmt: skip
    out += [f"f:{k}" for k, on in flags.items() if on]
    out.append(f"len:{min(len(text) // 6, 8)}")
    return out


def lexical(text: str, names: Sequence[tuple[int, int]]) -> np.ndarray:
    """The hashed feature indices of a clause (unique, sorted), each worth 1/sqrt(count)."""
    tokens = _tokens(normal(masked(text, names)))
    return np.unique(np.fromiter((zlib.crc32(t.encode()) % DIM for t in tokens), dtype=np.int32, count=len(tokens)))
