"""Blocks in a context (pure): one item per block, and how the section is written.

``markdown`` (the default) writes them like every other section, under ``## Core memory``,
one ``### label`` each. ``memgpt`` writes the layout MemGPT/Letta agents are prompted with
(Letta's ``Memory.compile``): a ``<memory_blocks>`` element holding, per block, its
description, its size against its limit (and ``read_only``), and its value, so an agent
built for those prompts, and for ``core_memory_append``/``core_memory_replace``, reads them
as it expects.

>>> print(memgpt([Block("persona", "Who I am", 100, value="I am Momo.")]))
<memory_blocks>
The following memory blocks are currently engaged in your core memory unit:
<BLANKLINE>
<persona>
<description>
Who I am
</description>
<metadata>
- read_only=true
- chars_current=10
- chars_limit=100
</metadata>
<value>
I am Momo.
</value>
</persona>
<BLANKLINE>
</memory_blocks>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InvalidInput
from ..models import Hit
from .model import Block

STYLES = ("markdown", "memgpt")
MEMGPT_INTRO = "The following memory blocks are currently engaged in your core memory unit:"


def check_style(style: object) -> str:
    if style not in STYLES:
        raise InvalidInput(f"format must be one of {', '.join(map(repr, STYLES))}, got {style!r:.40}")
    return str(style)


def block_hits(blocks: Sequence[Block]) -> list[Hit]:
    """The context items of ``blocks`` (in context order): the text is the block's value."""
    return [Hit(f"block:{b.label}", "block", "blocks", b.value, 1.0,
                f"core memory block {b.label!r} from {b.path}, always in context", ()) for b in blocks]


def section_writers(blocks: Sequence[Block], style: str) -> dict[str, Callable[[Sequence[Hit]], str]]:
    """How ``assemble`` writes the blocks section in ``style`` (markdown: as any section)."""
    if style == "markdown":
        return {}
    by_label = {b.label: b for b in blocks}
    return {"blocks": lambda hits: memgpt([by_label[h.id.removeprefix("block:")] for h in hits])}


def memgpt(blocks: Sequence[Block]) -> str:
    """``blocks`` in Letta's standard memory-block layout."""
    parts = [f"<memory_blocks>\n{MEMGPT_INTRO}\n"]
    for b in blocks:
        flags = "\n- read_only=true" if b.read_only or not b.editable else ""
        parts.append(f"<{b.label}>\n<description>\n{b.description}\n</description>\n"
                     f"<metadata>{flags}\n- chars_current={b.chars}\n- chars_limit={b.limit}\n</metadata>\n"
                     f"<value>\n{b.value}\n</value>\n</{b.label}>\n")
    return "\n".join(parts) + "\n</memory_blocks>"
