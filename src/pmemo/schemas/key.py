"""Key memory: the lines always in context, added, edited and listed."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from ..models import KeyLine
from .common import Out, RowId, ScopeIn, Strict, examples, read_version

MAX_KEY_TEXT = 1_000  # the library's limit (validate.key_text)


class KeyIn(ScopeIn):
    model_config = examples({"user_id": "alice", "text": "Prefers short answers."})

    text: str = Field(min_length=1, max_length=MAX_KEY_TEXT, pattern=r"\S")


class KeyUpdate(Strict):
    text: str = Field(
        min_length=1, max_length=MAX_KEY_TEXT, pattern=r"\S", examples=["Prefers answers in Portuguese."]
    )
    version: RowId | None = read_version("line")


class KeyLineOut(Out):
    id: int
    text: str
    origin: str
    source_ids: list[int]
    created_at: datetime
    updated_at: datetime
    version: int = Field(description="+1 on every change; send it back to update safely")

    @classmethod
    def of(cls, k: KeyLine) -> KeyLineOut:
        return cls.read(k)


class KeyLinesOut(BaseModel):
    lines: list[KeyLineOut]
