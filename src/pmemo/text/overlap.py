"""How much of a query a text holds (pure): the share of the query's content words found in it.

Retrieval weighs hits with it, and the graph section ranks triples by it: one measure of
"this says what was asked", below both.
"""

from __future__ import annotations

from functools import lru_cache

from .segment import ascii_tokens, query_terms, tokens


def overlap(query: str, text: str) -> float:
    """Share of the query's content words found in ``text`` (0..1).

    >>> overlap("budget 预算 paintings", "The budget (预算) is fixed")
    0.5
    """
    terms = query_terms(query)
    if not terms:
        return 0.0
    lower = text.lower()
    # segmenting Chinese is what costs: only needed when a non-ASCII term occurs in the text
    # (every non-ASCII token is a piece of the text), and summaries are new query after query
    chinese = any(not t.isascii() and t in lower for t in terms)
    present = _words(text) if chinese else _ascii_words(text)
    return sum(t in present for t in terms) / len(terms)


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """A text's words, kept: the same key lines and summaries meet query after query."""
    return frozenset(tokens(text))


@lru_cache(maxsize=4096)
def _ascii_words(text: str) -> frozenset[str]:
    return frozenset(ascii_tokens(text))
