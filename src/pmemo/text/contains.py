"""The plain text filter: keep what contains a piece of text, in any case.

It is what a person browsing turns means by "containing": a substring, not words or a
search (``search`` ranks by meaning and keywords). Case is ignored with ``str.lower``, so
"Budget" finds "budget" and "预算" finds itself inside a sentence with no spaces.

>>> from types import SimpleNamespace as Turn
>>> said = [Turn(content="预算不能超过10万元"), Turn(content="The Budget"), Turn(content="plan")]
>>> [t.content for t in containing(said, "预算")], [t.content for t in containing(said, "budget")]
(['预算不能超过10万元'], ['The Budget'])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar


class HasContent(Protocol):
    @property
    def content(self) -> str: ...


T = TypeVar("T", bound=HasContent)


def containing(items: Iterable[T], needle: str) -> list[T]:
    """The items whose ``content`` contains ``needle`` (any case), in their order:
    ``containing(turns, "TEA")`` keeps "Tea at 5", not "coffee"."""
    wanted = needle.lower()
    return [item for item in items if wanted in item.content.lower()]
