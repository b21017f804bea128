"""Turns in and out: ``Memory.add`` / ``add_many`` bodies and the stored turn."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Discriminator, Field, Tag, field_validator
from pydantic_core import PydanticCustomError

from ..models import Turn
from ..validate import ROLES, lone_surrogate
from .common import MAX_CONTENT, Out, RowId, ScopeIn, Strict, When, _id, examples, owner_of


class TurnIn(ScopeIn):
    """One message, as ``Memory.add`` takes it."""

    model_config = examples(
        {"user_id": "alice", "session_id": "s1", "role": "user", "content": "I moved to Lisbon last spring."})

    session_id: str | None = _id(
        None, examples=["s1"],
        description="The conversation; left out, the turn joins its chat's current session (a new one after"
        " PMEMO_SESSION_GAP_MINUTES of silence or at the day's turn) and the stored turn names it.")
    content: str = Field(min_length=1, max_length=MAX_CONTENT, pattern=r"\S")
    role: str = Field("user", json_schema_extra={"enum": list(ROLES)}, description=", ".join(ROLES))
    actor: str | None = Field(
        None, max_length=128, pattern=r"\S", description="The speaker's display name at the time."
    )
    actor_id: str | None = _id(
        None, description="The speaker's stable person id (see /v1/people); `actor` is only their name then."
    )
    timestamp: When | None = None
    metadata: dict[str, Any] | None = Field(
        None, max_length=50,
        description="Small JSON object kept with the turn. Read by pmemo: `message_id` (the platform's id of this"
        " message), `reply_to_message` (the platform's id of the message it answers), `kind` (`notice`, `rename`,"
        " `join`, `leave`, `recall`, `poke`, or a medium: `image`, `voice`, `sticker`, `link` …), `person` and"
        " `name` of a notice, `mentions` (person ids tagged), `attachments`, `gender`.")
    reply_to: RowId | None = Field(
        None,  # a row id as every other (1..MAX_ID, 127.0 read as 127)
        description="The id of the turn of this chat this one answers. Without it, `metadata.reply_to_message`"
        " or a quote the text opens with (「名片：原文」 or `>` lines) ties it.")

    @field_validator("role")
    @classmethod
    def _known_role(cls, value: str) -> str:
        if value not in ROLES:
            raise PydanticCustomError("role", "must be one of {roles}", {"roles": ", ".join(ROLES)})
        return value

    @field_validator("metadata")
    @classmethod
    def _valid_unicode(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        """Every key and value at any depth (the library checks too, for its own callers)."""
        found = lone_surrogate(value, "")
        if found:
            # "path" is read by the 422 handler: the field is metadata<path>
            raise PydanticCustomError("string_unicode", found[1], {"path": found[0]})
        return value

    def args(self, tenant: str) -> dict[str, Any]:
        return {
            **self.scope(),
            "tenant_id": tenant,
            "session_id": self.session_id,
            "content": self.content,
            "role": self.role,
            "actor": self.actor,
            "actor_id": self.actor_id,
            "timestamp": self.timestamp,
            "metadata": self.metadata,
            "reply_to": self.reply_to,
        }


class TurnBatch(Strict):
    """Many turns in one call (``Memory.add_many``), stored in order."""

    turns: list[TurnIn] = Field(
        min_length=1, description="At most `PMEMO_MAX_BATCH` turns (500 unless set); more: 413."
    )


def _one_or_batch(value: Any) -> str:
    return "TurnBatch" if isinstance(value, dict) and "turns" in value else "TurnIn"


# A body with "turns" is a batch and is checked as one only: its errors never mix with the
# single turn's (and the other way round). The tags are the class names, which the 422
# handler leaves out of a field's name like every model name.
TurnOrBatch = Annotated[
    Annotated[TurnIn, Tag("TurnIn")] | Annotated[TurnBatch, Tag("TurnBatch")],
    Discriminator(_one_or_batch),
]


class TurnOut(Out):
    id: int
    session_id: str
    user_id: str | None
    group_id: str | None
    agent_id: str
    step: int
    role: str
    content: str
    actor: str | None
    actor_id: str | None
    timestamp: datetime
    metadata: dict[str, Any]
    reply_to: int | None = None

    @classmethod
    def of(cls, t: Turn) -> TurnOut:
        return cls.read(t, **owner_of(t), metadata=dict(t.metadata or {}))


class TurnsOut(BaseModel):
    turns: list[TurnOut]
