"""Language packs: what lexical search needs to know of each language it reads.

A pack holds its stop words and how a word of it becomes index terms (``en``: Snowball
stems; ``zh``: jieba words and character bigrams). Which pack reads a word depends on the
text around it: an ASCII word in a text with Chinese in it is a name, pinyin or a brand
more often than English, so it is indexed as written as well as stemmed (see
``text.segment``). Fact sentences pick their language in ``rules.sentences`` (by the
Han characters of the fact), with the same Chinese test ``has_cjk``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import en, zh

STOPWORDS = en.STOPWORDS | zh.STOPWORDS
FILLER = en.FILLER | zh.FILLER  # greetings and acknowledgements (text.dialogue)


def has_cjk(text: str) -> bool:
    """Whether ``text`` has Chinese characters in it.

    >>> has_cjk("我去了Paris"), has_cjk("Paris")
    (True, False)
    """
    return bool(zh.CJK.search(text))


def chat_language(texts: Iterable[str], limit: int = 4000) -> str:
    """"zh" when the Chinese characters of ``texts`` outnumber their Latin letters' words (a
    Chinese character is about a word), else "en": the language a context's scaffolding is
    written in. Reads at most ``limit`` characters.

    >>> chat_language(["周末去爬山吗", "ok"]), chat_language(["Are you coming?", "好的"]), chat_language([])
    ('zh', 'en', 'en')
    """
    han = words = read = 0
    for text in texts:
        text = text[: max(limit - read, 0)]
        read += len(text)
        han += sum(map(len, zh.CJK.findall(text)))
        words += len(_WORD.findall(text))
        if read >= limit:
            break
    return "zh" if han > words else "en"


_WORD = re.compile(r"[A-Za-z]+")

__all__ = ["FILLER", "STOPWORDS", "chat_language", "en", "has_cjk", "zh"]
