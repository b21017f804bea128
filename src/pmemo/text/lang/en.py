"""English: stop words and Snowball (Porter2) stems, so "painting", "paintings" and "painted" meet."""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

_stemmer = snowballstemmer.stemmer("english")
# a Snowball stemmer keeps the word it works on in itself: two threads stemming at once (a
# server's requests, an embedder's) broke each other's words (IndexError in find_among_b)
_stem_lock = threading.Lock()

# function words that say nothing about what a message is about (general English, no dataset's)
STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    do does did have has had i you he she it we they me him her us them my your his its our their
    this that these those what which who whom whose when where why how not no yes so than then
    there here can could would should will shall may might must about into over after before
    just also very too any some all more most other such only own same s t don doesn didn""".split()
)
# greetings, interjections and acknowledgements (stems, as ``forms`` makes them): a chat line
# made of these and stop words says nothing a memory could be about (text.dialogue)
FILLER = frozenset(
    """hi hello hey yeah yep yup ok okay sure thank thanks lol haha hah oh ah um uh hmm wow cool nice
    great bye goodby morn night good alright right yes no please welcom""".split()
)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English stem of a lower-cased ASCII word (other words come back unchanged).

    >>> stem("paintings"), stem("xiaoming"), stem("café")
    ('paint', 'xiaom', 'café')
    """
    if not word.isascii():
        return word
    with _stem_lock:
        return str(_stemmer.stemWord(word))


def forms(word: str, english: bool) -> list[str]:
    """The index terms of one lower-cased non-Chinese word: its stem in an English-looking
    text; in another (one with Chinese in it) the word as written too, so pinyin, names and
    brands keep their own term while an English query's stem still finds them.

    >>> forms("paintings", True), forms("xiaoming", False), forms("wang", False)
    (['paint'], ['xiaoming', 'xiaom'], ['wang'])
    """
    stemmed = stem(word)
    return [stemmed] if english or stemmed == word else [word, stemmed]
