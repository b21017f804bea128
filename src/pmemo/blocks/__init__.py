"""Core memory blocks (issue 20): markdown files with YAML front matter, always whole in the
context, hot-reloaded, and editable by the agent's MemGPT-style tools where a file allows it.

    model.py    Block and who sees which (pure)
    parse.py    a file's bytes → a Block, problems said, never raised
    folder.py   the folder held in memory, reloaded on change; edits written back
    watch.py    the thread that notices changes (watchfiles, or polling)
    edit.py     append and replace, as functions of the text
    write.py    the atomic file write
    render.py   blocks in a context: markdown or the MemGPT/Letta layout
    derive.py   the groups' read-only ``human`` blocks, written from their people's facts

python-frontmatter and watchfiles are imported when a folder is first read, not here.
"""

from __future__ import annotations

from .model import Block

__all__ = ["Block"]
