"""A turn's attachments (a picture, a file it shared) as metadata, and the text they add to its indexes.

A turn carries them as ``metadata={"attachments": [{"type": "image", "caption": "a dog on
grass"}]}``; its content stays what the person wrote. The captions are what the keyword
index and the embedding see besides the words (``indexed``), so a question about the
picture finds the turn; signals that read what a person wrote (did the turn end by asking?)
read the content alone.

>>> meta = {"attachments": [{"type": "image", "caption": "a dog on grass"}]}
>>> indexed("Look at him!", meta)
'Look at him! [image: a dog on grass]'
>>> indexed("Look at him!", {}), of(meta)
('Look at him!', [('image', 'a dog on grass')])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_ATTACHMENTS = 20
MAX_CAPTION = 2000  # characters


def problem(value: Any) -> str | None:
    """What is wrong with a turn's ``metadata["attachments"]``, or None when it is well formed:
    a list of dicts, each with a ``type`` ("image", "file", …) and an optional ``caption``."""
    if not isinstance(value, list) or len(value) > MAX_ATTACHMENTS:
        return f'metadata "attachments" must be a list of at most {MAX_ATTACHMENTS} dicts'
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("type"), str) or not item["type"].strip():
            return 'each of metadata "attachments" must be a dict with a "type" such as "image" or "file"'
        caption = item.get("caption")
        if caption is not None and (not isinstance(caption, str) or len(caption) > MAX_CAPTION):
            return f'an attachment\'s "caption" must be a string of at most {MAX_CAPTION} characters'
    return None


def of(metadata: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(type, caption) of each captioned attachment (metadata validated on the way in)."""
    found = metadata.get("attachments") if isinstance(metadata, Mapping) else None
    if not isinstance(found, list):
        return []
    return [(str(a.get("type", "")), a["caption"].strip()) for a in found
            if isinstance(a, dict) and isinstance(a.get("caption"), str) and a["caption"].strip()]


def indexed(content: str, metadata: Mapping[str, Any]) -> str:
    """What a turn's keyword index and embedding read: its content, then each attachment's
    caption labelled with its type (a label written here, never parsed back)."""
    extra = " ".join(f"[{kind}: {caption}]" for kind, caption in of(metadata))
    return f"{content} {extra}" if extra else content
