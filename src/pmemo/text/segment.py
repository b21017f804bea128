"""Word segmentation for lexical search, by the language packs in ``text.lang``.

FTS5's unicode61 tokenizer does not split Chinese, so text is segmented here and the
FTS table stores space-separated tokens.

>>> segment("预算不能超过10万元 Budget OK, paintings")
'预算 不能 超过 10 万元 budget ok paintings paint 预算 算不 不能 能超 超过'
>>> segment("Budget OK, paintings")
'budget ok paint'

English words are stemmed (Snowball/Porter2), so "painting", "paintings" and "painted"
meet. In a text with Chinese in it, an ASCII word is indexed as written too (pinyin, names,
brands: ``lang.en.forms``). Changing what ``segment`` returns means bumping ``FTS_VERSION``:
the store then re-indexes its turns on open.

A long text is read in slices (``text.slices``): a run of one script longer than ``LIMIT``
characters is cut into runs of that length, so jieba and the stemmer never take a run of
100,000 characters in one call, and the thread hands the GIL over between slices.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from .lang import STOPWORDS, en, has_cjk, zh
from .lang.zh import cut as _cut  # people.resolve warms jieba through it
from .slices import LIMIT, handing_over

_WORD = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+"
)

# The version of what segment() produces; a store re-indexes when it changes.
# 3: the speaker's name is no longer indexed with the words; 4: an ASCII word in a text with
# Chinese keeps its written form beside its stem. (Cutting runs longer than ``LIMIT`` changed
# no term of any text in LoCoMo, MADial or LongMemEval, whose longest runs are 30 Chinese and
# 337 Latin characters: no re-index for it.)
FTS_VERSION = 4

stem = en.stem
bigrams = zh.bigrams


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens: Chinese runs cut with jieba, other words by ``lang.en.forms``."""
    out: list[str] = []
    lower = text.lower()
    english = not has_cjk(lower)
    for batch in handing_over(_batches(lower)):
        for piece in batch:
            if zh.CJK.fullmatch(piece):
                out.extend(_cut(piece) if len(piece) > 1 else [piece])
            elif piece not in STOPWORDS:
                out.extend(en.forms(piece, english))
    return out


def _runs(lower: str) -> Iterator[str]:
    """The word runs of a lower-cased text (Chinese, or other letters and digits), a run
    longer than ``LIMIT`` cut into runs of that length."""
    for match in _WORD.finditer(lower):
        run = match.group(0)
        if len(run) <= LIMIT:
            yield run
        else:
            yield from (run[i : i + LIMIT] for i in range(0, len(run), LIMIT))


def _batches(lower: str) -> Iterator[list[str]]:
    """The runs of ``_runs`` in batches of about ``LIMIT`` characters: a text within it is one
    batch, a longer one lets other threads run between two of them (``handing_over``)."""
    batch: list[str] = []
    size = 0
    for run in _runs(lower):
        if batch and size + len(run) > LIMIT:
            yield batch
            batch, size = [], 0
        batch.append(run)
        size += len(run)
    if batch:
        yield batch


def ascii_tokens(text: str) -> list[str]:
    """The tokens() of ``text``'s ASCII words only: no Chinese segmentation, so it is cheap.

    Every other token of a text is a piece of its lower-cased self, so a non-ASCII term
    that does not occur in the text is not among its tokens either.

    >>> ascii_tokens("预算 Budget paintings, café"), ascii_tokens("Budget paintings, café")
    (['budget', 'paintings', 'paint'], ['budget', 'paint'])
    """
    lower = text.lower()
    english = not has_cjk(lower)
    return [form for piece in _runs(lower) if piece.isascii() and piece not in STOPWORDS
            for form in en.forms(piece, english)]


def segment(text: str) -> str:
    """Text as space-separated tokens (words, plus Chinese bigrams), for an FTS5 index."""
    return " ".join([*tokens(text), *bigrams(text)])


@lru_cache(maxsize=4096)
def term_counts(text: str) -> tuple[tuple[str, int], ...]:
    """A query's content tokens (words, Chinese bigrams; stopwords removed), each with how
    often its segmented text holds it (as a turn's is indexed), in first-seen order.

    >>> term_counts("奶奶生病了。我想画画给奶奶")[:2]
    (('奶奶', 4), ('生病', 2))
    """
    # counted in the text as ``segment`` indexes it: a two-character word is also its own bigram
    return tuple(Counter(t for t in [*tokens(text), *bigrams(text)] if t not in STOPWORDS).items())


def query_terms(text: str) -> tuple[str, ...]:
    """Distinct content tokens of a query (words, Chinese bigrams), stopwords removed."""
    return tuple(term for term, _ in term_counts(text))


__all__ = ["FTS_VERSION", "STOPWORDS", "ascii_tokens", "bigrams", "has_cjk", "query_terms", "segment", "term_counts",
           "stem", "tokens"]
