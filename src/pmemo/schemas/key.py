"""Key memory: the lines always in context, added, edited and listed."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from ..models import KeyLine
from .common import RowId, ScopeIn, Strict

MAX_KEY_TEXT = 1_000  # the library's limit (validate.key_text)


class KeyIn(ScopeIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"user_id": "alice", "text": "Prefers short answers."}]},
    )

    text: str = Field(min_length=1, max_length=MAX_KEY_TEXT, pattern=r"\S")


class KeyUpdate(Strict):
    text: str = Field(
        min_length=1, max_length=MAX_KEY_TEXT, pattern=r"\S", examples=["Prefers answers in Portuguese."]
    )
    version: RowId | None = Field(
        None,
        description="The version you read; a line changed since then is left alone (409)."
        " Or send `If-Match: \"<version>\"`.",
    )


class KeyLineOut(BaseModel):
    id: int
    text: str
    origin: str
    source_ids: list[int]
    created_at: datetime
    updated_at: datetime
    version: int = Field(description="+1 on every change; send it back to update safely")

    @classmethod
    def of(cls, k: KeyLine) -> KeyLineOut:
        return cls(
            id=k.id,
            text=k.text,
            origin=k.origin,
            source_ids=list(k.source_ids),
            created_at=k.created_at,
            updated_at=k.updated_at,
            version=k.version,
        )


class KeyLinesOut(BaseModel):
    lines: list[KeyLineOut]
