"""The daily diary (issue 20): one entry per group or private chat and day."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from ..models import Diary
from .common import Out, ScopeIn, examples, owner_of

DIARY_TEXT = ("2024年12月20日（周五）：38 条消息，5 人发言。\n话题：高数、火锅、出差\n"
              "谁说了什么：\n- 周霓（9 条）：下周三考高数…")


def _iso_day(value: Any) -> Any:
    """A JSON string "YYYY-MM-DD" as a date (a strict body takes no other string as one)."""
    if not isinstance(value, str):
        return value  # anything else is refused by the strict date check
    try:
        if len(value) == 10:
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise PydanticCustomError("date_iso", "must be a calendar day as YYYY-MM-DD, like 2024-12-20")


Day = Annotated[date, BeforeValidator(_iso_day)]


class DiaryIn(ScopeIn):
    """``Memory.write_diary``: write (or rewrite) a chat's entry of ``day`` now."""

    model_config = examples({"group_id": "study", "day": "2024-12-20"}, {"user_id": "alice"})

    day: Day | None = Field(None, description="The day (in the diary's time zone); default: today there.")


class DiaryOut(Out):
    """One day of a group or private chat: written by the LLM in the agent's voice (``llm``) or
    a digest of what was said (``digest``); ``source_ids`` are the turns it was written from."""

    id: int
    user_id: str | None
    group_id: str | None = Field(examples=["study"])
    agent_id: str
    day: date = Field(examples=["2024-12-20"])
    text: str = Field(examples=[DIARY_TEXT])
    method: str = Field(description="llm or digest", examples=["digest"])
    source_ids: list[int]
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, d: Diary) -> DiaryOut:
        return cls.read(d, **owner_of(d))


class DiariesOut(BaseModel):
    entries: list[DiaryOut] = Field(description="Oldest first.")
