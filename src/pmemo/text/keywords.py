"""What a set of messages is about: its keywords (jieba's TF-IDF; nouns only in Chinese), those
said in more messages first. People's names, dates, numbers and greetings are not keywords, nor is
an English word said in one message unless it is capitalized inside it (a place, a product). A diary day's
topics and an episode's are read here.

>>> keywords(["下周三考高数，最近压力好大", "加油！高数不难", "考完请你们吃火锅"], ["周霓"], 3)
['高数', '吃火锅', '压力']
>>> keywords(["Can you put the extra chairs in room B?", "Planning the Yunnan trip", "the trip is in May"], [])
['trip', 'Yunnan']
"""

from __future__ import annotations

import calendar
import logging
from collections.abc import Iterable, Sequence

from .lang import en
from .segment import STOPWORDS, has_cjk

TOPICS = 5
TOPIC_CHARS = 20_000  # of the messages' text, read for their keywords
# jieba's part-of-speech tags of the words a Chinese keyword is made of: nouns (not people's names)
_NOUNS = ("n", "nz", "ns", "nt", "vn", "eng", "j", "l")
# English words of how, not what: particles, light verbs, adverbs (jieba reads no English part of speech)
_LIGHT = frozenset("""out up down off over around away back well still really even much many lot lots get got gets
    getting go goes going went gone come comes came coming make makes made making take takes took put puts need needs
    want wants think know knew see saw say says said tell told let lets try tried use used thing things stuff sure
    maybe though yet ever never always again already soon later done doing""".split())
# words nothing is about: stopwords, light words, and the calendar's (a plan's date is said elsewhere)
_NOT_TOPICS = STOPWORDS | _LIGHT | frozenset(n.lower() for n in [*calendar.day_name, *calendar.month_name,
                                                                 *calendar.day_abbr, *calendar.month_abbr] if n) | {
    "today", "tomorrow", "tonight"}


def keywords(texts: Sequence[str], names: Iterable[str], k: int = TOPICS) -> list[str]:
    """The ``k`` keywords of ``texts``, those said in more of them first, none a person's
    name (``names``). Long texts are read from every n-th one (tagging takes ~50 ms per 1,000
    characters)."""
    import jieba
    import jieba.analyse

    jieba.setLogLevel(logging.WARNING)
    step = -(-sum(len(t) for t in texts) // TOPIC_CHARS)
    sample = texts[::step] if step > 1 else texts
    joined = "\n".join(sample)
    lowered = [t.lower() for t in sample]
    people = [n.lower() for n in names if n]
    scored = []
    starts = {t.split(maxsplit=1)[0] for t in sample if t.strip()}
    pos = _NOUNS if has_cjk(joined) else ()
    for word, weight in jieba.analyse.extract_tags(joined, topK=30, withWeight=True, allowPOS=pos):
        low = word.lower()
        if (len(word) < (3 if word.isascii() else 2) or not any(c.isalpha() for c in word) or low in _NOT_TOPICS
                or {low, en.stem(low)} & en.FILLER):  # "please", "thanks": how, not what
            continue
        if any(low in name or name in low for name in people):
            continue
        said = sum(low in t for t in lowered)
        if word.isascii() and said < 2 and not (word[0].isupper() and word not in starts):
            continue  # an English word said once is a keyword only as a name (no part of speech is read)
        scored.append((said * weight, word))
    return [w for _, w in sorted(scored, key=lambda p: -p[0])[:k]]
