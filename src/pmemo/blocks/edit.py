"""The two edits an agent makes to a block, MemGPT's ``core_memory_append`` and
``core_memory_replace``, as pure functions of its text; and the file's new bytes, which
keep everything but the body as it was.

>>> appended("Likes tea.", "Lives in Lisbon.")
'Likes tea.\\nLives in Lisbon.'
>>> replaced("Likes tea.", "tea", "coffee")
'Likes coffee.'
>>> rewritten("---\\nlabel: notes  # mine\\n---\\n\\nold\\n", "new")
'---\\nlabel: notes  # mine\\n---\\n\\nnew\\n'
"""

from __future__ import annotations

from ..errors import InvalidInput
from .model import Block
from .parse import split


def appended(value: str, text: str) -> str:
    """``text`` as a new line at the end (the whole text, when the block is empty)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text to append is empty: give the line to add")
    return f"{value}\n{text.strip()}" if value else text.strip()


def replaced(value: str, old: str, new: str) -> str:
    """``old`` replaced by ``new``; ``old`` must occur exactly once (quote more of it if it
    occurs more often), ``new`` may be empty (to delete it)."""
    if not isinstance(old, str) or not old:
        raise InvalidInput("old is empty: give the exact text to replace")
    if not isinstance(new, str):
        raise InvalidInput(f"new must be text, got {type(new).__name__}")
    times = value.count(old)
    if times != 1:
        what = "does not occur" if not times else f"occurs {times} times"
        raise InvalidInput(f"old {old[:60]!r} {what} in the block: quote exactly one place of its text")
    return value.replace(old, new).strip()


def within_limit(block: Block, value: str) -> str:
    if len(value) > block.limit:
        raise InvalidInput(f"block {block.label!r} would be {len(value)} characters, over its limit of"
                           f" {block.limit} (`limit` in {block.path}): shorten the text or replace old parts")
    return value


def rewritten(text: str, value: str) -> str:
    """The file ``text`` with its body set to ``value``: front matter, boundaries and the
    whitespace around the body stay exactly as they were."""
    parts = split(text)
    return parts.head + value + (parts.tail or "\n")
