"""Language packs: what lexical search needs to know of each language it reads.

A pack holds its stop words and how a word of it becomes index terms (``en``: Snowball
stems; ``zh``: jieba words and character bigrams). Which pack reads a word depends on the
text around it: an ASCII word in a text with Chinese in it is a name, pinyin or a brand
more often than English, so it is indexed as written as well as stemmed (see
``text.segment``). Fact sentences pick their language in ``rules.sentences`` (by the
Han characters of the fact), with the same Chinese test ``has_cjk``.
"""

from __future__ import annotations

from . import en, zh

STOPWORDS = en.STOPWORDS | zh.STOPWORDS
FILLER = en.FILLER | zh.FILLER  # greetings and acknowledgements (text.dialogue)


def has_cjk(text: str) -> bool:
    """Whether ``text`` has Chinese characters in it.

    >>> has_cjk("我去了Paris"), has_cjk("Paris")
    (True, False)
    """
    return bool(zh.CJK.search(text))


__all__ = ["FILLER", "STOPWORDS", "en", "has_cjk", "zh"]
