"""Word segmentation for lexical search: jieba for Chinese, words for everything else.

FTS5's unicode61 tokenizer does not split Chinese, so text is segmented here and the
FTS table stores space-separated tokens.

>>> segment("预算不能超过10万元 Budget OK, paintings")
'预算 不能 超过 10 万元 budget ok paint 预算 算不 不能 能超 超过'

English words are stemmed (Snowball/Porter2), so "painting", "paintings" and "painted"
meet. Changing what ``segment`` returns means bumping ``FTS_VERSION``: the store then
re-indexes its turns on open.
"""

from __future__ import annotations

import logging
import re
import threading
from functools import lru_cache

import snowballstemmer

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+"
)
_lock = threading.Lock()
_jieba = None
_english = snowballstemmer.stemmer("english")

# The version of what segment() produces; a store re-indexes when it changes.
FTS_VERSION = 3  # 3: the speaker's name is no longer indexed with the words

STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    do does did have has had i you he she it we they me him her us them my your his its our their
    this that these those what which who whom whose when where why how not no yes so than then
    there here can could would should will shall may might must about into over after before
    just also very too any some all more most other such only own same s t don doesn didn
    的 了 是 在 我 你 他 她 它 我们 你们 他们 吗 呢 吧 啊 和 与 就 都 也 还 又 这 那 这个 那个 有 没有 一个
    什么 怎么 哪 哪里 多少 几 给 被 把 让 对 从 到 说 要 会 能 可以 很 太 得 地 着 过""".split()
)


def _cut(text: str) -> list[str]:
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return [w for w in _jieba.lcut(text) if w.strip()]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English stem of a lower-cased word (other scripts come back unchanged)."""
    return _english.stemWord(word) if word.isascii() else word


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens: Chinese runs cut with jieba, other words stemmed."""
    out: list[str] = []
    for match in _WORD.finditer(text.lower()):
        piece = match.group(0)
        if _CJK.fullmatch(piece):
            out.extend(_cut(piece) if len(piece) > 1 else [piece])
        elif piece not in STOPWORDS:
            out.append(stem(piece))
    return out


def ascii_tokens(text: str) -> list[str]:
    """The tokens() of ``text``'s ASCII words only: no Chinese segmentation, so it is cheap.

    Every other token of a text is a piece of its lower-cased self, so a non-ASCII term
    that does not occur in the text is not among its tokens either.

    >>> ascii_tokens("预算 Budget paintings, café")
    ['budget', 'paint']
    """
    return [stem(piece) for match in _WORD.finditer(text.lower())
            if (piece := match.group(0)).isascii() and piece not in STOPWORDS]


def bigrams(text: str) -> list[str]:
    """Character bigrams of the Chinese runs longer than two characters.

    jieba's words miss matches across different segmentations (预算案 / 预算); bigrams,
    indexed beside the words, catch them, as character n-grams do in Chinese IR.
    """
    out: list[str] = []
    for run in _CJK.findall(text):
        if len(run) > 2:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


# a shared picture's or file's caption, as chats log it: "[image: a photo of a beach]"
MEDIA_CAPTION = re.compile(r"\[(?:image|photo|video|file):[^\]]*\]", re.IGNORECASE)


def segment(text: str) -> str:
    """Text as space-separated tokens (words, plus Chinese bigrams), for an FTS5 index."""
    return " ".join([*tokens(text), *bigrams(text)])


@lru_cache(maxsize=4096)
def query_terms(text: str) -> tuple[str, ...]:
    """Distinct content tokens of a query (words, Chinese bigrams), stopwords removed."""
    seen: dict[str, None] = {}
    for tok in [*tokens(text), *bigrams(text)]:
        if tok not in STOPWORDS and tok not in seen:
            seen[tok] = None
    return tuple(seen)


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))
